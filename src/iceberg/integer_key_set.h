// IntegerKeySet: an immutable set of 64-bit keys, for the integer keys of equality delete files:
// an upsert table's scan builds sets of hundreds of thousands of keys and probes them once per
// row and delete file, so a probe must cost a few instructions and one cache line at most.
//
// Keys that are dense (the usual generated ids: the range they span is at most 64 times their
// number) become a bitmap over that range: 100k order ids in 1..350k take 44 KiB, which stays
// in cache while every row probes it. Other keys go to a flat open-addressing table (linear
// probing, at most half full), where a probe touches one array and a node-based set would
// allocate and chase pointers. Built once from its keys by one thread, then read by any.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace floe::iceberg {

class IntegerKeySet {
 public:
  IntegerKeySet() = default;  // The empty set.
  // The set of `keys`; repeats are allowed.
  explicit IntegerKeySet(std::vector<int64_t> keys);

  bool Contains(int64_t key) const {
    if (!bits_.empty()) {
      // Unsigned subtraction: keys below base_ wrap to large offsets and fall outside.
      const uint64_t offset = static_cast<uint64_t>(key) - static_cast<uint64_t>(base_);
      return offset < bit_count_ && ((bits_[offset >> 6] >> (offset & 63)) & 1) != 0;
    }
    if (key == kEmpty) return has_empty_key_;
    if (slots_.empty()) return false;
    const size_t mask = slots_.size() - 1;
    for (size_t i = Hash(key) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == key) return true;
      if (slots_[i] == kEmpty) return false;
    }
  }

  // Sets marks[i] to 1 for each of the `count` values in the set (a mark already set stays
  // set): the scan's per-batch probe, one loop without a call per value.
  template <typename T>
  void MarkContained(const T* values, size_t count, uint8_t* marks) const {
    if (empty()) return;
    for (size_t i = 0; i < count; ++i) marks[i] |= Contains(static_cast<int64_t>(values[i])) ? 1 : 0;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool is_bitmap() const { return !bits_.empty(); }

 private:
  static constexpr int64_t kEmpty = std::numeric_limits<int64_t>::min();
  // A bitmap costs at most 64 bits a key: no more than the hash table's two 8-byte slots.
  static constexpr uint64_t kMaxBitsPerKey = 64;

  // A 64-bit mix (splitmix64's finalizer): keys are often consecutive ids.
  static size_t Hash(int64_t key) {
    uint64_t x = static_cast<uint64_t>(key);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<size_t>(x ^ (x >> 31));
  }

  void BuildBitmap(const std::vector<int64_t>& keys, int64_t min, uint64_t range);
  void BuildHashTable(const std::vector<int64_t>& keys);

  // Bitmap form: bit (key - base_) of bits_, for keys in [base_, base_ + bit_count_).
  std::vector<uint64_t> bits_;
  int64_t base_ = 0;
  uint64_t bit_count_ = 0;
  // Hash form: size a power of two; kEmpty marks a free slot, the key kEmpty is kept beside.
  std::vector<int64_t> slots_;
  bool has_empty_key_ = false;
  size_t size_ = 0;
};

}  // namespace floe::iceberg
