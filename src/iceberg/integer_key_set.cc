#include "iceberg/integer_key_set.h"

#include <algorithm>

namespace floe::iceberg {

IntegerKeySet::IntegerKeySet(std::vector<int64_t> keys) {
  if (keys.empty()) return;
  auto [min, max] = std::minmax_element(keys.begin(), keys.end());
  // The span as unsigned: max - min may not fit a signed 64-bit number.
  const uint64_t range = static_cast<uint64_t>(*max) - static_cast<uint64_t>(*min) + 1;
  if (range != 0 && range / kMaxBitsPerKey <= keys.size()) {
    BuildBitmap(keys, *min, range);
  } else {
    BuildHashTable(keys);
  }
}

void IntegerKeySet::BuildBitmap(const std::vector<int64_t>& keys, int64_t min, uint64_t range) {
  base_ = min;
  bit_count_ = range;
  bits_.assign(static_cast<size_t>((range + 63) / 64), 0);
  for (int64_t key : keys) {
    const uint64_t offset = static_cast<uint64_t>(key) - static_cast<uint64_t>(min);
    uint64_t& word = bits_[offset >> 6];
    const uint64_t bit = uint64_t{1} << (offset & 63);
    size_ += (word & bit) ? 0 : 1;
    word |= bit;
  }
}

void IntegerKeySet::BuildHashTable(const std::vector<int64_t>& keys) {
  size_t capacity = 1024;
  while (capacity < 2 * keys.size()) capacity *= 2;
  slots_.assign(capacity, kEmpty);
  const size_t mask = capacity - 1;
  for (int64_t key : keys) {
    if (key == kEmpty) {
      size_ += has_empty_key_ ? 0 : 1;
      has_empty_key_ = true;
      continue;
    }
    for (size_t i = Hash(key) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == kEmpty) {
        slots_[i] = key;
        ++size_;
        break;
      }
      if (slots_[i] == key) break;
    }
  }
}

}  // namespace floe::iceberg
