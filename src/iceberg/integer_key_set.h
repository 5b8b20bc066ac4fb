// IntegerKeySet: a set of 64-bit keys in one flat open-addressing table (linear probing,
// at most half full), for the integer keys of equality delete files: an upsert table's scan
// builds sets of hundreds of thousands of keys and probes them once per row, where a node-based
// set spends its time allocating and chasing pointers. Built by one thread, then read by any.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace floe::iceberg {

class IntegerKeySet {
 public:
  void Insert(int64_t key) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    if (InsertInto(slots_, used_, key)) ++size_;
  }

  bool Contains(int64_t key) const {
    if (slots_.empty()) return false;
    const size_t mask = slots_.size() - 1;
    for (size_t i = Hash(key) & mask;; i = (i + 1) & mask) {
      if (!used_[i]) return false;
      if (slots_[i] == key) return true;
    }
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  // A 64-bit mix (splitmix64's finalizer): keys are often consecutive ids.
  static size_t Hash(int64_t key) {
    uint64_t x = static_cast<uint64_t>(key);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<size_t>(x ^ (x >> 31));
  }

  // Returns whether `key` was new.
  static bool InsertInto(std::vector<int64_t>& slots, std::vector<uint8_t>& used, int64_t key) {
    const size_t mask = slots.size() - 1;
    for (size_t i = Hash(key) & mask;; i = (i + 1) & mask) {
      if (!used[i]) {
        used[i] = 1;
        slots[i] = key;
        return true;
      }
      if (slots[i] == key) return false;
    }
  }

  void Grow() {
    const size_t capacity = slots_.empty() ? 1024 : slots_.size() * 2;
    std::vector<int64_t> slots(capacity);
    std::vector<uint8_t> used(capacity, 0);
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (used_[i]) InsertInto(slots, used, slots_[i]);
    }
    slots_ = std::move(slots);
    used_ = std::move(used);
  }

  std::vector<int64_t> slots_;  // Size a power of two.
  std::vector<uint8_t> used_;   // Parallel to slots_.
  size_t size_ = 0;
};

}  // namespace floe::iceberg
