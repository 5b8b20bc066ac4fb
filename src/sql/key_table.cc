#include "sql/key_table.h"

#include <cmath>
#include <cstring>
#include <limits>

#include <xxhash.h>

namespace floe::sql {

uint64_t HashKey(std::string_view key) { return XXH3_64bits(key.data(), key.size()); }

void KeyEncoder::Encode(const std::vector<const ColumnVector*>& columns, int64_t rows) {
  auto n = static_cast<size_t>(rows);
  struct Column {
    const ColumnVector* vector;
    int width;  // 0 for strings
    bool is_double;
    const uint8_t* valid;
    const uint8_t* data;
  };
  std::vector<Column> cols;
  bool any_validity = false;
  size_t fixed = 0;
  size_t total_strings = 0;
  for (const ColumnVector* c : columns) {
    int width = c->type().HasOffsets() ? 0 : c->type().FixedWidth();
    cols.push_back(Column{c, width, c->type().id == formats::TypeId::kDouble, c->validity.empty() ? nullptr : c->validity.data(),
                          c->values.data()});
    any_validity |= !c->validity.empty();
    fixed += width == 0 ? 5 : 1 + static_cast<size_t>(width);
    if (width == 0 && rows > 0) total_strings += static_cast<size_t>(c->offsets[n] - c->offsets[0]);
  }
  nulls_.assign(any_validity ? n : 0, 0);
  offsets_.resize(n + 1);
  hashes_.resize(n);
  bytes_.Resize(fixed * n + total_strings);
  uint8_t* out = bytes_.data();
  size_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    offsets_[i] = at;
    for (const Column& c : cols) {
      bool valid = c.valid == nullptr || c.valid[i] != 0;
      out[at++] = valid ? 1 : 0;
      if (!valid) nulls_[i] = 1;
      switch (c.width) {
        case 0: {
          // Nulls encode an empty string so NULL = NULL for grouping.
          std::string_view v = valid ? c.vector->StringAt(static_cast<int64_t>(i)) : std::string_view();
          auto len = static_cast<uint32_t>(v.size());
          std::memcpy(out + at, &len, 4);
          at += 4;
          if (len > 0) std::memcpy(out + at, v.data(), len);
          at += len;
          break;
        }
        case 1:
          out[at] = valid ? c.data[i] : 0;
          at += 1;
          break;
        case 8: {
          uint64_t bits = 0;
          if (valid) {
            if (c.is_double) {
              double d;
              std::memcpy(&d, c.data + i * 8, 8);
              if (d == 0) d = 0;  // -0.0 groups with 0.0.
              if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
              std::memcpy(&bits, &d, 8);
            } else {
              std::memcpy(&bits, c.data + i * 8, 8);
            }
          }
          std::memcpy(out + at, &bits, 8);
          at += 8;
          break;
        }
        default: {
          auto w = static_cast<size_t>(c.width);
          if (valid) {
            std::memcpy(out + at, c.data + i * w, w);
          } else {
            std::memset(out + at, 0, w);
          }
          at += w;
          break;
        }
      }
    }
  }
  offsets_[n] = at;
  for (size_t i = 0; i < n; ++i) hashes_[i] = XXH3_64bits(out + offsets_[i], offsets_[i + 1] - offsets_[i]);
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
  return std::memcmp(a, b, n) == 0;
}

}  // namespace

KeyTable::KeyTable() {
  slots_.assign(64, 0);
  mask_ = 63;
  key_offsets_.push_back(0);
}

void KeyTable::Grow() {
  std::vector<uint32_t> grown(slots_.size() * 2, 0);
  uint64_t mask = grown.size() - 1;
  for (uint32_t id = 0; id < size(); ++id) {
    uint64_t s = hashes_[id] & mask;
    while (grown[s] != 0) s = (s + 1) & mask;
    grown[s] = id + 1;
  }
  slots_ = std::move(grown);
  mask_ = mask;
}

uint32_t KeyTable::FindOrInsert(std::string_view key, uint64_t hash, bool& inserted) {
  uint64_t s = hash & mask_;
  while (uint32_t slot = slots_[s]) {
    uint32_t id = slot - 1;
    if (hashes_[id] == hash) {
      std::string_view k = KeyAt(id);
      if (k.size() == key.size() && SameBytes(k.data(), key.data(), k.size())) {
        inserted = false;
        return id;
      }
    }
    s = (s + 1) & mask_;
  }
  auto id = static_cast<uint32_t>(size());
  slots_[s] = id + 1;
  keys_.Append(key.data(), key.size());
  key_offsets_.push_back(keys_.size());
  hashes_.push_back(hash);
  inserted = true;
  if ((size() + 1) * 2 > slots_.size()) Grow();
  return id;
}

int64_t KeyTable::Find(std::string_view key, uint64_t hash) const {
  uint64_t s = hash & mask_;
  while (uint32_t slot = slots_[s]) {
    uint32_t id = slot - 1;
    if (hashes_[id] == hash) {
      std::string_view k = KeyAt(id);
      if (k.size() == key.size() && SameBytes(k.data(), key.data(), k.size())) return id;
    }
    s = (s + 1) & mask_;
  }
  return -1;
}

int64_t KeyTable::Bytes() const {
  return static_cast<int64_t>(slots_.size() * 4 + keys_.capacity() + key_offsets_.capacity() * 8 + hashes_.capacity() * 8);
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
