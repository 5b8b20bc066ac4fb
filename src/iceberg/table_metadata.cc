#include "iceberg/table_metadata.h"

#include <algorithm>
#include <charconv>

#include <zlib.h>

#include "iceberg/json_fields.h"
#include "iceberg/schema_json.h"

namespace floe::iceberg {

using json::Json;

const Schema* TableMetadata::SchemaById(int32_t id) const {
  for (const Schema& s : schemas) {
    if (s.schema_id() == id) return &s;
  }
  return nullptr;
}

const Schema& TableMetadata::CurrentSchema() const {
  const Schema* s = SchemaById(current_schema_id);
  return s ? *s : schemas.back();
}

const PartitionSpec* TableMetadata::SpecById(int32_t id) const {
  for (const PartitionSpec& s : specs) {
    if (s.spec_id() == id) return &s;
  }
  return nullptr;
}

const PartitionSpec& TableMetadata::DefaultSpec() const {
  const PartitionSpec* s = SpecById(default_spec_id);
  return s ? *s : specs.back();
}

const SortOrder* TableMetadata::SortOrderById(int32_t id) const {
  for (const SortOrder& o : sort_orders) {
    if (o.order_id == id) return &o;
  }
  return nullptr;
}

const Snapshot* TableMetadata::SnapshotById(int64_t id) const {
  for (const Snapshot& s : snapshots) {
    if (s.snapshot_id == id) return &s;
  }
  return nullptr;
}

const Snapshot* TableMetadata::CurrentSnapshot() const {
  return current_snapshot_id ? SnapshotById(*current_snapshot_id) : nullptr;
}

const Snapshot* TableMetadata::SnapshotForRef(std::string_view ref) const {
  auto it = refs.find(std::string(ref));
  if (it != refs.end()) return SnapshotById(it->second.snapshot_id);
  if (ref == kMainBranch) return CurrentSnapshot();
  return nullptr;
}

const Snapshot* TableMetadata::SnapshotAsOf(int64_t timestamp_ms) const {
  const Snapshot* found = nullptr;
  for (const SnapshotLogEntry& e : snapshot_log) {
    if (e.timestamp_ms <= timestamp_ms) found = SnapshotById(e.snapshot_id);
  }
  if (!found && snapshot_log.empty()) {
    // No log: fall back to snapshot timestamps along the current lineage.
    for (const Snapshot* s = CurrentSnapshot(); s;
         s = s->parent_snapshot_id ? SnapshotById(*s->parent_snapshot_id) : nullptr) {
      if (s->timestamp_ms <= timestamp_ms) return s;
    }
  }
  return found;
}

std::string TableMetadata::Property(std::string_view key, std::string_view fallback) const {
  auto it = properties.find(std::string(key));
  return it == properties.end() ? std::string(fallback) : it->second;
}

int64_t TableMetadata::PropertyAsLong(std::string_view key, int64_t fallback) const {
  auto it = properties.find(std::string(key));
  if (it == properties.end()) return fallback;
  int64_t v = 0;
  auto [p, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
  return ec == std::errc() ? v : fallback;
}

Status TableMetadata::Validate() const {
  if (format_version < 1 || format_version > kMaxSupportedFormatVersion) {
    return NotImplemented("table format version {} is not supported (floe reads 1 to {})", format_version,
                          kMaxSupportedFormatVersion);
  }
  if (schemas.empty()) return InvalidArgument("table metadata has no schema");
  if (!SchemaById(current_schema_id)) return InvalidArgument("current-schema-id {} is not a schema", current_schema_id);
  if (specs.empty()) return InvalidArgument("table metadata has no partition spec");
  if (!SpecById(default_spec_id)) return InvalidArgument("default-spec-id {} is not a spec", default_spec_id);
  if (format_version >= 2 && !SortOrderById(default_sort_order_id)) {
    return InvalidArgument("default-sort-order-id {} is not a sort order", default_sort_order_id);
  }
  if (current_snapshot_id && !SnapshotById(*current_snapshot_id)) {
    return InvalidArgument("current-snapshot-id {} is not a snapshot", *current_snapshot_id);
  }
  for (const auto& [name, ref] : refs) {
    if (!SnapshotById(ref.snapshot_id)) {
      return InvalidArgument("ref '{}' points at snapshot {}, which does not exist", name, ref.snapshot_id);
    }
  }
  for (const Snapshot& s : snapshots) {
    if (format_version >= 2 && s.sequence_number > last_sequence_number) {
      return InvalidArgument("snapshot {} has sequence number {} above last-sequence-number {}", s.snapshot_id,
                             s.sequence_number, last_sequence_number);
    }
  }
  return OkStatus();
}

Result<std::string> GzipCompress(std::string_view data) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Internal("deflateInit2 failed");
  }
  std::string out(deflateBound(&zs, data.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&zs, Z_FINISH);
  size_t produced = zs.total_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return Internal("gzip failed ({})", rc);
  out.resize(produced);
  return out;
}

Result<std::string> GzipDecompress(std::string_view data, size_t max_output) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 16) != Z_OK) return Internal("inflateInit2 failed");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char chunk[65536];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    zs.next_out = reinterpret_cast<Bytef*>(chunk);
    zs.avail_out = sizeof(chunk);
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&zs);
      return Corruption("gzip data is invalid or truncated");
    }
    size_t produced = sizeof(chunk) - zs.avail_out;
    if (out.size() + produced > max_output) {
      inflateEnd(&zs);
      return Corruption("gzip data inflates past {} bytes", max_output);
    }
    out.append(chunk, produced);
  }
  inflateEnd(&zs);
  return out;
}

Result<TableMetadata> TableMetadataFromJsonValue(const nlohmann::json& value) {
  constexpr std::string_view kWhere = "table metadata";
  FLOE_RETURN_IF_ERROR(json::ExpectObject(value, kWhere));
  TableMetadata m;
  FLOE_ASSIGN_OR_RETURN(m.format_version, json::RequiredInt(value, "format-version", kWhere));
  if (m.format_version < 1 || m.format_version > kMaxSupportedFormatVersion) {
    return NotImplemented("table format version {} is not supported (floe reads 1 to {})", m.format_version,
                          kMaxSupportedFormatVersion);
  }
  bool v1 = m.format_version == 1;
  FLOE_ASSIGN_OR_RETURN(auto uuid, json::OptionalString(value, "table-uuid", kWhere));
  if (!uuid && !v1) return InvalidArgument("{}: missing required 'table-uuid'", kWhere);
  m.table_uuid = uuid.value_or("");
  FLOE_ASSIGN_OR_RETURN(m.location, json::RequiredString(value, "location", kWhere));
  FLOE_ASSIGN_OR_RETURN(auto last_seq, json::OptionalLong(value, "last-sequence-number", kWhere));
  if (!last_seq && !v1) return InvalidArgument("{}: missing required 'last-sequence-number'", kWhere);
  m.last_sequence_number = last_seq.value_or(0);
  FLOE_ASSIGN_OR_RETURN(m.last_updated_ms, json::RequiredLong(value, "last-updated-ms", kWhere));
  FLOE_ASSIGN_OR_RETURN(m.last_column_id, json::RequiredInt(value, "last-column-id", kWhere));

  // Schemas: "schemas" + "current-schema-id", or v1's single "schema".
  if (const Json* schemas = json::OptionalMember(value, "schemas"); schemas && schemas->is_array()) {
    for (const Json& s : *schemas) {
      FLOE_ASSIGN_OR_RETURN(Schema schema, SchemaFromJsonValue(s));
      m.schemas.push_back(std::move(schema));
    }
    FLOE_ASSIGN_OR_RETURN(auto current, json::OptionalInt(value, "current-schema-id", kWhere));
    if (!current && !v1) return InvalidArgument("{}: missing required 'current-schema-id'", kWhere);
    m.current_schema_id = current.value_or(m.schemas.empty() ? 0 : m.schemas.back().schema_id());
  } else {
    if (!v1) return InvalidArgument("{}: missing required 'schemas'", kWhere);
    FLOE_ASSIGN_OR_RETURN(const Json* schema, json::Member(value, "schema", kWhere));
    FLOE_ASSIGN_OR_RETURN(Schema s, SchemaFromJsonValue(*schema));
    m.current_schema_id = s.schema_id();
    m.schemas.push_back(std::move(s));
  }

  // Partition specs: "partition-specs" + "default-spec-id", or v1's "partition-spec" fields.
  int32_t next_partition_id = kFirstPartitionFieldId;
  if (const Json* specs = json::OptionalMember(value, "partition-specs"); specs && specs->is_array()) {
    for (const Json& s : *specs) {
      int32_t v1_next = kFirstPartitionFieldId;
      FLOE_ASSIGN_OR_RETURN(PartitionSpec spec, PartitionSpecFromJsonValue(s, v1 ? &v1_next : nullptr));
      m.specs.push_back(std::move(spec));
    }
    FLOE_ASSIGN_OR_RETURN(auto default_spec, json::OptionalInt(value, "default-spec-id", kWhere));
    if (!default_spec && !v1) return InvalidArgument("{}: missing required 'default-spec-id'", kWhere);
    m.default_spec_id = default_spec.value_or(m.specs.empty() ? 0 : m.specs.back().spec_id());
  } else {
    if (!v1) return InvalidArgument("{}: missing required 'partition-specs'", kWhere);
    FLOE_ASSIGN_OR_RETURN(const Json* fields, json::Member(value, "partition-spec", kWhere));
    FLOE_ASSIGN_OR_RETURN(PartitionSpec spec, PartitionSpecFromJsonValue(*fields, &next_partition_id));
    m.default_spec_id = spec.spec_id();
    m.specs.push_back(std::move(spec));
  }
  FLOE_ASSIGN_OR_RETURN(auto last_partition_id, json::OptionalInt(value, "last-partition-id", kWhere));
  if (last_partition_id) {
    m.last_partition_id = *last_partition_id;
  } else {
    if (!v1) return InvalidArgument("{}: missing required 'last-partition-id'", kWhere);
    for (const auto& s : m.specs) m.last_partition_id = std::max(m.last_partition_id, s.LastFieldId());
  }

  FLOE_ASSIGN_OR_RETURN(m.properties, json::OptionalStringMap(value, "properties", kWhere));
  FLOE_ASSIGN_OR_RETURN(m.current_snapshot_id, json::OptionalLong(value, "current-snapshot-id", kWhere));
  if (m.current_snapshot_id == -1) m.current_snapshot_id.reset();  // Older writers' "no snapshot".

  if (const Json* snapshots = json::OptionalMember(value, "snapshots"); snapshots && !snapshots->is_null()) {
    if (!snapshots->is_array()) return InvalidArgument("{}: 'snapshots' must be a list", kWhere);
    for (const Json& s : *snapshots) {
      FLOE_ASSIGN_OR_RETURN(Snapshot snap, SnapshotFromJsonValue(s));
      m.snapshots.push_back(std::move(snap));
    }
  }
  if (const Json* log = json::OptionalMember(value, "snapshot-log"); log && log->is_array()) {
    for (const Json& e : *log) {
      SnapshotLogEntry entry;
      FLOE_ASSIGN_OR_RETURN(entry.timestamp_ms, json::RequiredLong(e, "timestamp-ms", "snapshot-log"));
      FLOE_ASSIGN_OR_RETURN(entry.snapshot_id, json::RequiredLong(e, "snapshot-id", "snapshot-log"));
      m.snapshot_log.push_back(entry);
    }
  }
  if (const Json* log = json::OptionalMember(value, "metadata-log"); log && log->is_array()) {
    for (const Json& e : *log) {
      MetadataLogEntry entry;
      FLOE_ASSIGN_OR_RETURN(entry.timestamp_ms, json::RequiredLong(e, "timestamp-ms", "metadata-log"));
      FLOE_ASSIGN_OR_RETURN(entry.metadata_file, json::RequiredString(e, "metadata-file", "metadata-log"));
      m.metadata_log.push_back(std::move(entry));
    }
  }
  if (const Json* orders = json::OptionalMember(value, "sort-orders"); orders && orders->is_array()) {
    for (const Json& o : *orders) {
      FLOE_ASSIGN_OR_RETURN(SortOrder order, SortOrderFromJsonValue(o));
      m.sort_orders.push_back(std::move(order));
    }
    FLOE_ASSIGN_OR_RETURN(auto default_order, json::OptionalInt(value, "default-sort-order-id", kWhere));
    if (!default_order && !v1) return InvalidArgument("{}: missing required 'default-sort-order-id'", kWhere);
    m.default_sort_order_id = default_order.value_or(0);
  } else {
    if (!v1) return InvalidArgument("{}: missing required 'sort-orders'", kWhere);
    m.sort_orders.push_back(SortOrder{});
  }
  if (const Json* refs = json::OptionalMember(value, "refs"); refs && refs->is_object()) {
    for (auto it = refs->begin(); it != refs->end(); ++it) {
      FLOE_ASSIGN_OR_RETURN(SnapshotRef ref, SnapshotRefFromJsonValue(*it, it.key()));
      m.refs[it.key()] = ref;
    }
  }
  // There is always a main branch at the current snapshot.
  if (m.current_snapshot_id && !m.refs.contains(std::string(kMainBranch))) {
    m.refs[std::string(kMainBranch)] = SnapshotRef{*m.current_snapshot_id, true, {}, {}, {}};
  }
  FLOE_ASSIGN_OR_RETURN(m.next_row_id, json::OptionalLong(value, "next-row-id", kWhere));
  if (const Json* s = json::OptionalMember(value, "statistics"); s && s->is_array()) m.statistics = *s;
  if (const Json* s = json::OptionalMember(value, "partition-statistics"); s && s->is_array()) {
    m.partition_statistics = *s;
  }
  FLOE_RETURN_IF_ERROR(m.Validate());
  return m;
}

Result<TableMetadata> TableMetadataFromJson(std::string_view bytes, std::string_view where) {
  std::string inflated;
  if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b) {
    auto r = GzipDecompress(bytes, size_t{1} << 30);
    if (!r) return std::unexpected(std::move(r).error().WithContext(where));
    inflated = std::move(*r);
    bytes = inflated;
  }
  auto value = json::Parse(bytes, where);
  if (!value) return std::unexpected(std::move(value).error());
  auto m = TableMetadataFromJsonValue(*value);
  if (!m) return std::unexpected(std::move(m).error().WithContext(where));
  return m;
}

nlohmann::json TableMetadataToJsonValue(const TableMetadata& m) {
  Json out = Json::object();
  out["format-version"] = m.format_version;
  out["table-uuid"] = m.table_uuid;
  out["location"] = m.location;
  if (m.format_version >= 2) out["last-sequence-number"] = m.last_sequence_number;
  out["last-updated-ms"] = m.last_updated_ms;
  out["last-column-id"] = m.last_column_id;
  Json schemas = Json::array();
  for (const Schema& s : m.schemas) schemas.push_back(SchemaToJsonValue(s));
  out["schemas"] = std::move(schemas);
  out["current-schema-id"] = m.current_schema_id;
  Json specs = Json::array();
  for (const PartitionSpec& s : m.specs) specs.push_back(PartitionSpecToJsonValue(s));
  out["partition-specs"] = std::move(specs);
  out["default-spec-id"] = m.default_spec_id;
  out["last-partition-id"] = m.last_partition_id;
  if (m.format_version == 1) {
    // v1 readers need the deprecated single-schema and single-spec members.
    out["schema"] = SchemaToJsonValue(m.CurrentSchema());
    out["partition-spec"] = PartitionFieldsToJsonValue(m.DefaultSpec());
  }
  out["properties"] = m.properties;
  out["current-snapshot-id"] = m.current_snapshot_id ? Json(*m.current_snapshot_id) : Json(nullptr);
  Json snapshots = Json::array();
  for (const Snapshot& s : m.snapshots) snapshots.push_back(SnapshotToJsonValue(s));
  out["snapshots"] = std::move(snapshots);
  Json snapshot_log = Json::array();
  for (const auto& e : m.snapshot_log) snapshot_log.push_back({{"timestamp-ms", e.timestamp_ms}, {"snapshot-id", e.snapshot_id}});
  out["snapshot-log"] = std::move(snapshot_log);
  Json metadata_log = Json::array();
  for (const auto& e : m.metadata_log) {
    metadata_log.push_back({{"timestamp-ms", e.timestamp_ms}, {"metadata-file", e.metadata_file}});
  }
  out["metadata-log"] = std::move(metadata_log);
  Json orders = Json::array();
  for (const SortOrder& o : m.sort_orders) orders.push_back(SortOrderToJsonValue(o));
  out["sort-orders"] = std::move(orders);
  out["default-sort-order-id"] = m.default_sort_order_id;
  if (m.format_version >= 2) {
    Json refs = Json::object();
    for (const auto& [name, ref] : m.refs) refs[name] = SnapshotRefToJsonValue(ref);
    out["refs"] = std::move(refs);
  }
  if (m.next_row_id) out["next-row-id"] = *m.next_row_id;
  if (!m.statistics.empty()) out["statistics"] = m.statistics;
  if (!m.partition_statistics.empty()) out["partition-statistics"] = m.partition_statistics;
  return out;
}

std::string TableMetadataToJson(const TableMetadata& m) { return TableMetadataToJsonValue(m).dump(2); }

}  // namespace floe::iceberg
