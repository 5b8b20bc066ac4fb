#include "sql/execution/key_table.h"

#include <cmath>
#include <cstring>
#include <limits>

#include <xxhash.h>

namespace floe::sql {

uint64_t HashKey(std::string_view key) { return XXH3_64bits(key.data(), key.size()); }

namespace {

// How one key column is encoded: see the file comment in key_table.h.
struct KeyColumn {
  explicit KeyColumn(const ColumnVector* c)
      : vector(c),
        width(c->type().HasOffsets() ? 0 : c->type().FixedWidth()),
        is_double(c->type().id == formats::TypeId::kDouble),
        valid(c->validity.empty() ? nullptr : c->validity.data()),
        data(c->values.data()) {}
  // The most bytes slot i can take.
  size_t MaxBytes(size_t i) const {
    if (width > 0) return 1 + static_cast<size_t>(width);
    return 5 + static_cast<size_t>(vector->offsets[i + 1] - vector->offsets[i]);
  }
  // Writes slot i's encoding at `out`; returns the bytes written.
  size_t Write(size_t i, uint8_t* out) const {
    bool present = valid == nullptr || valid[i] != 0;
    out[0] = present ? 1 : 0;
    switch (width) {
      case 0: {
        // Nulls encode an empty string so NULL = NULL for grouping.
        std::string_view v = present ? vector->StringAt(static_cast<int64_t>(i)) : std::string_view();
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
  int width;  // 0 for strings
  bool is_double;
  const uint8_t* valid;
  const uint8_t* data;
};

}  // namespace

void KeyEncoder::Encode(const std::vector<const ColumnVector*>& columns, int64_t rows) {
  auto n = static_cast<size_t>(rows);
  std::vector<KeyColumn> cols;
  bool any_validity = false;
  size_t fixed = 0;
  size_t total_strings = 0;
  for (const ColumnVector* c : columns) {
    cols.emplace_back(c);
    any_validity |= !c->validity.empty();
    fixed += cols.back().width == 0 ? 5 : 1 + static_cast<size_t>(cols.back().width);
    if (cols.back().width == 0 && rows > 0) total_strings += static_cast<size_t>(c->offsets[n] - c->offsets[0]);
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

std::vector<VectorPtr> DecodeKeys(const KeyTable& table, const std::vector<SqlType>& types) {
  std::vector<MutableVectorPtr> out;
  for (const auto& t : types) out.push_back(NewVector(t, static_cast<int64_t>(table.size())));
  for (uint32_t id = 0; id < table.size(); ++id) {
    std::string_view key = table.KeyAt(id);
    size_t at = 0;
    for (auto& v : out) {
      bool valid = key[at++] != 0;
      if (v->type().HasOffsets()) {
        uint32_t len;
        std::memcpy(&len, key.data() + at, 4);
        at += 4;
        if (valid) {
          v->AppendString(key.substr(at, len));
        } else {
          v->AppendNull();
        }
        at += len;
      } else {
        auto w = static_cast<size_t>(v->type().FixedWidth());
        if (valid) {
          if (!v->validity.empty()) v->validity.push_back(1);
          v->values.Append(key.data() + at, w);
          ++v->length;
        } else {
          v->AppendNull();
        }
        at += w;
      }
    }
  }
  return {out.begin(), out.end()};
}

}  // namespace floe::sql
