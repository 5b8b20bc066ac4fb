#include "sql/key_table.h"

#include <cmath>
#include <cstring>

#include <xxhash.h>

namespace floe::sql {

uint64_t HashKey(std::string_view key) { return XXH3_64bits(key.data(), key.size()); }

void KeyEncoder::Encode(const std::vector<const ColumnVector*>& columns, int64_t rows) {
  auto n = static_cast<size_t>(rows);
  bool any_validity = false;
  size_t fixed = 0;
  bool strings = false;
  for (const ColumnVector* c : columns) {
    any_validity |= !c->validity.empty();
    if (c->type().HasOffsets()) {
      strings = true;
      fixed += 5;
    } else {
      fixed += 1 + static_cast<size_t>(c->type().FixedWidth());
    }
  }
  nulls_.assign(any_validity ? n : 0, 0);
  offsets_.resize(n + 1);
  hashes_.resize(n);
  size_t total = fixed * n;
  if (strings) {
    for (const ColumnVector* c : columns) {
      if (c->type().HasOffsets() && rows > 0) total += static_cast<size_t>(c->offsets[n] - c->offsets[0]);
    }
  }
  bytes_.Resize(total);
  uint8_t* out = bytes_.data();
  size_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    offsets_[i] = at;
    for (const ColumnVector* c : columns) {
      bool valid = c->validity.empty() || c->validity[i] != 0;
      out[at++] = valid ? 1 : 0;
      if (!valid) {
        nulls_[i] = 1;
        // Nulls encode their slot as zeros so NULL = NULL for grouping.
        if (c->type().HasOffsets()) {
          std::memset(out + at, 0, 4);
          at += 4;
        } else {
          auto w = static_cast<size_t>(c->type().FixedWidth());
          std::memset(out + at, 0, w);
          at += w;
        }
        continue;
      }
      if (c->type().HasOffsets()) {
        std::string_view s = c->StringAt(static_cast<int64_t>(i));
        auto len = static_cast<uint32_t>(s.size());
        std::memcpy(out + at, &len, 4);
        at += 4;
        if (len > 0) std::memcpy(out + at, s.data(), len);
        at += len;
      } else if (c->type().id == formats::TypeId::kDouble) {
        double d = c->Data<double>()[i];
        if (d == 0) d = 0;  // -0.0 groups with 0.0.
        if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
        std::memcpy(out + at, &d, 8);
        at += 8;
      } else {
        auto w = static_cast<size_t>(c->type().FixedWidth());
        std::memcpy(out + at, c->values.data() + i * w, w);
        at += w;
      }
    }
  }
  offsets_[n] = at;
  for (size_t i = 0; i < n; ++i) hashes_[i] = XXH3_64bits(out + offsets_[i], offsets_[i + 1] - offsets_[i]);
}

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
    if (hashes_[id] == hash && KeyAt(id) == key) {
      inserted = false;
      return id;
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
    if (hashes_[id] == hash && KeyAt(id) == key) return id;
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
