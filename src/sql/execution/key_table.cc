#include "sql/execution/key_table.h"

#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace floe::sql {

uint64_t HashKey(std::string_view key) { return XXH3_64bits(key.data(), key.size()); }

namespace {

bool IsNested(const formats::DataType& type) {
  return type.id == formats::TypeId::kList || type.id == formats::TypeId::kMap || type.id == formats::TypeId::kStruct;
}

void EncodeNestedSlot(const ColumnVector& v, int64_t i, std::string& out);

// How one key column is encoded: see the file comment in key_table.h. A nested column's slots
// are encoded up front (EncodeNestedSlot) and written as strings.
struct KeyColumn {
  explicit KeyColumn(const ColumnVector* c)
      : vector(c),
        width(c->type().HasOffsets() || IsNested(c->type()) ? 0 : c->type().FixedWidth()),
        is_double(c->type().id == formats::TypeId::kDouble),
        valid(c->validity.empty() ? nullptr : c->validity.data()),
        data(c->values.data()) {}
  // Encodes every slot of a nested column (rows slots from `first`); a no-op for the others.
  void EncodeNested(size_t first, size_t rows) {
    if (!IsNested(vector->type())) return;
    nested.resize(rows);
    for (size_t r = 0; r < rows; ++r) EncodeNestedSlot(*vector, static_cast<int64_t>(first + r), nested[r]);
    nested_first = first;
  }
  // The most bytes slot i can take.
  size_t MaxBytes(size_t i) const {
    if (width > 0) return 1 + static_cast<size_t>(width);
    if (!nested.empty()) return 5 + nested[i - nested_first].size();
    return 5 + static_cast<size_t>(vector->offsets[i + 1] - vector->offsets[i]);
  }
  // Writes slot i's encoding at `out`; returns the bytes written.
  size_t Write(size_t i, uint8_t* out) const {
    bool present = valid == nullptr || valid[i] != 0;
    out[0] = present ? 1 : 0;
    switch (width) {
      case 0: {
        // Nulls encode an empty string so NULL = NULL for grouping.
        std::string_view v;
        if (present) v = nested.empty() ? vector->StringAt(static_cast<int64_t>(i)) : nested[i - nested_first];
        auto len = static_cast<uint32_t>(v.size());
        std::memcpy(out + 1, &len, 4);
        if (len > 0) std::memcpy(out + 5, v.data(), len);
        return 5 + len;
      }
      case 1:
        out[1] = present ? data[i] : 0;
        return 2;
      case 8: {
        uint64_t bits = 0;
        if (present) {
          if (is_double) {
            double d;
            std::memcpy(&d, data + i * 8, 8);
            if (d == 0) d = 0;  // -0.0 groups with 0.0.
            if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
            std::memcpy(&bits, &d, 8);
          } else {
            std::memcpy(&bits, data + i * 8, 8);
          }
        }
        std::memcpy(out + 1, &bits, 8);
        return 9;
      }
      default: {
        auto w = static_cast<size_t>(width);
        if (present) {
          std::memcpy(out + 1, data + i * w, w);
        } else {
          std::memset(out + 1, 0, w);
        }
        return 1 + w;
      }
    }
  }

  const ColumnVector* vector;
  int width;  // 0 for strings and nested values
  bool is_double;
  const uint8_t* valid;
  const uint8_t* data;
  std::vector<std::string> nested;  // Slots nested_first, nested_first + 1, ... of a nested column.
  size_t nested_first = 0;
};

// A nested slot as bytes that are equal exactly when the values are, NULL elements equal to
// NULL as grouping wants: a presence byte, then a scalar's key encoding, a list's element count
// and elements, a map's entry count and entries (each key then value) in byte order so the
// order they were built in does not matter, or a struct's fields in order.
void EncodeNestedSlot(const ColumnVector& v, int64_t i, std::string& out) {
  const formats::DataType& type = v.type();
  if (!IsNested(type)) {
    KeyColumn column(&v);
    size_t at = out.size();
    out.resize(at + column.MaxBytes(static_cast<size_t>(i)));
    out.resize(at + column.Write(static_cast<size_t>(i), reinterpret_cast<uint8_t*>(out.data()) + at));
    return;
  }
  bool present = v.IsValid(i);
  out.push_back(present ? 1 : 0);
  if (!present) return;
  if (type.id == formats::TypeId::kStruct) {
    for (const ColumnVector& field : v.children) EncodeNestedSlot(field, i, out);
    return;
  }
  auto begin = v.offsets[static_cast<size_t>(i)];
  auto end = v.offsets[static_cast<size_t>(i) + 1];
  auto count = static_cast<uint32_t>(end - begin);
  out.append(reinterpret_cast<const char*>(&count), 4);
  if (type.id == formats::TypeId::kList) {
    for (int64_t e = begin; e < end; ++e) EncodeNestedSlot(v.children[0], e, out);
    return;
  }
  std::vector<std::string> entries(count);
  for (int64_t e = begin; e < end; ++e) {
    std::string& entry = entries[static_cast<size_t>(e - begin)];
    EncodeNestedSlot(v.children[0], e, entry);
    EncodeNestedSlot(v.children[1], e, entry);
  }
  std::sort(entries.begin(), entries.end());
  for (const std::string& entry : entries) out += entry;
}

// Appends to `v` the slot EncodeNestedSlot (or a KeyColumn, for a scalar) wrote at key[at...],
// moving `at` past it.
void DecodeSlot(std::string_view key, size_t& at, ColumnVector& v) {
  bool valid = key[at++] != 0;
  const formats::DataType& type = v.type();
  if (IsNested(type)) {
    if (!valid) {
      v.AppendNull();
      return;
    }
    if (type.id == formats::TypeId::kStruct) {
      for (ColumnVector& field : v.children) DecodeSlot(key, at, field);
      v.AppendStructSlot(true);
      return;
    }
    uint32_t count;
    std::memcpy(&count, key.data() + at, 4);
    at += 4;
    for (uint32_t e = 0; e < count; ++e) {
      for (ColumnVector& child : v.children) DecodeSlot(key, at, child);
    }
    v.AppendListEnd(true);
    return;
  }
  if (type.HasOffsets()) {
    uint32_t len;
    std::memcpy(&len, key.data() + at, 4);
    at += 4;
    if (valid) {
      v.AppendString(key.substr(at, len));
    } else {
      v.AppendNull();
    }
    at += len;
    return;
  }
  auto w = static_cast<size_t>(type.FixedWidth());
  if (valid) {
    if (!v.validity.empty()) v.validity.push_back(1);
    v.values.Append(key.data() + at, w);
    ++v.length;
  } else {
    v.AppendNull();
  }
  at += w;
}

}  // namespace

void KeyEncoder::Encode(const std::vector<const ColumnVector*>& columns, int64_t rows) {
  auto n = static_cast<size_t>(rows);
  std::vector<KeyColumn> cols;
  bool any_validity = false;
  size_t fixed = 0;
  size_t total_strings = 0;
  for (const ColumnVector* c : columns) {
    cols.emplace_back(c);
    KeyColumn& column = cols.back();
    column.EncodeNested(0, n);
    any_validity |= !c->validity.empty();
    fixed += column.width == 0 ? 5 : 1 + static_cast<size_t>(column.width);
    if (!column.nested.empty()) {
      for (const std::string& slot : column.nested) total_strings += slot.size();
    } else if (column.width == 0 && rows > 0) {
      total_strings += static_cast<size_t>(c->offsets[n] - c->offsets[0]);
    }
  }
  nulls_.assign(any_validity ? n : 0, 0);
  offsets_.resize(n + 1);
  hashes_.resize(n);
  bytes_.Resize(fixed * n + total_strings);
  uint8_t* out = bytes_.data();
  size_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    offsets_[i] = at;
    for (const KeyColumn& c : cols) {
      if (c.valid != nullptr && c.valid[i] == 0) nulls_[i] = 1;
      at += c.Write(i, out + at);
    }
  }
  offsets_[n] = at;
  for (size_t i = 0; i < n; ++i) hashes_[i] = XXH3_64bits(out + offsets_[i], offsets_[i + 1] - offsets_[i]);
}

void KeyEncoder::EncodeRow(const std::vector<const ColumnVector*>& columns, int64_t row, std::string* key) {
  auto i = static_cast<size_t>(row);
  std::vector<KeyColumn> cols;
  size_t bytes = 0;
  for (const ColumnVector* c : columns) {
    cols.emplace_back(c);
    cols.back().EncodeNested(i, 1);
    bytes += cols.back().MaxBytes(i);
  }
  key->resize(bytes);
  auto* out = reinterpret_cast<uint8_t*>(key->data());
  size_t at = 0;
  for (const KeyColumn& c : cols) at += c.Write(i, out + at);
  key->resize(at);
}

namespace {

// Equality of two keys of the same length; short keys avoid a memcmp call.
inline bool SameBytes(const char* a, const char* b, size_t n) {
  if (n >= 8 && n <= 16) {
    uint64_t x0, y0, x1, y1;
    std::memcpy(&x0, a, 8);
    std::memcpy(&y0, b, 8);
    std::memcpy(&x1, a + n - 8, 8);
    std::memcpy(&y1, b + n - 8, 8);
    return x0 == y0 && x1 == y1;
  }
  return n == 0 || std::memcmp(a, b, n) == 0;
}

}  // namespace

KeyTable::KeyTable() {
  slots_.assign(64, 0);
  mask_ = 63;
  key_offsets_.push_back(0);
}

void KeyTable::Reserve(size_t keys) {
  size_t wanted = slots_.size();
  while ((keys + 1) * 2 > wanted) wanted *= 2;
  key_offsets_.reserve(keys + 1);
  hashes_.reserve(keys);
  if (wanted > slots_.size()) Rehash(wanted);
}

void KeyTable::Grow() { Rehash(slots_.size() * 2); }

void KeyTable::Rehash(size_t slot_count) {
  std::vector<uint64_t> grown(slot_count, 0);
  uint64_t mask = grown.size() - 1;
  for (uint32_t id = 0; id < size(); ++id) {
    uint64_t s = hashes_[id] & mask;
    while (grown[s] != 0) s = (s + 1) & mask;
    grown[s] = Slot(id, hashes_[id]);
  }
  slots_ = std::move(grown);
  mask_ = mask;
}

uint32_t KeyTable::FindOrInsert(std::string_view key, uint64_t hash, bool& inserted) {
  uint64_t s = hash & mask_;
  while (uint64_t slot = slots_[s]) {
    if (SameTag(slot, hash)) {
      uint32_t id = IdOf(slot);
      std::string_view k = KeyAt(id);
      if (k.size() == key.size() && SameBytes(k.data(), key.data(), k.size())) {
        inserted = false;
        return id;
      }
    }
    s = (s + 1) & mask_;
  }
  auto id = static_cast<uint32_t>(size());
  slots_[s] = Slot(id, hash);
  keys_.Append(key.data(), key.size());
  key_offsets_.push_back(keys_.size());
  hashes_.push_back(hash);
  inserted = true;
  if ((size() + 1) * 2 > slots_.size()) Grow();
  return id;
}

int64_t KeyTable::Find(std::string_view key, uint64_t hash) const {
  uint64_t s = hash & mask_;
  while (uint64_t slot = slots_[s]) {
    if (SameTag(slot, hash)) {
      uint32_t id = IdOf(slot);
      std::string_view k = KeyAt(id);
      if (k.size() == key.size() && SameBytes(k.data(), key.data(), k.size())) return id;
    }
    s = (s + 1) & mask_;
  }
  return -1;
}

int64_t KeyTable::Bytes() const {
  return static_cast<int64_t>(slots_.size() * 8 + keys_.capacity() + key_offsets_.capacity() * 8 + hashes_.capacity() * 8);
}

void DecodeKey(std::string_view key, const std::vector<MutableVectorPtr>& out) {
  size_t at = 0;
  for (const MutableVectorPtr& v : out) {
    if (!IsNested(v->type())) {
      DecodeSlot(key, at, *v);
      continue;
    }
    // Written as a string: a presence byte and the length, then EncodeNestedSlot's bytes.
    bool valid = key[at] != 0;
    uint32_t len;
    std::memcpy(&len, key.data() + at + 1, 4);
    at += 5;
    if (valid) {
      size_t inner = at;
      DecodeSlot(key, inner, *v);
    } else {
      v->AppendNull();
    }
    at += len;
  }
}

std::vector<VectorPtr> DecodeKeys(const KeyTable& table, const std::vector<SqlType>& types) {
  std::vector<MutableVectorPtr> out;
  for (const auto& t : types) out.push_back(NewVector(t, static_cast<int64_t>(table.size())));
  for (uint32_t id = 0; id < table.size(); ++id) DecodeKey(table.KeyAt(id), out);
  return {out.begin(), out.end()};
}

}  // namespace floe::sql
