#include "iceberg/manifest.h"

#include <algorithm>
#include <charconv>

#include "formats/avro/container_file.h"
#include "iceberg/avro_conversion.h"
#include "iceberg/schema_json.h"

namespace floe::iceberg {
namespace {

using avro::AvroNode;
using avro::AvroValue;
using Json = nlohmann::json;

TypePtr P(TypeId id) { return Type::Primitive(id); }

NestedField Req(int32_t id, std::string name, TypePtr type) { return NestedField{id, std::move(name), true, std::move(type)}; }
NestedField Opt(int32_t id, std::string name, TypePtr type) { return NestedField{id, std::move(name), false, std::move(type)}; }

TypePtr IntLongMap(int32_t key_id, int32_t value_id) {
  return Type::Map(Req(key_id, "key", P(TypeId::kInt)), Req(value_id, "value", P(TypeId::kLong)));
}
TypePtr IntBinaryMap(int32_t key_id, int32_t value_id) {
  return Type::Map(Req(key_id, "key", P(TypeId::kInt)), Req(value_id, "value", P(TypeId::kBinary)));
}

// --- Reading written records by field id --------------------------------------------------

// The value of the field with `id` (or, for writers without ids, `name`) in a written record,
// with a union's branch already taken; null when the writer did not have the field.
struct FieldRef {
  const AvroNode* node = nullptr;
  const AvroValue* value = nullptr;
  bool present() const { return node && value && !value->is_null(); }
};

const AvroNode* Unwrap(const AvroNode* node, const AvroValue& value) {
  if (node->type != avro::AvroType::kUnion) return node;
  for (const AvroNode* b : node->branches) {
    if (value.is_null() ? b->type == avro::AvroType::kNull : b->type != avro::AvroType::kNull) return b;
  }
  return node->branches.back();
}

FieldRef Get(const AvroNode& record, const AvroValue& value, int32_t id, std::string_view name) {
  if (record.type != avro::AvroType::kRecord || value.kind != AvroValue::Kind::kRecord) return {};
  int i = record.FieldIndexById(id);
  if (i < 0) i = record.FieldIndex(name);
  if (i < 0 || static_cast<size_t>(i) >= value.items.size()) return {};
  const AvroValue& v = value.items[i];
  return FieldRef{Unwrap(record.fields[i].type, v), &v};
}

std::optional<int64_t> GetLong(const AvroNode& r, const AvroValue& v, int32_t id, std::string_view name) {
  FieldRef f = Get(r, v, id, name);
  if (!f.present()) return std::nullopt;
  if (f.value->kind != AvroValue::Kind::kInt && f.value->kind != AvroValue::Kind::kLong) return std::nullopt;
  return f.value->i;
}

std::optional<std::string> GetBytes(const AvroNode& r, const AvroValue& v, int32_t id, std::string_view name) {
  FieldRef f = Get(r, v, id, name);
  if (!f.present()) return std::nullopt;
  return f.value->s;
}

Result<int64_t> RequireLong(const AvroNode& r, const AvroValue& v, int32_t id, std::string_view name) {
  auto x = GetLong(r, v, id, name);
  if (!x) return Corruption("required field {} ({}) is missing or not a number", name, id);
  return *x;
}

// A map<int, T> written either as an array of key/value records or as an Avro map.
template <typename Fn>
void ForEachMapEntry(const FieldRef& f, Fn&& fn) {
  if (!f.present()) return;
  const AvroValue& v = *f.value;
  if (v.kind == AvroValue::Kind::kArray && f.node->items) {
    for (const AvroValue& kv : v.items) {
      if (kv.kind != AvroValue::Kind::kRecord || kv.items.size() < 2) continue;
      fn(kv.items[0].i, kv.items[1]);
    }
  } else if (v.kind == AvroValue::Kind::kMap) {
    for (size_t k = 0; k < v.keys.size(); ++k) {
      int64_t key = 0;
      const std::string& text = v.keys[k];
      auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), key);
      if (ec == std::errc() && p == text.data() + text.size()) fn(key, v.items[k]);
    }
  }
}

std::map<int32_t, int64_t> ReadCounts(const FieldRef& f) {
  std::map<int32_t, int64_t> out;
  ForEachMapEntry(f, [&](int64_t k, const AvroValue& v) { out[static_cast<int32_t>(k)] = v.i; });
  return out;
}

std::map<int32_t, std::string> ReadBounds(const FieldRef& f) {
  std::map<int32_t, std::string> out;
  ForEachMapEntry(f, [&](int64_t k, const AvroValue& v) { out[static_cast<int32_t>(k)] = v.s; });
  return out;
}

// --- Writing -------------------------------------------------------------------------------

AvroValue Optional(bool present, AvroValue v) { return present ? std::move(v) : AvroValue::Null(); }

AvroValue CountMap(const std::map<int32_t, int64_t>& m) {
  if (m.empty()) return AvroValue::Null();
  std::vector<AvroValue> items;
  for (const auto& [k, v] : m) items.push_back(AvroValue::Record({AvroValue::Int(k), AvroValue::Long(v)}));
  return AvroValue::Array(std::move(items));
}

AvroValue BoundMap(const std::map<int32_t, std::string>& m) {
  if (m.empty()) return AvroValue::Null();
  std::vector<AvroValue> items;
  for (const auto& [k, v] : m) items.push_back(AvroValue::Record({AvroValue::Int(k), AvroValue::Bytes(v)}));
  return AvroValue::Array(std::move(items));
}

Result<avro::AvroSchema> AvroSchemaFor(const Schema& schema, const std::string& record_name) {
  return avro::AvroSchema::FromJson(StructToAvroSchema(*schema.as_struct(), record_name));
}

}  // namespace

Schema ManifestEntrySchema(const TypePtr& partition_type, int format_version) {
  std::vector<NestedField> data_file;
  if (format_version >= 2) data_file.push_back(Req(134, "content", P(TypeId::kInt)));
  data_file.push_back(Req(100, "file_path", P(TypeId::kString)));
  data_file.push_back(Req(101, "file_format", P(TypeId::kString)));
  data_file.push_back(Req(102, "partition", partition_type));
  data_file.push_back(Req(103, "record_count", P(TypeId::kLong)));
  data_file.push_back(Req(104, "file_size_in_bytes", P(TypeId::kLong)));
  if (format_version == 1) data_file.push_back(Req(105, "block_size_in_bytes", P(TypeId::kLong)));
  data_file.push_back(Opt(108, "column_sizes", IntLongMap(117, 118)));
  data_file.push_back(Opt(109, "value_counts", IntLongMap(119, 120)));
  data_file.push_back(Opt(110, "null_value_counts", IntLongMap(121, 122)));
  data_file.push_back(Opt(137, "nan_value_counts", IntLongMap(138, 139)));
  data_file.push_back(Opt(125, "lower_bounds", IntBinaryMap(126, 127)));
  data_file.push_back(Opt(128, "upper_bounds", IntBinaryMap(129, 130)));
  data_file.push_back(Opt(131, "key_metadata", P(TypeId::kBinary)));
  data_file.push_back(Opt(132, "split_offsets", Type::List(Req(133, "element", P(TypeId::kLong)))));
  if (format_version >= 2) data_file.push_back(Opt(135, "equality_ids", Type::List(Req(136, "element", P(TypeId::kInt)))));
  data_file.push_back(Opt(140, "sort_order_id", P(TypeId::kInt)));
  if (format_version >= 3) data_file.push_back(Opt(142, "first_row_id", P(TypeId::kLong)));
  if (format_version >= 2) data_file.push_back(Opt(143, "referenced_data_file", P(TypeId::kString)));
  // v3 deletion vectors: where the DV blob sits inside its Puffin file.
  if (format_version >= 3) data_file.push_back(Opt(144, "content_offset", P(TypeId::kLong)));
  if (format_version >= 3) data_file.push_back(Opt(145, "content_size_in_bytes", P(TypeId::kLong)));

  std::vector<NestedField> entry;
  entry.push_back(Req(0, "status", P(TypeId::kInt)));
  if (format_version == 1) {
    entry.push_back(Req(1, "snapshot_id", P(TypeId::kLong)));
  } else {
    entry.push_back(Opt(1, "snapshot_id", P(TypeId::kLong)));
    entry.push_back(Opt(3, "sequence_number", P(TypeId::kLong)));
    entry.push_back(Opt(4, "file_sequence_number", P(TypeId::kLong)));
  }
  entry.push_back(Req(2, "data_file", Type::Struct(std::move(data_file))));
  return Schema(0, std::move(entry));
}

Schema ManifestFileSchema(int format_version) {
  bool v1 = format_version == 1;
  auto count = [&](int32_t id, std::string name, TypeId t) { return v1 ? Opt(id, std::move(name), P(t)) : Req(id, std::move(name), P(t)); };
  std::vector<NestedField> f;
  f.push_back(Req(500, "manifest_path", P(TypeId::kString)));
  f.push_back(Req(501, "manifest_length", P(TypeId::kLong)));
  f.push_back(Req(502, "partition_spec_id", P(TypeId::kInt)));
  if (!v1) {
    f.push_back(Req(517, "content", P(TypeId::kInt)));
    f.push_back(Req(515, "sequence_number", P(TypeId::kLong)));
    f.push_back(Req(516, "min_sequence_number", P(TypeId::kLong)));
  }
  f.push_back(Req(503, "added_snapshot_id", P(TypeId::kLong)));
  f.push_back(count(504, "added_files_count", TypeId::kInt));
  f.push_back(count(505, "existing_files_count", TypeId::kInt));
  f.push_back(count(506, "deleted_files_count", TypeId::kInt));
  f.push_back(count(512, "added_rows_count", TypeId::kLong));
  f.push_back(count(513, "existing_rows_count", TypeId::kLong));
  f.push_back(count(514, "deleted_rows_count", TypeId::kLong));
  TypePtr summary = Type::Struct({Req(509, "contains_null", P(TypeId::kBoolean)),
                                  Opt(518, "contains_nan", P(TypeId::kBoolean)),
                                  Opt(510, "lower_bound", P(TypeId::kBinary)),
                                  Opt(511, "upper_bound", P(TypeId::kBinary))});
  f.push_back(Opt(507, "partitions", Type::List(Req(508, "element", summary))));
  f.push_back(Opt(519, "key_metadata", P(TypeId::kBinary)));
  if (format_version >= 3) f.push_back(Opt(520, "first_row_id", P(TypeId::kLong)));
  return Schema(0, std::move(f));
}

Result<WrittenManifest> WriteManifest(const ManifestWriteContext& ctx, const std::vector<ManifestEntry>& entries) {
  if (!ctx.schema || !ctx.spec) return InvalidArgument("WriteManifest needs a schema and a spec");
  if (ctx.format_version < 2) return NotImplemented("writing format v{} manifests", ctx.format_version);
  FLOE_ASSIGN_OR_RETURN(TypePtr partition_type, ctx.spec->PartitionType(*ctx.schema));
  Schema entry_schema = ManifestEntrySchema(partition_type, ctx.format_version);
  FLOE_ASSIGN_OR_RETURN(avro::AvroSchema avro_schema, AvroSchemaFor(entry_schema, "manifest_entry"));

  std::map<std::string, std::string> meta;
  meta["schema"] = SchemaToJson(*ctx.schema);
  meta["schema-id"] = std::to_string(ctx.schema->schema_id());
  meta["partition-spec"] = PartitionFieldsToJsonValue(*ctx.spec).dump();
  meta["partition-spec-id"] = std::to_string(ctx.spec->spec_id());
  meta["format-version"] = std::to_string(ctx.format_version);
  meta["content"] = ctx.content == ManifestContent::kData ? "data" : "deletes";
  avro::ContainerWriter writer(std::move(avro_schema), avro::Codec::kDeflate, std::move(meta));

  WrittenManifest out;
  ManifestFile& r = out.record;
  r.partition_spec_id = ctx.spec->spec_id();
  r.content = ctx.content;
  r.added_snapshot_id = ctx.snapshot_id;
  r.sequence_number = ManifestFile::kUnassigned;
  int32_t added = 0, existing = 0, deleted = 0;
  int64_t added_rows = 0, existing_rows = 0, deleted_rows = 0;
  std::optional<int64_t> min_seq;
  bool inherits_seq = false;
  size_t nfields = ctx.spec->fields().size();
  std::vector<PartitionFieldSummary> summaries(nfields);
  std::vector<std::optional<Literal>> lowers(nfields), uppers(nfields);

  for (const ManifestEntry& e : entries) {
    const DataFile& f = e.data_file;
    if (f.partition.size() != nfields) {
      return InvalidArgument("data file {}: partition has {} values, spec {} has {} fields", f.file_path,
                             f.partition.size(), ctx.spec->spec_id(), nfields);
    }
    if (e.status != EntryStatus::kAdded && (!e.sequence_number || !e.file_sequence_number || !e.snapshot_id)) {
      return InvalidArgument("data file {}: existing and deleted entries need explicit snapshot and sequence numbers",
                             f.file_path);
    }
    std::vector<AvroValue> partition;
    for (size_t i = 0; i < nfields; ++i) {
      const Type& t = *partition_type->fields()[i].type;
      const Literal& v = f.partition[i];
      partition.push_back(LiteralToAvro(t, v));
      PartitionFieldSummary& s = summaries[i];
      if (v.is_null()) {
        s.contains_null = true;
      } else if (v.is_nan()) {
        s.contains_nan = true;
      } else {
        if (!lowers[i] || v < *lowers[i]) lowers[i] = v;
        if (!uppers[i] || *uppers[i] < v) uppers[i] = v;
      }
    }
    std::vector<AvroValue> df;
    df.push_back(AvroValue::Int(static_cast<int32_t>(f.content)));
    df.push_back(AvroValue::String(f.file_path));
    df.push_back(AvroValue::String(f.file_format));
    df.push_back(AvroValue::Record(std::move(partition)));
    df.push_back(AvroValue::Long(f.record_count));
    df.push_back(AvroValue::Long(f.file_size_in_bytes));
    df.push_back(CountMap(f.column_sizes));
    df.push_back(CountMap(f.value_counts));
    df.push_back(CountMap(f.null_value_counts));
    df.push_back(CountMap(f.nan_value_counts));
    df.push_back(BoundMap(f.lower_bounds));
    df.push_back(BoundMap(f.upper_bounds));
    df.push_back(f.key_metadata ? AvroValue::Bytes(*f.key_metadata) : AvroValue::Null());
    std::vector<AvroValue> splits;
    for (int64_t o : f.split_offsets) splits.push_back(AvroValue::Long(o));
    bool has_splits = !splits.empty();
    df.push_back(Optional(has_splits, AvroValue::Array(std::move(splits))));
    std::vector<AvroValue> eq;
    for (int32_t id : f.equality_ids) eq.push_back(AvroValue::Int(id));
    bool has_eq = !eq.empty();
    df.push_back(Optional(has_eq, AvroValue::Array(std::move(eq))));
    df.push_back(f.sort_order_id ? AvroValue::Int(*f.sort_order_id) : AvroValue::Null());
    if (ctx.format_version >= 3) df.push_back(f.first_row_id ? AvroValue::Long(*f.first_row_id) : AvroValue::Null());
    df.push_back(f.referenced_data_file ? AvroValue::String(*f.referenced_data_file) : AvroValue::Null());
    if (ctx.format_version >= 3) {
      df.push_back(f.content_offset ? AvroValue::Long(*f.content_offset) : AvroValue::Null());
      df.push_back(f.content_size_in_bytes ? AvroValue::Long(*f.content_size_in_bytes) : AvroValue::Null());
    }

    AvroValue entry = AvroValue::Record({
        AvroValue::Int(static_cast<int32_t>(e.status)),
        e.snapshot_id ? AvroValue::Long(*e.snapshot_id) : AvroValue::Null(),
        e.sequence_number ? AvroValue::Long(*e.sequence_number) : AvroValue::Null(),
        e.file_sequence_number ? AvroValue::Long(*e.file_sequence_number) : AvroValue::Null(),
        AvroValue::Record(std::move(df)),
    });
    FLOE_RETURN_IF_ERROR_CTX(writer.Append(entry), f.file_path);

    switch (e.status) {
      case EntryStatus::kAdded: ++added; added_rows += f.record_count; break;
      case EntryStatus::kExisting: ++existing; existing_rows += f.record_count; break;
      case EntryStatus::kDeleted: ++deleted; deleted_rows += f.record_count; break;
    }
    if (e.status != EntryStatus::kDeleted) {
      if (e.sequence_number) {
        min_seq = min_seq ? std::min(*min_seq, *e.sequence_number) : *e.sequence_number;
      } else {
        inherits_seq = true;
      }
    }
  }
  for (size_t i = 0; i < nfields; ++i) {
    const Type& t = *partition_type->fields()[i].type;
    if (lowers[i]) summaries[i].lower_bound = ToBinary(t, *lowers[i]);
    if (uppers[i]) summaries[i].upper_bound = ToBinary(t, *uppers[i]);
    if (!summaries[i].contains_nan && (t.id() == TypeId::kFloat || t.id() == TypeId::kDouble)) {
      summaries[i].contains_nan = false;
    }
  }
  r.added_files_count = added;
  r.existing_files_count = existing;
  r.deleted_files_count = deleted;
  r.added_rows_count = added_rows;
  r.existing_rows_count = existing_rows;
  r.deleted_rows_count = deleted_rows;
  r.partitions = std::move(summaries);
  // New entries take the snapshot's sequence number, which is the highest in the table, so
  // the minimum is the lowest explicit one if there is any.
  r.min_sequence_number = min_seq ? *min_seq : ManifestFile::kUnassigned;
  if (inherits_seq && !min_seq) r.min_sequence_number = ManifestFile::kUnassigned;
  FLOE_ASSIGN_OR_RETURN(out.bytes, writer.Finish());
  r.manifest_length = static_cast<int64_t>(out.bytes.size());
  return out;
}

Result<std::vector<ManifestEntry>> ReadManifest(std::string bytes, const ManifestFile& record,
                                                const PartitionSpec& spec, const Schema& schema,
                                                std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(auto reader, avro::ContainerReader::Open(std::move(bytes), std::string(location)));
  const AvroNode& root = reader.schema().root();
  if (root.type != avro::AvroType::kRecord) return Corruption("{}: manifest records are not records", location);
  int format_version = 1;
  if (auto it = reader.metadata().find("format-version"); it != reader.metadata().end()) {
    format_version = std::atoi(it->second.c_str());
  } else if (root.FieldIndexById(3) >= 0 || root.FieldIndex("sequence_number") >= 0) {
    format_version = 2;
  }
  FLOE_ASSIGN_OR_RETURN(TypePtr partition_type, spec.PartitionType(schema));
  bool v1 = format_version == 1;

  std::vector<ManifestEntry> out;
  int64_t inherited_rows = 0;  // Rows of the data files that inherited a first row id so far.
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto value, reader.Next());
    if (!value) break;
    const AvroValue& v = *value;
    auto ctx = [&](Error e) { return std::unexpected(std::move(e).WithContext(fmt::format("{}: entry {}", location, out.size()))); };
    ManifestEntry e;
    auto status = RequireLong(root, v, 0, "status");
    if (!status) return ctx(status.error());
    if (*status < 0 || *status > 2) return ctx(Error(ErrorKind::kCorruption, fmt::format("status {}", *status)));
    e.status = static_cast<EntryStatus>(*status);
    e.snapshot_id = GetLong(root, v, 1, "snapshot_id");
    e.sequence_number = GetLong(root, v, 3, "sequence_number");
    e.file_sequence_number = GetLong(root, v, 4, "file_sequence_number");
    // Inheritance (format/spec.md, "Sequence Number Inheritance").
    if (!e.snapshot_id) e.snapshot_id = record.added_snapshot_id;
    if (v1) {
      e.sequence_number = e.sequence_number.value_or(0);
      e.file_sequence_number = e.file_sequence_number.value_or(0);
    } else if (e.status == EntryStatus::kAdded) {
      if (!e.sequence_number) e.sequence_number = record.sequence_number;
      if (!e.file_sequence_number) e.file_sequence_number = record.sequence_number;
    } else if (!e.sequence_number || !e.file_sequence_number) {
      // Writers must store them; readers that meet an old writer's omission fall back.
      if (!e.sequence_number) e.sequence_number = record.sequence_number;
      if (!e.file_sequence_number) e.file_sequence_number = record.sequence_number;
    }

    FieldRef df_ref = Get(root, v, 2, "data_file");
    if (!df_ref.present() || df_ref.value->kind != AvroValue::Kind::kRecord) {
      return ctx(Error(ErrorKind::kCorruption, "missing data_file"));
    }
    const AvroNode& dn = *df_ref.node;
    const AvroValue& dv = *df_ref.value;
    DataFile& f = e.data_file;
    f.spec_id = spec.spec_id();
    f.content = static_cast<FileContent>(GetLong(dn, dv, 134, "content").value_or(0));
    if (static_cast<int>(f.content) < 0 || static_cast<int>(f.content) > 2) {
      return ctx(Error(ErrorKind::kCorruption, "bad data_file content"));
    }
    auto path = GetBytes(dn, dv, 100, "file_path");
    if (!path) return ctx(Error(ErrorKind::kCorruption, "missing file_path"));
    f.file_path = *path;
    f.file_format = GetBytes(dn, dv, 101, "file_format").value_or("PARQUET");
    auto rc = RequireLong(dn, dv, 103, "record_count");
    if (!rc) return ctx(rc.error());
    f.record_count = *rc;
    auto size = RequireLong(dn, dv, 104, "file_size_in_bytes");
    if (!size) return ctx(size.error());
    f.file_size_in_bytes = *size;

    FieldRef part = Get(dn, dv, 102, "partition");
    for (const NestedField& pf : partition_type->fields()) {
      Literal lit;
      if (part.present()) {
        FieldRef pv = Get(*part.node, *part.value, pf.id, pf.name);
        if (pv.present()) {
          auto l = AvroToLiteral(*pf.type, *pv.value);
          if (!l) return ctx(l.error().WithContext(fmt::format("partition field '{}'", pf.name)));
          lit = *l;
        }
      }
      f.partition.push_back(std::move(lit));
    }
    f.column_sizes = ReadCounts(Get(dn, dv, 108, "column_sizes"));
    f.value_counts = ReadCounts(Get(dn, dv, 109, "value_counts"));
    f.null_value_counts = ReadCounts(Get(dn, dv, 110, "null_value_counts"));
    f.nan_value_counts = ReadCounts(Get(dn, dv, 137, "nan_value_counts"));
    f.lower_bounds = ReadBounds(Get(dn, dv, 125, "lower_bounds"));
    f.upper_bounds = ReadBounds(Get(dn, dv, 128, "upper_bounds"));
    f.key_metadata = GetBytes(dn, dv, 131, "key_metadata");
    if (FieldRef s = Get(dn, dv, 132, "split_offsets"); s.present()) {
      for (const AvroValue& o : s.value->items) f.split_offsets.push_back(o.i);
    }
    if (FieldRef s = Get(dn, dv, 135, "equality_ids"); s.present()) {
      for (const AvroValue& o : s.value->items) f.equality_ids.push_back(static_cast<int32_t>(o.i));
    }
    if (auto so = GetLong(dn, dv, 140, "sort_order_id")) f.sort_order_id = static_cast<int32_t>(*so);
    f.referenced_data_file = GetBytes(dn, dv, 143, "referenced_data_file");
    f.first_row_id = GetLong(dn, dv, 142, "first_row_id");
    f.content_offset = GetLong(dn, dv, 144, "content_offset");
    f.content_size_in_bytes = GetLong(dn, dv, 145, "content_size_in_bytes");
    // First row id inheritance (format/spec.md, "First Row ID Inheritance"): a live data file
    // without one starts where the previous such file of the manifest ended. Delete files and
    // deleted entries (which writers store with their value) take none.
    if (f.content == FileContent::kData) {
      if (!f.first_row_id && record.first_row_id && e.status != EntryStatus::kDeleted) {
        f.first_row_id = *record.first_row_id + inherited_rows;
        inherited_rows += f.record_count;
      }
    } else {
      f.first_row_id.reset();
    }
    out.push_back(std::move(e));
  }
  return out;
}

Result<std::string> WriteManifestList(int format_version, int64_t snapshot_id, std::optional<int64_t> parent_id,
                                      int64_t sequence_number, std::vector<ManifestFile> manifests) {
  if (format_version < 2) return NotImplemented("writing format v{} manifest lists", format_version);
  Schema schema = ManifestFileSchema(format_version);
  FLOE_ASSIGN_OR_RETURN(avro::AvroSchema avro_schema, AvroSchemaFor(schema, "manifest_file"));
  std::map<std::string, std::string> meta;
  meta["snapshot-id"] = std::to_string(snapshot_id);
  meta["parent-snapshot-id"] = parent_id ? std::to_string(*parent_id) : "null";
  meta["sequence-number"] = std::to_string(sequence_number);
  meta["format-version"] = std::to_string(format_version);
  avro::ContainerWriter writer(std::move(avro_schema), avro::Codec::kDeflate, std::move(meta));
  for (ManifestFile& m : manifests) {
    if (m.sequence_number == ManifestFile::kUnassigned) m.sequence_number = sequence_number;
    if (m.min_sequence_number == ManifestFile::kUnassigned) m.min_sequence_number = sequence_number;
    std::vector<AvroValue> parts;
    for (const PartitionFieldSummary& s : m.partitions) {
      parts.push_back(AvroValue::Record({
          AvroValue::Boolean(s.contains_null),
          s.contains_nan ? AvroValue::Boolean(*s.contains_nan) : AvroValue::Null(),
          s.lower_bound ? AvroValue::Bytes(*s.lower_bound) : AvroValue::Null(),
          s.upper_bound ? AvroValue::Bytes(*s.upper_bound) : AvroValue::Null(),
      }));
    }
    std::vector<AvroValue> rec = {
        AvroValue::String(m.manifest_path),
        AvroValue::Long(m.manifest_length),
        AvroValue::Int(m.partition_spec_id),
        AvroValue::Int(static_cast<int32_t>(m.content)),
        AvroValue::Long(m.sequence_number),
        AvroValue::Long(m.min_sequence_number),
        AvroValue::Long(m.added_snapshot_id),
        AvroValue::Int(m.added_files_count.value_or(0)),
        AvroValue::Int(m.existing_files_count.value_or(0)),
        AvroValue::Int(m.deleted_files_count.value_or(0)),
        AvroValue::Long(m.added_rows_count.value_or(0)),
        AvroValue::Long(m.existing_rows_count.value_or(0)),
        AvroValue::Long(m.deleted_rows_count.value_or(0)),
        AvroValue::Array(std::move(parts)),
        m.key_metadata ? AvroValue::Bytes(*m.key_metadata) : AvroValue::Null(),
    };
    if (format_version >= 3) rec.push_back(m.first_row_id ? AvroValue::Long(*m.first_row_id) : AvroValue::Null());
    FLOE_RETURN_IF_ERROR_CTX(writer.Append(AvroValue::Record(std::move(rec))), m.manifest_path);
  }
  return writer.Finish();
}

Result<std::vector<ManifestFile>> ReadManifestList(std::string bytes, std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(auto reader, avro::ContainerReader::Open(std::move(bytes), std::string(location)));
  const AvroNode& root = reader.schema().root();
  if (root.type != avro::AvroType::kRecord) return Corruption("{}: manifest list records are not records", location);
  std::vector<ManifestFile> out;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto value, reader.Next());
    if (!value) break;
    const AvroValue& v = *value;
    auto ctx = [&](Error e) { return std::unexpected(std::move(e).WithContext(fmt::format("{}: record {}", location, out.size()))); };
    ManifestFile m;
    auto path = GetBytes(root, v, 500, "manifest_path");
    if (!path) return ctx(Error(ErrorKind::kCorruption, "missing manifest_path"));
    m.manifest_path = *path;
    auto length = RequireLong(root, v, 501, "manifest_length");
    if (!length) return ctx(length.error());
    m.manifest_length = *length;
    m.partition_spec_id = static_cast<int32_t>(GetLong(root, v, 502, "partition_spec_id").value_or(0));
    m.content = static_cast<ManifestContent>(GetLong(root, v, 517, "content").value_or(0));
    m.sequence_number = GetLong(root, v, 515, "sequence_number").value_or(0);
    m.min_sequence_number = GetLong(root, v, 516, "min_sequence_number").value_or(0);
    auto added_by = RequireLong(root, v, 503, "added_snapshot_id");
    if (!added_by) return ctx(added_by.error());
    m.added_snapshot_id = *added_by;
    auto as_int = [](std::optional<int64_t> x) -> std::optional<int32_t> {
      if (!x) return std::nullopt;
      return static_cast<int32_t>(*x);
    };
    m.added_files_count = as_int(GetLong(root, v, 504, "added_files_count"));
    m.existing_files_count = as_int(GetLong(root, v, 505, "existing_files_count"));
    m.deleted_files_count = as_int(GetLong(root, v, 506, "deleted_files_count"));
    m.added_rows_count = GetLong(root, v, 512, "added_rows_count");
    m.existing_rows_count = GetLong(root, v, 513, "existing_rows_count");
    m.deleted_rows_count = GetLong(root, v, 514, "deleted_rows_count");
    if (FieldRef parts = Get(root, v, 507, "partitions"); parts.present() && parts.node->items) {
      const AvroNode* item_node = parts.node->items;
      for (const AvroValue& p : parts.value->items) {
        const AvroNode* rn = Unwrap(item_node, p);
        PartitionFieldSummary s;
        FieldRef cn = Get(*rn, p, 509, "contains_null");
        s.contains_null = cn.present() && cn.value->i != 0;
        FieldRef nan = Get(*rn, p, 518, "contains_nan");
        if (nan.present()) s.contains_nan = nan.value->i != 0;
        s.lower_bound = GetBytes(*rn, p, 510, "lower_bound");
        s.upper_bound = GetBytes(*rn, p, 511, "upper_bound");
        m.partitions.push_back(std::move(s));
      }
    }
    m.key_metadata = GetBytes(root, v, 519, "key_metadata");
    m.first_row_id = GetLong(root, v, 520, "first_row_id");
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace floe::iceberg
