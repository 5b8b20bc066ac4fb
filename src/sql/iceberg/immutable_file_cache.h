// ImmutableFileCache: parsed forms of files that never change once written (manifest lists,
// manifests, Parquet footers), keyed by their location. Iceberg never rewrites a file in place,
// so an entry needs no invalidation; only the catalog pointer (the current metadata file) must
// be re-read per query, and that is not cached here. Bounded by entry count: past the bound the
// oldest half is dropped. Thread-safe; a loader may run twice for one key under a race (both
// results are equal, one is kept).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "base/result.h"

namespace floe::sql::iceberg_sql {

template <typename T>
class ImmutableFileCache {
 public:
  explicit ImmutableFileCache(size_t capacity) : capacity_(capacity) {}

  // The cached value for `location`, or what `load` returns (cached when it succeeds).
  Result<std::shared_ptr<const T>> Get(const std::string& location,
                                       const std::function<Result<std::shared_ptr<const T>>()>& load) {
    {
      std::lock_guard lock(mutex_);
      auto it = entries_.find(location);
      if (it != entries_.end()) {
        ++hits_;
        return it->second.value;
      }
      ++misses_;
    }
    FLOE_ASSIGN_OR_RETURN(std::shared_ptr<const T> value, load());
    std::lock_guard lock(mutex_);
    if (entries_.size() >= capacity_) Shrink();
    auto [it, inserted] = entries_.emplace(location, Entry{value, ++clock_});
    return it->second.value;
  }

  int64_t hits() const {
    std::lock_guard lock(mutex_);
    return hits_;
  }
  int64_t misses() const {
    std::lock_guard lock(mutex_);
    return misses_;
  }

 private:
  struct Entry {
    std::shared_ptr<const T> value;
    uint64_t inserted = 0;
  };

  // Drops the older half of the entries (by insertion).
  void Shrink() {
    std::multimap<uint64_t, std::string> by_age;
    for (const auto& [key, entry] : entries_) by_age.emplace(entry.inserted, key);
    size_t drop = entries_.size() / 2 + 1;
    for (const auto& [age, key] : by_age) {
      if (drop-- == 0) break;
      entries_.erase(key);
    }
  }

  const size_t capacity_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;  // Guarded by mutex_.
  uint64_t clock_ = 0;                              // Guarded by mutex_.
  int64_t hits_ = 0, misses_ = 0;                   // Guarded by mutex_.
};

}  // namespace floe::sql::iceberg_sql
