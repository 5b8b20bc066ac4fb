// Dense ids for the values of one 64-bit integer key (integers, dates, timestamps): the hash
// aggregate's table when it groups by a single such column, the common GROUP BY on an id. A
// probe hashes and compares the integer itself, where KeyTable encodes every row's key as bytes,
// hashes the bytes and compares them. NULL is a group of its own. Used by one thread at a time.
#pragma once

#include <cstdint>
#include <vector>

#include "sql/execution/key_table.h"

namespace floe::sql {

class IntGroupTable {
 public:
  // The id of `key`, inserting it as the next id when absent.
  uint32_t FindOrInsert(int64_t key) {
    if ((keys_.size() + 1) * 4 > slots_.size() * 3) Rehash(std::max<size_t>(64, slots_.size() * 2));
    for (size_t s = HashInt64(key) & mask_;; s = (s + 1) & mask_) {
      Slot& slot = slots_[s];
      if (slot.id_plus_one == 0) {
        slot.key = key;
        slot.id_plus_one = static_cast<uint32_t>(keys_.size()) + 1;
        keys_.push_back(key);
        valid_.push_back(1);
        return slot.id_plus_one - 1;
      }
      if (slot.key == key) return slot.id_plus_one - 1;
    }
  }
  // The id of the NULL group, inserting it when absent.
  uint32_t FindOrInsertNull() {
    if (null_id_ < 0) {
      null_id_ = static_cast<int64_t>(keys_.size());
      keys_.push_back(0);
      valid_.push_back(0);
    }
    return static_cast<uint32_t>(null_id_);
  }
  // Makes room for `keys` keys without growing on the way.
  void Reserve(size_t keys) {
    size_t wanted = 64;
    while (keys * 4 > wanted * 3) wanted *= 2;
    if (wanted > slots_.size()) Rehash(wanted);
    keys_.reserve(keys);
    valid_.reserve(keys);
  }
  void Prefetch(int64_t key) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[HashInt64(key) & mask_]);
  }

  size_t size() const { return keys_.size(); }
  bool IsNull(uint32_t id) const { return valid_[id] == 0; }
  int64_t KeyAt(uint32_t id) const { return keys_[id]; }
  // The keys by id, and whether each is not NULL (1) or NULL (0).
  const std::vector<int64_t>& keys() const { return keys_; }
  const std::vector<uint8_t>& valid() const { return valid_; }
  int64_t Bytes() const { return static_cast<int64_t>(slots_.capacity() * sizeof(Slot) + keys_.capacity() * 9); }

 private:
  struct Slot {
    int64_t key = 0;
    uint32_t id_plus_one = 0;  // 0: empty.
  };

  void Rehash(size_t slot_count) {
    std::vector<Slot> old(slot_count);
    old.swap(slots_);
    mask_ = slot_count - 1;
    for (uint32_t id = 0; id < keys_.size(); ++id) {
      if (valid_[id] == 0) continue;
      size_t s = HashInt64(keys_[id]) & mask_;
      while (slots_[s].id_plus_one != 0) s = (s + 1) & mask_;
      slots_[s] = Slot{keys_[id], id + 1};
    }
  }

  std::vector<Slot> slots_;
  uint64_t mask_ = 0;
  std::vector<int64_t> keys_;   // By id.
  std::vector<uint8_t> valid_;  // By id: 0 for the NULL group.
  int64_t null_id_ = -1;
};

}  // namespace floe::sql
