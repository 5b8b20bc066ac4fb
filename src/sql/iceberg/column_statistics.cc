#include "sql/iceberg/column_statistics.h"

#include <map>

#include "iceberg/literal.h"
#include "iceberg/table_statistics.h"

namespace floe::sql::iceberg_sql {
namespace {

// A bound as a number on the line of the column's values (integers, days, unscaled decimals);
// nothing for types whose values are not countable that way.
std::optional<double> Position(const iceberg::Type& type, const std::string& bytes) {
  auto kind = iceberg::KindOf(type);
  if (kind != iceberg::Literal::Kind::kInt && kind != iceberg::Literal::Kind::kLong && kind != iceberg::Literal::Kind::kDecimal) {
    return std::nullopt;
  }
  auto literal = iceberg::FromBinary(type, bytes);
  if (!literal.has_value() || literal->is_null()) return std::nullopt;
  if (kind == iceberg::Literal::Kind::kDecimal) return static_cast<double>(literal->unscaled());
  return static_cast<double>(literal->as_long());
}

struct Range {
  double low = 0, high = 0;
  bool complete = true;  // Every file had both bounds.
  bool seen = false;
};

}  // namespace

Status AddColumnStatistics(const ResolvedTable& table, FileCaches& caches, CatalogTable& out) {
  out.column_statistics.assign(out.columns.size(), ColumnStatistics{});
  if (!table.snapshot) return OkStatus();
  std::map<int32_t, const iceberg::Type*> types;
  for (const TableColumn& c : out.columns) {
    if (const iceberg::NestedField* f = table.schema.FindField(c.field_id)) types[c.field_id] = f->type.get();
  }
  std::map<int32_t, Range> ranges;
  FLOE_ASSIGN_OR_RETURN(auto manifests, CachedManifestList(caches, table, *table.snapshot));
  for (const iceberg::ManifestFile& mf : *manifests) {
    if (mf.content != iceberg::ManifestContent::kData) continue;
    FLOE_ASSIGN_OR_RETURN(auto entries, CachedManifest(caches, table, mf));
    for (const iceberg::ManifestEntry& e : *entries) {
      if (e.status == iceberg::EntryStatus::kDeleted || e.data_file.content != iceberg::FileContent::kData) continue;
      for (const auto& [id, type] : types) {
        Range& r = ranges[id];
        auto lower = e.data_file.lower_bounds.find(id);
        auto upper = e.data_file.upper_bounds.find(id);
        if (lower == e.data_file.lower_bounds.end() || upper == e.data_file.upper_bounds.end()) {
          // A file of only nulls has no bounds and adds no value; any other gap makes the range unknown.
          auto nulls = e.data_file.null_value_counts.find(id);
          bool all_null = nulls != e.data_file.null_value_counts.end() && nulls->second == e.data_file.record_count;
          if (!all_null) r.complete = false;
          continue;
        }
        auto low = Position(*type, lower->second), high = Position(*type, upper->second);
        if (!low || !high) {
          r.complete = false;
          continue;
        }
        r.low = r.seen ? std::min(r.low, *low) : *low;
        r.high = r.seen ? std::max(r.high, *high) : *high;
        r.seen = true;
      }
    }
  }
  for (size_t i = 0; i < out.columns.size(); ++i) {
    auto it = ranges.find(out.columns[i].field_id);
    if (it == ranges.end() || !it->second.complete || !it->second.seen) continue;
    out.column_statistics[i].distinct_count = it->second.high - it->second.low + 1;
    out.column_statistics[i].min = it->second.low;
    out.column_statistics[i].max = it->second.high;
  }
  // Counted distinct values (theta sketches of a statistics file: ANALYZE, compaction) beat a
  // range's width, which overcounts sparse keys (order keys 1..6M of which 1.5M are used).
  std::map<int32_t, int64_t> counted = iceberg::DistinctCounts(table.metadata());
  for (size_t i = 0; i < out.columns.size(); ++i) {
    auto it = counted.find(out.columns[i].field_id);
    if (it != counted.end()) out.column_statistics[i].distinct_count = static_cast<double>(std::max<int64_t>(1, it->second));
  }
  return OkStatus();
}

}  // namespace floe::sql::iceberg_sql
