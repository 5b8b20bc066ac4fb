#include "io/caching_object_store.h"

namespace floe::io {
namespace {

std::string WholeId(std::string_view key) { return fmt::format("\x01{}", key); }
std::string SizeId(std::string_view key) { return fmt::format("\x02{}", key); }
std::string RangeId(std::string_view key, uint64_t offset, uint64_t length) {
  return fmt::format("\x03{}{}{}{}{}", key, '\0', offset, '\0', length);
}

// Bytes an entry accounts for: its value plus its bookkeeping.
uint64_t Charge(const std::string& id, const std::string& value) { return id.size() * 2 + value.size() + 96; }

class CachedInputFile final : public InputFile {
 public:
  CachedInputFile(CachingObjectStore& owner, std::string key, uint64_t size, std::string location)
      : owner_(owner), key_(std::move(key)), size_(size), location_(std::move(location)) {}
  uint64_t Size() const override { return size_; }
  Result<std::string> ReadAt(uint64_t offset, uint64_t length) const override {
    if (offset > size_ || length > size_ - offset) {
      return InvalidArgument("read {}: range [{}, {}) is past the end of the object ({} bytes)", location_, offset,
                             offset + length, size_);
    }
    return owner_.CachedRange(key_, offset, length, [&]() -> Result<std::string> {
      std::lock_guard lock(mu_);
      if (!inner_) {
        FLOE_ASSIGN_OR_RETURN(inner_, owner_.inner().OpenInput(key_));
      }
      return inner_->ReadAt(offset, length);
    });
  }
  const std::string& location() const override { return location_; }

 private:
  CachingObjectStore& owner_;
  std::string key_;
  uint64_t size_;
  std::string location_;
  // Opened on the first miss only: a fully cached file costs the store nothing.
  mutable std::mutex mu_;
  mutable std::unique_ptr<InputFile> inner_;
};

}  // namespace

CachingObjectStore::CachingObjectStore(std::unique_ptr<ObjectStore> inner, CacheOptions options)
    : inner_(std::move(inner)), options_(std::move(options)) {
  if (options_.max_entry_bytes == 0) options_.max_entry_bytes = options_.capacity_bytes / 4;
}

CacheStats CachingObjectStore::Stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

bool CachingObjectStore::Cacheable(std::string_view key) const {
  if (options_.cacheable) return options_.cacheable(key);
  return !key.ends_with("version-hint.text");
}

std::optional<CachingObjectStore::Entry> CachingObjectStore::Lookup(const std::string& id) {
  std::lock_guard lock(mu_);
  auto it = by_id_.find(id);
  if (it == by_id_.end()) {
    stats_.misses++;
    return std::nullopt;
  }
  stats_.hits++;
  lru_.splice(lru_.begin(), lru_, it->second);
  return *it->second;
}

void CachingObjectStore::EvictLocked(Lru::iterator it) {
  stats_.bytes -= Charge(it->id, it->value);
  stats_.entries--;
  auto [begin, end] = ids_by_key_.equal_range(it->object_key);
  for (auto k = begin; k != end; ++k) {
    if (k->second == it->id) {
      ids_by_key_.erase(k);
      break;
    }
  }
  by_id_.erase(it->id);
  lru_.erase(it);
}

void CachingObjectStore::Insert(Entry entry) {
  uint64_t charge = Charge(entry.id, entry.value);
  if (charge > options_.max_entry_bytes || charge > options_.capacity_bytes) return;
  std::lock_guard lock(mu_);
  if (by_id_.contains(entry.id)) return;  // A concurrent miss got here first.
  while (!lru_.empty() && stats_.bytes + charge > options_.capacity_bytes) {
    EvictLocked(std::prev(lru_.end()));
    stats_.evictions++;
  }
  ids_by_key_.emplace(entry.object_key, entry.id);
  lru_.push_front(std::move(entry));
  by_id_[lru_.front().id] = lru_.begin();
  stats_.bytes += charge;
  stats_.entries++;
}

void CachingObjectStore::Invalidate(std::string_view key) {
  std::lock_guard lock(mu_);
  std::string k(key);
  while (true) {
    auto found = ids_by_key_.find(k);
    if (found == ids_by_key_.end()) return;
    EvictLocked(by_id_.at(found->second));
  }
}

Result<std::string> CachingObjectStore::Get(std::string_view key) {
  if (!Cacheable(key)) return inner_->Get(key);
  std::string id = WholeId(key);
  if (auto hit = Lookup(id)) return std::move(hit->value);
  FLOE_ASSIGN_OR_RETURN(std::string bytes, inner_->Get(key));
  Insert(Entry{.id = std::move(id), .object_key = std::string(key), .value = bytes});
  return bytes;
}

Result<std::string> CachingObjectStore::CachedRange(const std::string& key, uint64_t offset, uint64_t length,
                                                    const std::function<Result<std::string>()>& fetch) {
  if (!Cacheable(key)) return fetch();
  {
    // A cached whole object serves any range of it.
    std::lock_guard lock(mu_);
    auto whole = by_id_.find(WholeId(key));
    if (whole != by_id_.end() && offset <= whole->second->value.size() &&
        length <= whole->second->value.size() - offset) {
      stats_.hits++;
      lru_.splice(lru_.begin(), lru_, whole->second);
      return whole->second->value.substr(offset, length);
    }
  }
  std::string id = RangeId(key, offset, length);
  if (auto hit = Lookup(id)) return std::move(hit->value);
  FLOE_ASSIGN_OR_RETURN(std::string bytes, fetch());
  Insert(Entry{.id = std::move(id), .object_key = key, .value = bytes});
  return bytes;
}

Result<std::string> CachingObjectStore::GetRange(std::string_view key, uint64_t offset, uint64_t length) {
  return CachedRange(std::string(key), offset, length, [&] { return inner_->GetRange(key, offset, length); });
}

Result<ObjectInfo> CachingObjectStore::Head(std::string_view key) {
  if (!Cacheable(key)) return inner_->Head(key);
  std::string id = SizeId(key);
  if (auto hit = Lookup(id)) return std::move(hit->info);
  FLOE_ASSIGN_OR_RETURN(ObjectInfo info, inner_->Head(key));
  Insert(Entry{.id = std::move(id), .object_key = std::string(key), .info = info});
  return info;
}

Result<std::unique_ptr<InputFile>> CachingObjectStore::OpenInput(std::string_view key) {
  if (!Cacheable(key)) return inner_->OpenInput(key);
  FLOE_ASSIGN_OR_RETURN(ObjectInfo info, Head(key));
  return std::make_unique<CachedInputFile>(*this, std::string(key), info.size, inner_->Uri(key));
}

Status CachingObjectStore::Put(std::string_view key, std::string_view bytes) {
  Invalidate(key);
  Status st = inner_->Put(key, bytes);
  Invalidate(key);
  return st;
}

Status CachingObjectStore::PutIfAbsent(std::string_view key, std::string_view bytes) {
  Status st = inner_->PutIfAbsent(key, bytes);
  Invalidate(key);  // A cached "not found" is never stored, but a stale size might be.
  return st;
}

Result<std::unique_ptr<OutputStream>> CachingObjectStore::OpenOutput(std::string_view key) {
  Invalidate(key);
  return inner_->OpenOutput(key);
}

Status CachingObjectStore::Delete(std::string_view key) {
  Status st = inner_->Delete(key);
  Invalidate(key);
  return st;
}

Status CachingObjectStore::DeleteMany(const std::vector<std::string>& keys) {
  Status st = inner_->DeleteMany(keys);
  for (const std::string& key : keys) Invalidate(key);
  return st;
}

Result<ListResult> CachingObjectStore::List(std::string_view prefix, std::string_view delimiter,
                                            std::optional<std::string> continuation_token, int max_keys) {
  return inner_->List(prefix, delimiter, std::move(continuation_token), max_keys);
}

std::string CachingObjectStore::Uri(std::string_view key) const { return inner_->Uri(key); }

}  // namespace floe::io
