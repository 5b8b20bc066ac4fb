// IntegerKeySet: a set of 64-bit keys in one flat open-addressing table (linear probing,
// at most half full), for the integer keys of equality delete files: an upsert table's scan
// builds sets of hundreds of thousands of keys and probes them once per row, where a node-based
// set spends its time allocating and chasing pointers. An empty slot holds kEmpty, so a probe
// touches one array; the key kEmpty itself is kept beside the table. Built by one thread, then
// read by any.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace floe::iceberg {

class IntegerKeySet {
 public:
  void Insert(int64_t key) {
    if (key == kEmpty) {
      size_ += has_empty_key_ ? 0 : 1;
      has_empty_key_ = true;
      return;
    }
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    if (InsertInto(slots_, key)) ++size_;
  }

  // Makes room for `n` keys without growing on the way.
  void Reserve(size_t n) {
    size_t capacity = 1024;
    while (capacity < 2 * n) capacity *= 2;
    if (capacity > slots_.size()) Rehash(capacity);
  }

  bool Contains(int64_t key) const {
    if (key == kEmpty) return has_empty_key_;
    if (slots_.empty()) return false;
    const size_t mask = slots_.size() - 1;
    for (size_t i = Hash(key) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == key) return true;
      if (slots_[i] == kEmpty) return false;
    }
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  static constexpr int64_t kEmpty = std::numeric_limits<int64_t>::min();

  // A 64-bit mix (splitmix64's finalizer): keys are often consecutive ids.
  static size_t Hash(int64_t key) {
    uint64_t x = static_cast<uint64_t>(key);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<size_t>(x ^ (x >> 31));
  }

  // Returns whether `key` (not kEmpty) was new.
  static bool InsertInto(std::vector<int64_t>& slots, int64_t key) {
    const size_t mask = slots.size() - 1;
    for (size_t i = Hash(key) & mask;; i = (i + 1) & mask) {
      if (slots[i] == kEmpty) {
        slots[i] = key;
        return true;
      }
      if (slots[i] == key) return false;
    }
  }

  void Grow() { Rehash(slots_.empty() ? 1024 : slots_.size() * 2); }

  void Rehash(size_t capacity) {
    std::vector<int64_t> slots(capacity, kEmpty);
    for (int64_t key : slots_) {
      if (key != kEmpty) InsertInto(slots, key);
    }
    slots_ = std::move(slots);
  }

  std::vector<int64_t> slots_;  // Size a power of two; kEmpty marks a free slot.
  bool has_empty_key_ = false;
  size_t size_ = 0;
};

}  // namespace floe::iceberg
