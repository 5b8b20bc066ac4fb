// Late materialization's test: which rows of a decoded filter column may satisfy a pushed
// predicate. It must never clear a row the query's own filter would keep, so anything it
// cannot judge exactly (NaN, decimals, a constant of another kind) stays a possible match.
#include <cmath>
#include <string_view>

#include "formats/parquet/file_reader.h"

namespace floe::parquet {
namespace {

using formats::TypeId;
using Op = ColumnPredicate::Op;

template <typename T, typename C>
void Narrow(const formats::ColumnVector& column, Op op, C c, uint8_t* match) {
  const T* v = column.Data<T>();
  const bool nulls = !column.validity.empty();
  for (int64_t i = 0; i < column.length; ++i) {
    if (nulls && column.validity[static_cast<size_t>(i)] == 0) {
      match[i] = 0;  // A comparison is never true of a null.
      continue;
    }
    auto x = static_cast<C>(v[i]);
    if constexpr (std::is_floating_point_v<C>) {
      if (std::isnan(x)) continue;
    }
    bool ok = true;
    switch (op) {
      case Op::kEq: ok = x == c; break;
      case Op::kLt: ok = x < c; break;
      case Op::kLe: ok = x <= c; break;
      case Op::kGt: ok = x > c; break;
      case Op::kGe: ok = x >= c; break;
      default: break;
    }
    if (!ok) match[i] = 0;
  }
}

void NarrowStrings(const formats::ColumnVector& column, Op op, std::string_view c, uint8_t* match) {
  const bool nulls = !column.validity.empty();
  // A dictionary-coded column is judged once per dictionary entry.
  std::vector<uint8_t> per_entry;
  if (column.HasDictionary()) {
    per_entry.assign(static_cast<size_t>(column.dictionary->length), 1);
    formats::ColumnVector dictionary_only = *column.dictionary;
    NarrowStrings(dictionary_only, op, c, per_entry.data());
  }
  for (int64_t i = 0; i < column.length; ++i) {
    if (nulls && column.validity[static_cast<size_t>(i)] == 0) {
      match[i] = 0;
      continue;
    }
    if (!per_entry.empty()) {
      if (per_entry[column.dictionary_codes[static_cast<size_t>(i)]] == 0) match[i] = 0;
      continue;
    }
    int cmp = column.StringAt(i).compare(c);
    bool ok = true;
    switch (op) {
      case Op::kEq: ok = cmp == 0; break;
      case Op::kLt: ok = cmp < 0; break;
      case Op::kLe: ok = cmp <= 0; break;
      case Op::kGt: ok = cmp > 0; break;
      case Op::kGe: ok = cmp >= 0; break;
      default: break;
    }
    if (!ok) match[i] = 0;
  }
}

}  // namespace

void NarrowMatches(const formats::ColumnVector& column, const ColumnPredicate& p, uint8_t* match) {
  const int64_t n = column.length;
  if (p.op == Op::kIsNull || p.op == Op::kNotNull) {
    for (int64_t i = 0; i < n; ++i) {
      if (column.IsValid(i) != (p.op == Op::kNotNull)) match[i] = 0;
    }
    return;
  }
  TypeId id = column.type().id;
  if (const auto* i = std::get_if<int64_t>(&p.value)) {
    switch (id) {
      case TypeId::kInt32:
      case TypeId::kDate: return Narrow<int32_t, int64_t>(column, p.op, *i, match);
      case TypeId::kInt64:
      case TypeId::kTime:
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz:
      case TypeId::kTimestampNs:
      case TypeId::kTimestampTzNs: return Narrow<int64_t, int64_t>(column, p.op, *i, match);
      case TypeId::kBoolean: return Narrow<uint8_t, int64_t>(column, p.op, *i != 0 ? 1 : 0, match);
      default: return;
    }
  }
  if (const auto* d = std::get_if<double>(&p.value)) {
    if (std::isnan(*d)) return;
    // Only doubles: a real column's constant may have been rounded to float on the way here
    // while the query compares in double, so rows of real columns are never judged.
    if (id == TypeId::kDouble) return Narrow<double, double>(column, p.op, *d, match);
    return;
  }
  if (id == TypeId::kString || id == TypeId::kBinary) NarrowStrings(column, p.op, std::get<std::string>(p.value), match);
}

}  // namespace floe::parquet
