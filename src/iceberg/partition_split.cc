#include "iceberg/partition_split.h"

#include <cstring>
#include <map>
#include <string_view>

#include "base/floor_div.h"
#include "iceberg/batch_conversion.h"

namespace floe::iceberg {
namespace {

using formats::ColumnVector;

// How to tell, cheaply, that a row's source value lands in the previous row's partition value.
struct SourceKey {
  const ColumnVector* column = nullptr;  // Null: the source column is missing (always null).
  const Type* type = nullptr;            // The source field's type, for the exact transform.
  Transform transform;
  int32_t width = 0;    // Fixed-width slots: bytes per slot; 0 for strings and binary.
  int64_t divisor = 1;  // Timestamps under hour/day/month/year: the bucket a value falls in.

  // The value of `row`, coarsened so that equal keys mean equal partition values.
  int64_t Coarse(int64_t row) const {
    int64_t v = 0;
    if (width == 8) {
      std::memcpy(&v, column->values.data() + row * 8, 8);
    } else if (width == 4) {
      int32_t x;
      std::memcpy(&x, column->values.data() + row * 4, 4);
      v = x;
    } else {
      v = column->values.data()[row];
    }
    return divisor == 1 ? v : FloorDiv(v, divisor);
  }

  bool SameAsPrevious(int64_t row) const {
    if (column == nullptr || transform.kind() == Transform::Kind::kVoid) return true;
    const bool valid = column->IsValid(row);
    if (valid != column->IsValid(row - 1)) return false;
    if (!valid) return true;
    if (width == 0) return column->StringAt(row) == column->StringAt(row - 1);
    if (width > 8) return column->FixedAt(row) == column->FixedAt(row - 1);
    return Coarse(row) == Coarse(row - 1);
  }
};

SourceKey MakeKey(const Schema& schema, const PartitionField& field, const formats::ColumnBatch& batch,
                  const std::vector<int>& columns) {
  SourceKey key;
  key.transform = field.transform;
  for (size_t i = 0; i < schema.fields().size(); ++i) {
    if (schema.fields()[i].id == field.source_id && columns[i] >= 0) key.column = &batch.columns[static_cast<size_t>(columns[i])];
  }
  const NestedField* source = schema.FindField(field.source_id);
  if (source == nullptr) key.column = nullptr;
  if (key.column == nullptr) return key;
  key.type = source->type.get();
  const formats::DataType& t = key.column->type();
  key.width = t.HasOffsets() ? 0 : t.FixedWidth();
  const Transform::Kind kind = field.transform.kind();
  const bool calendar = kind == Transform::Kind::kYear || kind == Transform::Kind::kMonth ||
                        kind == Transform::Kind::kDay || kind == Transform::Kind::kHour;
  if (calendar) {
    const int64_t hour = kind == Transform::Kind::kHour ? 1 : 24;
    if (t.id == formats::TypeId::kTimestamp || t.id == formats::TypeId::kTimestampTz)
      key.divisor = hour * 3600 * 1000000;
    if (t.id == formats::TypeId::kTimestampNs || t.id == formats::TypeId::kTimestampTzNs)
      key.divisor = hour * 3600 * 1000000000;
  }
  return key;
}

}  // namespace

std::vector<PartitionRows> SplitByPartition(const Schema& schema, const PartitionSpec& spec, const formats::ColumnBatch& batch,
                                            const std::vector<int>& columns) {
  std::vector<PartitionRows> out;
  const auto rows = static_cast<size_t>(batch.num_rows);
  if (spec.fields().empty()) {
    if (rows == 0) return out;
    PartitionRows all;
    all.rows.resize(rows);
    for (size_t r = 0; r < rows; ++r) all.rows[r] = static_cast<uint32_t>(r);
    out.push_back(std::move(all));
    return out;
  }
  std::vector<SourceKey> keys;
  for (const PartitionField& field : spec.fields()) keys.push_back(MakeKey(schema, field, batch, columns));
  std::map<std::vector<Literal>, size_t> index;
  size_t current = 0;
  for (size_t r = 0; r < rows; ++r) {
    const auto row = static_cast<int64_t>(r);
    bool same = r > 0;
    for (size_t k = 0; same && k < keys.size(); ++k) same = keys[k].SameAsPrevious(row);
    if (!same) {
      std::vector<Literal> partition;
      partition.reserve(keys.size());
      for (const SourceKey& key : keys) {
        partition.push_back(key.column == nullptr
                                ? Literal()
                                : key.transform.Apply(*key.type, LiteralAt(*key.column, row, *key.type)));
      }
      auto [it, added] = index.emplace(std::move(partition), out.size());
      if (added) out.push_back(PartitionRows{it->first, {}});
      current = it->second;
    }
    out[current].rows.push_back(static_cast<uint32_t>(r));
  }
  return out;
}

}  // namespace floe::iceberg
