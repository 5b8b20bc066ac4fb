// CachingObjectStore: a byte-bounded LRU cache in front of a store, for objects that never
// change once written (Iceberg metadata JSON, manifests and manifest lists, Parquet footers).
//
// Caches whole objects (Get), byte ranges (GetRange and the InputFiles it opens) and sizes
// (Head/OpenInput), so re-planning a table does not fetch its manifests again. Only keys the
// `cacheable` predicate accepts are cached (by default all but "version-hint.text", the one
// file Iceberg rewrites in place). Writes and deletes through this wrapper drop the key's
// entries; writes that bypass it are not seen, which is why only immutable objects belong here.
// Owns the wrapped store. Thread-safe; concurrent misses of one entry may both fetch it.
#pragma once

#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "io/object_store.h"

namespace floe::io {

struct CacheOptions {
  uint64_t capacity_bytes = 64 << 20;
  // Objects or ranges larger than this are passed through uncached (0: capacity / 4).
  uint64_t max_entry_bytes = 0;
  std::function<bool(std::string_view key)> cacheable;  // Empty: everything but version hints.
};

struct CacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t evictions = 0;
  uint64_t bytes = 0;    // Currently held.
  uint64_t entries = 0;  // Currently held.
};

class CachingObjectStore final : public ObjectStore {
 public:
  CachingObjectStore(std::unique_ptr<ObjectStore> inner, CacheOptions options = {});

  CacheStats Stats() const;
  ObjectStore& inner() { return *inner_; }

  Result<std::string> Get(std::string_view key) override;
  Result<std::string> GetRange(std::string_view key, uint64_t offset, uint64_t length) override;
  Result<ObjectInfo> Head(std::string_view key) override;
  Result<std::unique_ptr<InputFile>> OpenInput(std::string_view key) override;
  Status Put(std::string_view key, std::string_view bytes) override;
  Status PutIfAbsent(std::string_view key, std::string_view bytes) override;
  Result<std::unique_ptr<OutputStream>> OpenOutput(std::string_view key) override;
  Status Delete(std::string_view key) override;
  Status DeleteMany(const std::vector<std::string>& keys) override;
  Result<ListResult> List(std::string_view prefix, std::string_view delimiter,
                          std::optional<std::string> continuation_token, int max_keys = 1000) override;
  Result<std::vector<ObjectInfo>> ListUnfinishedWrites(std::string_view prefix) override {
    return inner_->ListUnfinishedWrites(prefix);
  }
  Status DeleteUnfinishedWrites(const std::vector<std::string>& keys) override { return inner_->DeleteUnfinishedWrites(keys); }
  std::string Uri(std::string_view key) const override;
  std::optional<std::string> KeyForUri(std::string_view uri) const override { return inner_->KeyForUri(uri); }

  // Used by the InputFiles this store opens.
  Result<std::string> CachedRange(const std::string& key, uint64_t offset, uint64_t length,
                                  const std::function<Result<std::string>()>& fetch);

 private:
  // Entry ids: "\x01key" whole object, "\x02key" size (Head), "\x03key\0offset\0length" a range.
  struct Entry {
    std::string id;
    std::string object_key;
    std::string value;
    ObjectInfo info;  // For size entries.
  };
  using Lru = std::list<Entry>;

  bool Cacheable(std::string_view key) const;
  // Returns a copy of the entry's value on a hit, and moves it to the front.
  std::optional<Entry> Lookup(const std::string& id);
  void Insert(Entry entry);
  void Invalidate(std::string_view key);
  void EvictLocked(Lru::iterator it);

  std::unique_ptr<ObjectStore> inner_;
  CacheOptions options_;

  mutable std::mutex mu_;
  Lru lru_;                                                        // Front: most recently used.
  std::unordered_map<std::string, Lru::iterator> by_id_;           // Guarded by mu_.
  std::unordered_multimap<std::string, std::string> ids_by_key_;   // Guarded by mu_.
  CacheStats stats_;                                               // Guarded by mu_.
};

}  // namespace floe::io
