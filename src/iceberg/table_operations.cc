#include "iceberg/table_operations.h"

#include <charconv>
#include <chrono>
#include <random>

#include "iceberg/table_metadata_builder.h"

namespace floe::iceberg {
namespace {

std::mt19937_64& Rng() {
  thread_local std::mt19937_64 rng(std::random_device{}() ^
                                   (static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) << 1));
  return rng;
}

std::string Join(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  return std::string(a) + "/" + std::string(b);
}

// The version number of a metadata file name: "v12.metadata.json" -> 12,
// "v3.gz.metadata.json" -> 3, "00005-<uuid>.metadata.json" -> 5; nullopt otherwise.
std::optional<int64_t> VersionOf(std::string_view name) {
  if (!name.ends_with(".metadata.json")) return std::nullopt;
  std::string_view digits = name;
  if (digits.starts_with("v")) digits.remove_prefix(1);
  size_t end = 0;
  while (end < digits.size() && digits[end] >= '0' && digits[end] <= '9') ++end;
  if (end == 0) return std::nullopt;
  int64_t v = 0;
  std::from_chars(digits.data(), digits.data() + end, v);
  std::string_view rest = digits.substr(end);
  if (!(rest == ".metadata.json" || rest == ".gz.metadata.json" || rest.starts_with("-"))) return std::nullopt;
  return v;
}

}  // namespace

std::string NormalizeLocation(std::string_view location) {
  std::string_view s = location;
  if (s.starts_with("file://")) {
    s.remove_prefix(7);
  } else if (s.starts_with("file:")) {
    s.remove_prefix(5);
  }
  while (s.starts_with("./")) s.remove_prefix(2);
  while (s.size() > 1 && s.back() == '/') s.remove_suffix(1);
  return std::string(s);
}

std::string NewUuid() {
  uint64_t a = Rng()(), b = Rng()();
  a = (a & 0xFFFFFFFFFFFF0FFFULL) | 0x0000000000004000ULL;  // version 4
  b = (b & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;  // variant 10
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", a >> 32, (a >> 16) & 0xFFFF, a & 0xFFFF, b >> 48,
                     b & 0xFFFFFFFFFFFFULL);
}

int64_t NewSnapshotId() {
  int64_t id = 0;
  while (id == 0) id = static_cast<int64_t>(Rng()() & 0x7FFFFFFFFFFFFFFFULL);
  return id;
}

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

FileSystemTableOperations::FileSystemTableOperations(std::shared_ptr<io::ObjectStore> store, std::string table_key)
    : store_(std::move(store)), table_key_(std::move(table_key)) {
  while (!table_key_.empty() && table_key_.back() == '/') table_key_.pop_back();
  recorded_location_ = NormalizeLocation(store_->Uri(table_key_));
}

std::string FileSystemTableOperations::MetadataKey(std::string_view file) const {
  return Join(table_key_, fmt::format("metadata/{}", file));
}

Result<std::optional<std::string>> FileSystemTableOperations::FindLatestMetadataKey(int64_t* version) {
  // The hint names a version that exists; later versions may exist if a writer died between
  // writing its metadata file and the hint, so probe forward.
  int64_t hinted = 0;
  auto hint = store_->Get(MetadataKey("version-hint.text"));
  if (hint) {
    std::string_view text = *hint;
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.remove_suffix(1);
    auto v = VersionOf(fmt::format("v{}.metadata.json", text));
    if (v) hinted = *v;
  } else if (hint.error().kind() != ErrorKind::kNotFound) {
    return std::unexpected(hint.error());
  }
  if (hinted > 0) {
    int64_t v = hinted;
    std::optional<std::string> found;
    while (true) {
      std::string plain = MetadataKey(fmt::format("v{}.metadata.json", v));
      std::string gz = MetadataKey(fmt::format("v{}.gz.metadata.json", v));
      if (store_->Head(plain)) {
        found = plain;
      } else if (store_->Head(gz)) {
        found = gz;
      } else {
        break;
      }
      *version = v;
      ++v;
    }
    if (found) return found;
  }
  // No (usable) hint: list the metadata folder and take the highest-numbered file.
  std::optional<std::string> best;
  int64_t best_version = -1;
  std::optional<std::string> token;
  std::string prefix = MetadataKey("");
  do {
    FLOE_ASSIGN_OR_RETURN(io::ListResult page, store_->List(prefix, "/", token));
    for (const io::ObjectInfo& o : page.objects) {
      std::string_view name = std::string_view(o.key).substr(prefix.size());
      auto v = VersionOf(name);
      if (v && *v > best_version) {
        best_version = *v;
        best = o.key;
      }
    }
    token = page.next_token;
  } while (token);
  if (best) *version = best_version;
  return best;
}

Result<VersionedMetadata> FileSystemTableOperations::LoadMetadataFile(std::string_view key) {
  FLOE_ASSIGN_OR_RETURN(std::string bytes, store_->Get(key));
  FLOE_ASSIGN_OR_RETURN(TableMetadata m, TableMetadataFromJson(bytes, store_->Uri(key)));
  VersionedMetadata out;
  out.location = store_->Uri(key);
  std::string_view name = key.substr(key.rfind('/') == std::string_view::npos ? 0 : key.rfind('/') + 1);
  out.version = VersionOf(name).value_or(0);
  {
    std::lock_guard lock(mutex_);
    recorded_location_ = NormalizeLocation(m.location);
  }
  out.metadata = std::make_shared<const TableMetadata>(std::move(m));
  return out;
}

Result<VersionedMetadata> FileSystemTableOperations::Refresh() {
  if (pinned_key_) return LoadMetadataFile(*pinned_key_);
  int64_t version = 0;
  FLOE_ASSIGN_OR_RETURN(auto key, FindLatestMetadataKey(&version));
  if (!key) return NotFound("no table at {}: no metadata files", store_->Uri(table_key_));
  FLOE_ASSIGN_OR_RETURN(VersionedMetadata out, LoadMetadataFile(*key));
  out.version = version;
  return out;
}

Result<VersionedMetadata> FileSystemTableOperations::Commit(const VersionedMetadata& base, const TableChange& change) {
  if (base.version == 0 && base.metadata) {
    return NotImplemented("committing to a table whose metadata files are not named vN.metadata.json");
  }
  FLOE_RETURN_IF_ERROR(ValidateRequirements(change.requirements, base.metadata.get()));
  // Every version is stamped later than the one it replaces.
  int64_t now = std::max(NowMillis(), base.metadata ? base.metadata->last_updated_ms + 1 : 0);
  std::optional<TableMetadataBuilder> builder;
  if (base.metadata) {
    builder.emplace(TableMetadataToJsonValue(*base.metadata), base.location, now);
  } else {
    builder.emplace(now);
  }
  FLOE_RETURN_IF_ERROR(ApplyUpdates(change.updates, *builder));
  FLOE_ASSIGN_OR_RETURN(nlohmann::json built, builder->Build());
  FLOE_ASSIGN_OR_RETURN(TableMetadata updated, TableMetadataFromJsonValue(built));

  int64_t next = base.version + 1;
  bool gzip = updated.Property("write.metadata.compression-codec", "none") == "gzip";
  std::string name = gzip ? fmt::format("v{}.gz.metadata.json", next) : fmt::format("v{}.metadata.json", next);
  std::string key = MetadataKey(name);

  FLOE_RETURN_IF_ERROR(updated.Validate());
  std::string text = TableMetadataToJson(updated);
  if (gzip) {
    FLOE_ASSIGN_OR_RETURN(text, GzipCompress(text));
  }
  // Another writer's vN+1 (either spelling) means we lost the race.
  if (store_->Head(MetadataKey(gzip ? fmt::format("v{}.metadata.json", next) : fmt::format("v{}.gz.metadata.json", next)))) {
    return Conflict("table {} was changed concurrently (version {} exists)", store_->Uri(table_key_), next);
  }
  Status put = store_->PutIfAbsent(key, text);
  if (!put) {
    if (put.error().kind() == ErrorKind::kAlreadyExists) {
      return Conflict("table {} was changed concurrently (version {} exists)", store_->Uri(table_key_), next);
    }
    return std::unexpected(std::move(put).error().WithContext(fmt::format("commit of {} (outcome unknown)", key)));
  }
  // The hint only speeds up readers; they probe past a stale one.
  (void)store_->Put(MetadataKey("version-hint.text"), std::to_string(next));

  if (base.metadata && updated.Property("write.metadata.delete-after-commit.enabled", "false") == "true") {
    // Delete metadata files that fell off the log.
    for (const MetadataLogEntry& old : base.metadata->metadata_log) {
      bool kept = std::any_of(updated.metadata_log.begin(), updated.metadata_log.end(),
                              [&](const MetadataLogEntry& e) { return e.metadata_file == old.metadata_file; });
      if (!kept) {
        if (auto k = KeyForLocation(old.metadata_file)) (void)store_->Delete(*k);
      }
    }
  }
  VersionedMetadata out;
  out.location = store_->Uri(key);
  out.version = next;
  {
    std::lock_guard lock(mutex_);
    recorded_location_ = NormalizeLocation(updated.location);
  }
  out.metadata = std::make_shared<const TableMetadata>(std::move(updated));
  return out;
}

Result<std::string> FileSystemTableOperations::KeyForLocation(std::string_view location) const {
  std::string loc = NormalizeLocation(location);
  std::string recorded;
  {
    std::lock_guard lock(mutex_);
    recorded = recorded_location_;
  }
  if (!recorded.empty() && loc.size() > recorded.size() && loc.starts_with(recorded) && loc[recorded.size()] == '/') {
    return Join(table_key_, loc.substr(recorded.size() + 1));
  }
  std::string root = NormalizeLocation(store_->Uri(""));
  if (loc.size() > root.size() && loc.starts_with(root) && loc[root.size()] == '/') return loc.substr(root.size() + 1);
  return NotFound("location {} is outside table {} (recorded location {})", location, store_->Uri(table_key_),
                  recorded);
}

std::string FileSystemTableOperations::NewLocation(std::string_view relative) const {
  return store_->Uri(Join(table_key_, relative));
}

}  // namespace floe::iceberg
