// Row keys as bytes, and a hash table from keys to dense ids: the core of hash aggregation,
// DISTINCT, set operations, hash joins and IN over subqueries. A key is the concatenation of
// its columns' encodings (a null byte, then 1/8/16 fixed bytes, or a 4-byte length and the
// bytes of a string; arrays, maps and rows as a string of their elements' encodings, a map's
// entries in byte order), so equal SQL values (with NULL equal to NULL, -0.0 equal to 0.0, one
// NaN, maps in any entry order) give equal bytes and the encoding can be decoded back into
// vectors. A KeyTable is used by one
// thread at a time; a finished table may be read by any number of threads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "formats/column_batch.h"
#include "sql/execution/vector.h"

namespace floe::sql {

// Encodes rows of key columns; reused across chunks to avoid allocation.
class KeyEncoder {
 public:
  // Encodes every row of `columns` (all `rows` long). Afterwards key(i) is row i's key.
  void Encode(const std::vector<const ColumnVector*>& columns, int64_t rows);
  std::string_view key(int64_t i) const {
    return {reinterpret_cast<const char*>(bytes_.data()) + offsets_[static_cast<size_t>(i)],
            offsets_[static_cast<size_t>(i) + 1] - offsets_[static_cast<size_t>(i)]};
  }
  uint64_t hash(int64_t i) const { return hashes_[static_cast<size_t>(i)]; }
  // The key of one row, exactly as Encode would make it (hash it with HashKey).
  static void EncodeRow(const std::vector<const ColumnVector*>& columns, int64_t row, std::string* key);
  // Whether any key column of row i is null.
  bool has_null(int64_t i) const { return !nulls_.empty() && nulls_[static_cast<size_t>(i)] != 0; }

 private:
  formats::Buffer bytes_;
  std::vector<size_t> offsets_;
  std::vector<uint64_t> hashes_;
  std::vector<uint8_t> nulls_;
};

uint64_t HashKey(std::string_view key);

// A hash of one 64-bit integer for open-addressing tables: a multiplication by Fibonacci
// hashing's constant with the high bits folded in, since ids are often consecutive and the low
// bits alone would cluster them.
inline size_t HashInt64(int64_t v) {
  uint64_t h = static_cast<uint64_t>(v) * 0x9E3779B97F4A7C15ULL;
  return static_cast<size_t>(h ^ (h >> 32));
}

class KeyTable {
 public:
  KeyTable();

  // The id of `key`, inserting it as the next id when absent (`inserted` tells which).
  uint32_t FindOrInsert(std::string_view key, uint64_t hash, bool& inserted);
  // Makes room for `keys` keys without growing on the way (a join's build side knows its rows).
  void Reserve(size_t keys);
  // The id of `key`, or -1.
  int64_t Find(std::string_view key, uint64_t hash) const;
  size_t size() const { return key_offsets_.size() - 1; }
  std::string_view KeyAt(uint32_t id) const {
    return {reinterpret_cast<const char*>(keys_.data()) + key_offsets_[id], key_offsets_[id + 1] - key_offsets_[id]};
  }
  uint64_t HashAt(uint32_t id) const { return hashes_[id]; }
  int64_t Bytes() const;
  // Starts loading the slot a lookup of `hash` reads first: probe loops call it some rows
  // ahead, so the cache misses of a large table overlap instead of queuing.
  void Prefetch(uint64_t hash) const { __builtin_prefetch(&slots_[hash & mask_]); }

 private:
  // A slot holds the hash's upper 32 bits beside id + 1 (0 is empty), so a probe compares
  // keys only when the tags agree and never reads hashes_ on the way.
  static uint64_t Slot(uint32_t id, uint64_t hash) { return (hash & 0xffffffff00000000ULL) | (uint64_t{id} + 1); }
  static bool SameTag(uint64_t slot, uint64_t hash) { return ((slot ^ hash) >> 32) == 0; }
  static uint32_t IdOf(uint64_t slot) { return static_cast<uint32_t>(slot) - 1; }
  void Grow();
  void Rehash(size_t slot_count);

  std::vector<uint64_t> slots_;  // Slot(id, hash); 0 is empty.
  uint64_t mask_ = 0;
  formats::Buffer keys_;
  std::vector<size_t> key_offsets_;
  std::vector<uint64_t> hashes_;
};

// Decodes keys (ids 0..size-1 of `table`) back into one vector per key column.
std::vector<VectorPtr> DecodeKeys(const KeyTable& table, const std::vector<SqlType>& types);
// Appends the columns of one key (as KeyEncoder wrote it) to `out`, one vector per key column.
void DecodeKey(std::string_view key, const std::vector<MutableVectorPtr>& out);

}  // namespace floe::sql
