#include "sql/iceberg/resolved_table.h"

#include <algorithm>

#include "sql/iceberg/iceberg_types.h"
#include "sql/iceberg/metadata_columns.h"

namespace floe::sql::iceberg_sql {

Result<std::shared_ptr<const ResolvedTable>> ResolveTable(std::shared_ptr<iceberg::TableOperations> ops,
                                                          const TableVersion& version) {
  auto out = std::make_shared<ResolvedTable>();
  FLOE_ASSIGN_OR_RETURN(out->current, ops->Refresh());
  out->ops = std::move(ops);
  const iceberg::TableMetadata& m = *out->current.metadata;
  switch (version.kind) {
    case TableVersion::Kind::kCurrent: out->snapshot = m.CurrentSnapshot(); break;
    case TableVersion::Kind::kSnapshotId:
      out->snapshot = m.SnapshotById(version.snapshot_id);
      if (!out->snapshot) return NotFound("table has no snapshot {}", version.snapshot_id);
      break;
    case TableVersion::Kind::kRef:
      out->snapshot = m.SnapshotForRef(version.ref);
      if (!out->snapshot) return NotFound("table has no branch or tag '{}'", version.ref);
      break;
    case TableVersion::Kind::kTimestamp: {
      // The latest snapshot at or before the instant (Trino's rule), by the snapshot log.
      int64_t ms = version.timestamp_micros / 1000 - (version.timestamp_micros % 1000 < 0 ? 1 : 0);
      out->snapshot = m.SnapshotAsOf(ms);
      if (!out->snapshot) return NotFound("table has no snapshot at or before {} ms", ms);
      break;
    }
  }
  out->schema = m.CurrentSchema();
  if (version.kind != TableVersion::Kind::kCurrent && out->snapshot && out->snapshot->schema_id) {
    if (const iceberg::Schema* s = m.SchemaById(*out->snapshot->schema_id)) out->schema = *s;
  }
  return std::shared_ptr<const ResolvedTable>(std::move(out));
}

Result<CatalogTable> DescribeTable(const ResolvedTable& table, QualifiedTableName name) {
  const iceberg::TableMetadata& m = table.metadata();
  CatalogTable out;
  out.name = std::move(name);
  out.location = m.location;
  for (const iceberg::NestedField& f : table.schema.fields()) {
    auto type = SqlTypeFor(*f.type);
    if (!type) continue;  // variant, unknown: not visible to SQL yet.
    out.columns.push_back({f.name, *type, !f.required, f.id});
  }
  out.metadata_columns = MetadataColumnsFor(out.columns, m.format_version);
  if (table.snapshot) {
    auto it = table.snapshot->summary.find("total-records");
    if (it != table.snapshot->summary.end()) {
      try {
        out.estimated_rows = std::stoll(it->second);
      } catch (...) {
      }
    }
  } else {
    out.estimated_rows = 0;
  }
  for (const iceberg::PartitionField& pf : m.DefaultSpec().fields()) {
    using K = iceberg::Transform::Kind;
    K k = pf.transform.kind();
    if (k != K::kIdentity && k != K::kYear && k != K::kMonth && k != K::kDay && k != K::kHour) continue;
    const iceberg::NestedField* source = table.schema.FindField(pf.source_id);
    if (!source) continue;
    bool top_level = false;
    for (const iceberg::NestedField& f : table.schema.fields()) top_level = top_level || f.id == source->id;
    bool seen = std::find(out.partition_columns.begin(), out.partition_columns.end(), source->name) != out.partition_columns.end();
    if (top_level && !seen) out.partition_columns.push_back(source->name);
  }
  out.properties = m.properties;
  return out;
}

}  // namespace floe::sql::iceberg_sql
