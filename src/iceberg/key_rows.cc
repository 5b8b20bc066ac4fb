#include "iceberg/key_rows.h"

#include <algorithm>
#include <unordered_set>

#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/integer_key_set.h"
#include "iceberg/scan.h"

namespace floe::iceberg {
namespace {

// The keys to look for: one integer column as numbers, any other key as the concatenation of
// its values' Appendix D binary forms, each after its length. Null values match nothing.
class KeyLookup {
 public:
  static Result<KeyLookup> Make(const Schema& schema, const std::vector<int32_t>& key_ids,
                                const std::vector<formats::ColumnBatch>& keys) {
    KeyLookup lookup;
    for (int32_t id : key_ids) {
      const NestedField* field = schema.FindField(id);
      if (!field || !field->type->is_primitive()) return InvalidArgument("key field {} is not a primitive column", id);
      lookup.types_.push_back(field->type.get());
    }
    TypeId only = lookup.types_.size() == 1 ? lookup.types_[0]->id() : TypeId::kString;
    lookup.integer_ = lookup.types_.size() == 1 && (only == TypeId::kInt || only == TypeId::kLong);
    std::vector<int64_t> integers;
    for (const formats::ColumnBatch& b : keys) {
      std::vector<int> columns;
      for (int32_t id : key_ids) {
        int found = -1;
        for (size_t i = 0; i < b.fields.size(); ++i) {
          if (b.fields[i].id == id) found = static_cast<int>(i);
        }
        if (found < 0) return InvalidArgument("the keys lack key field {}", id);
        columns.push_back(found);
      }
      std::string key;
      for (int64_t r = 0; r < b.num_rows; ++r) {
        if (lookup.integer_) {
          Literal v = LiteralAt(b.columns[static_cast<size_t>(columns[0])], r, *lookup.types_[0]);
          if (!v.is_null()) integers.push_back(v.as_long());
        } else if (lookup.Encode(b, columns, r, &key)) {
          lookup.strings_.insert(key);
        }
      }
    }
    if (!integers.empty()) {
      auto [min, max] = std::minmax_element(integers.begin(), integers.end());
      lookup.min_ = *min;
      lookup.max_ = *max;
    }
    lookup.integers_ = IntegerKeySet(std::move(integers));
    return lookup;
  }

  bool empty() const { return integer_ ? integers_.empty() : strings_.empty(); }

  // Whether `file` may hold one of the keys, by its key column's bounds: integer keys outside
  // [lower, upper] cannot be there. Other keys, or a file without bounds, may be anywhere.
  bool MightHold(const DataFile& file, int32_t key_id) const {
    if (!integer_) return true;
    auto lower = file.lower_bounds.find(key_id);
    auto upper = file.upper_bounds.find(key_id);
    if (lower == file.lower_bounds.end() || upper == file.upper_bounds.end()) return true;
    auto low = FromBinary(*types_[0], lower->second);
    auto high = FromBinary(*types_[0], upper->second);
    if (!low || !high || low->is_null() || high->is_null()) return true;
    return !(high->as_long() < min_ || low->as_long() > max_);
  }

  // Whether row `r` of `b` (key columns at `columns`) holds one of the keys.
  bool Contains(const formats::ColumnBatch& b, const std::vector<int>& columns, int64_t r, std::string* scratch) const {
    if (integer_) {
      Literal v = LiteralAt(b.columns[static_cast<size_t>(columns[0])], r, *types_[0]);
      return !v.is_null() && integers_.Contains(v.as_long());
    }
    return Encode(b, columns, r, scratch) && strings_.contains(*scratch);
  }

 private:
  // False when a key value is null.
  bool Encode(const formats::ColumnBatch& b, const std::vector<int>& columns, int64_t r, std::string* key) const {
    key->clear();
    for (size_t j = 0; j < columns.size(); ++j) {
      Literal v = LiteralAt(b.columns[static_cast<size_t>(columns[j])], r, *types_[j]);
      if (v.is_null()) return false;
      std::string bytes = ToBinary(*types_[j], v);
      uint32_t size = static_cast<uint32_t>(bytes.size());
      key->append(reinterpret_cast<const char*>(&size), sizeof size);
      key->append(bytes);
    }
    return true;
  }

  std::vector<const Type*> types_;
  bool integer_ = false;
  IntegerKeySet integers_;
  int64_t min_ = 0, max_ = 0;  // The integer keys' range.
  std::unordered_set<std::string> strings_;
};

}  // namespace

Result<std::vector<KeyRowsInFile>> FindKeyRows(Table& table, const std::vector<int32_t>& key_ids,
                                               const std::vector<formats::ColumnBatch>& keys) {
  std::vector<KeyRowsInFile> out;
  if (!table.metadata().CurrentSnapshot()) return out;
  const Schema& schema = table.metadata().CurrentSchema();
  FLOE_ASSIGN_OR_RETURN(KeyLookup lookup, KeyLookup::Make(schema, key_ids, keys));
  if (lookup.empty()) return out;
  std::vector<NestedField> key_fields;
  for (int32_t id : key_ids) key_fields.push_back(*schema.FindField(id));
  const Schema key_schema(schema.schema_id(), key_fields);
  FLOE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(table, ScanOptions{}));
  EqualityDeleteCache cache;
  std::string scratch;
  for (const FileScanTask& task : plan.tasks) {
    if (!lookup.MightHold(task.file, key_ids[0])) continue;
    KeyRowsInFile found;
    int64_t row_base = 0;
    FLOE_RETURN_IF_ERROR(ReadTaskRows(
        table, task, key_schema,
        [&](formats::ColumnBatch& b, const std::vector<int>& cols, const std::vector<uint8_t>& deleted) -> Status {
          for (int c : cols) {
            if (c < 0) return OkStatus();  // The file predates a key column: its keys are null.
          }
          for (int64_t r = 0; r < b.num_rows; ++r) {
            if (!deleted.empty() && deleted[static_cast<size_t>(r)]) continue;
            if (lookup.Contains(b, cols, r, &scratch)) found.positions.push_back(row_base + r);
          }
          row_base += b.num_rows;
          return OkStatus();
        },
        &cache));
    if (found.positions.empty()) continue;
    found.data_file = task.file;
    for (const DataFile& del : task.deletes) {
      if (del.is_deletion_vector()) {
        found.deletion_vector = del;
      } else if (del.content == FileContent::kPositionDeletes) {
        found.position_delete_files.push_back(del);
      }
    }
    out.push_back(std::move(found));
  }
  return out;
}

}  // namespace floe::iceberg
