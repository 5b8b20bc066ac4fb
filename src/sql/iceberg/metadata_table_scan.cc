#include "sql/iceberg/metadata_table_scan.h"

#include <atomic>
#include <functional>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "base/civil_date.h"
#include "iceberg/literal.h"
#include "sql/iceberg/iceberg_types.h"
#include "sql/binder/metadata_tables.h"

namespace floe::sql::iceberg_sql {
namespace {

using formats::ColumnBatch;
using formats::ColumnVector;
using BT = formats::TypeId;

// Appends a primitive SQL value to a vector of its batch type.
void AppendValue(ColumnVector& v, const Value& value) {
  if (value.is_null()) {
    v.AppendNull();
    return;
  }
  switch (v.type().id) {
    case BT::kBoolean: v.Append<uint8_t>(value.as_bool() ? 1 : 0); break;
    case BT::kInt32:
    case BT::kDate: v.Append<int32_t>(static_cast<int32_t>(value.as_int())); break;
    case BT::kInt64:
    case BT::kTime:
    case BT::kTimestamp:
    case BT::kTimestampTz:
    case BT::kTimestampNs:
    case BT::kTimestampTzNs: v.Append<int64_t>(value.as_int()); break;
    case BT::kFloat: v.Append<float>(static_cast<float>(value.as_double())); break;
    case BT::kDouble: v.Append<double>(value.as_double()); break;
    case BT::kDecimal: v.Append<__int128>(value.as_decimal()); break;
    case BT::kString:
    case BT::kBinary: v.AppendString(value.as_string()); break;
    case BT::kUuid: {
      auto bytes = iceberg::CastLiteral(iceberg::Literal::String(value.as_string()), *iceberg::Type::Primitive(iceberg::TypeId::kUuid));
      std::string b = bytes ? bytes->as_bytes() : std::string(16, '\0');
      b.resize(16, '\0');
      v.MarkAndAppendFixed(b);
      break;
    }
    default: v.AppendNull(); break;
  }
}

void AppendInt(ColumnVector& v, std::optional<int64_t> x) {
  if (!x) {
    v.AppendNull();
  } else if (v.type().id == BT::kInt32) {
    v.Append<int32_t>(static_cast<int32_t>(*x));
  } else {
    v.Append<int64_t>(*x);
  }
}

void AppendText(ColumnVector& v, const std::optional<std::string>& s) {
  if (s) {
    v.AppendString(*s);
  } else {
    v.AppendNull();
  }
}

// A literal in the readable form Trino shows bounds in.
std::string LiteralText(const iceberg::Type& type, const iceberg::Literal& l) {
  nlohmann::json j = iceberg::ToJsonValue(type, l);
  return j.is_string() ? j.get<std::string>() : j.dump();
}

std::optional<std::string> BoundText(const iceberg::Type& type, const std::optional<std::string>& bytes) {
  if (!bytes) return std::nullopt;
  auto l = iceberg::FromBinary(type, *bytes);
  if (!l) return std::nullopt;
  return LiteralText(type, *l);
}

template <typename V>
void AppendIntMap(ColumnVector& v, const std::map<int32_t, V>& m, const std::function<void(ColumnVector&, const V&)>& value) {
  for (const auto& [k, x] : m) {
    v.children[0].Append<int32_t>(k);
    value(v.children[1], x);
  }
  v.AppendListEnd();
}

// The start of a temporal partition value's range in the source type (Trino shows the
// partition of hour(ts) as a timestamp).
Value PartitionValue(const iceberg::PartitionField& pf, const iceberg::Type& source, const iceberg::Literal& l,
                     const SqlType& type) {
  if (l.is_null()) return Value::Null(type);
  using K = iceberg::Transform::Kind;
  int64_t v = l.as_long();
  int64_t days = 0;
  switch (pf.transform.kind()) {
    case K::kIdentity: return ValueFor(l, source, type);
    case K::kYear: days = DaysFromCivil({1970 + v, 1, 1}); break;
    case K::kMonth: {
      int64_t y = 1970 + (v >= 0 ? v / 12 : (v - 11) / 12);
      auto m = static_cast<int>(v - (y - 1970) * 12 + 1);
      days = DaysFromCivil({y, m, 1});
      break;
    }
    case K::kDay: days = v; break;
    case K::kHour:
      if (type.kind() == TypeKind::kDate) return Value::Int(type, v >= 0 ? v / 24 : (v - 23) / 24);
      return Value::Int(type, v * 3'600'000'000LL);
    default: return Value::Null(type);
  }
  if (type.kind() == TypeKind::kDate) return Value::Int(type, days);
  return Value::Int(type, days * 86'400'000'000LL);
}

class MaterializedScan final : public TableScan {
 public:
  MaterializedScan(ColumnBatch batch, std::string description)
      : batch_(std::move(batch)), description_(std::move(description)) {}
  size_t split_count() const override { return 1; }
  Status ReadSplit(size_t split, const std::function<Status(ColumnBatch&)>& sink) override {
    if (split != 0) return InvalidArgument("split {} of 1", split);
    ColumnBatch copy = batch_;
    rows_read_ = copy.num_rows;
    return sink(copy);
  }
  ScanStats stats() const override {
    ScanStats s;
    s.rows_read = rows_read_;
    return s;
  }
  std::string Describe() const override { return description_; }

 private:
  ColumnBatch batch_;
  std::string description_;
  std::atomic<int64_t> rows_read_{0};
};

class MetadataRows {
 public:
  MetadataRows(const ResolvedTable& table, const CatalogTable& base, FileCaches& caches, std::vector<TableColumn> columns)
      : table_(table), base_(base), caches_(caches), columns_(std::move(columns)) {
    for (const TableColumn& c : columns_) fields_.push_back({c.name, -1, true, BatchTypeFor(c.type)});
    batch_ = formats::MakeEmptyBatch(fields_);
  }

  ColumnVector& Col(std::string_view name) {
    for (size_t i = 0; i < columns_.size(); ++i) {
      if (columns_[i].name == name) return batch_.columns[i];
    }
    return scratch_;  // Not declared: written nowhere.
  }

  Status Fill(std::string_view kind) {
    const iceberg::TableMetadata& m = table_.metadata();
    if (kind == "snapshots") {
      for (const iceberg::Snapshot& s : m.snapshots) {
        AppendInt(Col("committed_at"), s.timestamp_ms * 1000);
        AppendInt(Col("snapshot_id"), s.snapshot_id);
        AppendInt(Col("parent_id"), s.parent_snapshot_id);
        AppendText(Col("operation"), s.operation().empty() ? std::nullopt : std::optional(s.operation()));
        AppendText(Col("manifest_list"), s.manifest_list.empty() ? std::nullopt : std::optional(s.manifest_list));
        ColumnVector& summary = Col("summary");
        if (!summary.children.empty()) {
          for (const auto& [k, v] : s.summary) {
            summary.children[0].AppendString(k);
            summary.children[1].AppendString(v);
          }
          summary.AppendListEnd();
        }
        ++batch_.num_rows;
      }
    } else if (kind == "history") {
      std::set<int64_t> ancestors;
      for (const iceberg::Snapshot* s = m.CurrentSnapshot(); s;
           s = s->parent_snapshot_id ? m.SnapshotById(*s->parent_snapshot_id) : nullptr) {
        if (!ancestors.insert(s->snapshot_id).second) break;
      }
      for (const iceberg::SnapshotLogEntry& e : m.snapshot_log) {
        const iceberg::Snapshot* s = m.SnapshotById(e.snapshot_id);
        AppendInt(Col("made_current_at"), e.timestamp_ms * 1000);
        AppendInt(Col("snapshot_id"), e.snapshot_id);
        AppendInt(Col("parent_id"), s ? s->parent_snapshot_id : std::nullopt);
        Col("is_current_ancestor").Append<uint8_t>(ancestors.contains(e.snapshot_id) ? 1 : 0);
        ++batch_.num_rows;
      }
    } else if (kind == "refs") {
      std::map<std::string, iceberg::SnapshotRef> refs = m.refs;
      if (!refs.contains("main") && m.current_snapshot_id) refs["main"] = iceberg::SnapshotRef{*m.current_snapshot_id};
      for (const auto& [name, ref] : refs) {
        Col("name").AppendString(name);
        Col("type").AppendString(ref.is_branch ? "BRANCH" : "TAG");
        AppendInt(Col("snapshot_id"), ref.snapshot_id);
        AppendInt(Col("max_reference_age_in_ms"), ref.max_ref_age_ms);
        AppendInt(Col("min_snapshots_to_keep"), ref.min_snapshots_to_keep);
        AppendInt(Col("max_snapshot_age_in_ms"), ref.max_snapshot_age_ms);
        ++batch_.num_rows;
      }
    } else if (kind == "properties") {
      for (const auto& [k, v] : m.properties) {
        Col("key").AppendString(k);
        Col("value").AppendString(v);
        ++batch_.num_rows;
      }
    } else if (kind == "manifests") {
      if (!table_.snapshot) return OkStatus();
      FLOE_ASSIGN_OR_RETURN(auto manifests, CachedManifestList(caches_, table_, *table_.snapshot));
      for (const iceberg::ManifestFile& mf : *manifests) {
        Col("path").AppendString(mf.manifest_path);
        AppendInt(Col("length"), mf.manifest_length);
        AppendInt(Col("partition_spec_id"), mf.partition_spec_id);
        AppendInt(Col("added_snapshot_id"), mf.added_snapshot_id);
        AppendInt(Col("added_data_files_count"), mf.added_files_count);
        AppendInt(Col("added_rows_count"), mf.added_rows_count);
        AppendInt(Col("existing_data_files_count"), mf.existing_files_count);
        AppendInt(Col("existing_rows_count"), mf.existing_rows_count);
        AppendInt(Col("deleted_data_files_count"), mf.deleted_files_count);
        AppendInt(Col("deleted_rows_count"), mf.deleted_rows_count);
        ColumnVector& summaries = Col("partition_summaries");
        if (!summaries.children.empty()) {
          ColumnVector& row = summaries.children[0];
          const iceberg::PartitionSpec* spec = m.SpecById(mf.partition_spec_id);
          iceberg::TypePtr ptype;
          if (spec) {
            auto t = spec->PartitionType(table_.schema);
            if (t) ptype = *t;
          }
          for (size_t i = 0; i < mf.partitions.size(); ++i) {
            const iceberg::PartitionFieldSummary& s = mf.partitions[i];
            row.children[0].Append<uint8_t>(s.contains_null ? 1 : 0);
            if (s.contains_nan) {
              row.children[1].Append<uint8_t>(*s.contains_nan ? 1 : 0);
            } else {
              row.children[1].AppendNull();
            }
            const iceberg::Type* ft = ptype && i < ptype->fields().size() ? ptype->fields()[i].type.get() : nullptr;
            AppendText(row.children[2], ft ? BoundText(*ft, s.lower_bound) : std::nullopt);
            AppendText(row.children[3], ft ? BoundText(*ft, s.upper_bound) : std::nullopt);
            row.AppendStructSlot();
          }
          summaries.AppendListEnd();
        }
        ++batch_.num_rows;
      }
    } else if (kind == "files") {
      FLOE_RETURN_IF_ERROR(ForEachLiveFile([&](const iceberg::DataFile& f) {
        AppendInt(Col("content"), static_cast<int64_t>(f.content));
        Col("file_path").AppendString(f.file_path);
        Col("file_format").AppendString(f.file_format);
        AppendInt(Col("spec_id"), f.spec_id);
        AppendInt(Col("record_count"), f.record_count);
        AppendInt(Col("file_size_in_bytes"), f.file_size_in_bytes);
        std::function<void(ColumnVector&, const int64_t&)> as_long = [](ColumnVector& v, const int64_t& x) { v.Append<int64_t>(x); };
        for (const char* name : {"column_sizes", "value_counts", "null_value_counts", "nan_value_counts"}) {
          ColumnVector& v = Col(name);
          if (v.children.empty()) continue;
          const auto& m2 = std::string_view(name) == "column_sizes"   ? f.column_sizes
                           : std::string_view(name) == "value_counts" ? f.value_counts
                           : std::string_view(name) == "null_value_counts" ? f.null_value_counts
                                                                           : f.nan_value_counts;
          AppendIntMap<int64_t>(v, m2, as_long);
        }
        for (const char* name : {"lower_bounds", "upper_bounds"}) {
          ColumnVector& v = Col(name);
          if (v.children.empty()) continue;
          const auto& bounds = std::string_view(name) == "lower_bounds" ? f.lower_bounds : f.upper_bounds;
          for (const auto& [id, bytes] : bounds) {
            v.children[0].Append<int32_t>(id);
            const iceberg::NestedField* field = table_.schema.FindField(id);
            AppendText(v.children[1], field && field->type->is_primitive() ? BoundText(*field->type, bytes) : std::nullopt);
          }
          v.AppendListEnd();
        }
        ColumnVector& key = Col("key_metadata");
        if (f.key_metadata) {
          key.AppendString(*f.key_metadata);
        } else {
          key.AppendNull();
        }
        ColumnVector& splits = Col("split_offsets");
        if (!splits.children.empty()) {
          for (int64_t o : f.split_offsets) splits.children[0].Append<int64_t>(o);
          splits.AppendListEnd(!f.split_offsets.empty());
        }
        ColumnVector& eq = Col("equality_ids");
        if (!eq.children.empty()) {
          for (int32_t id : f.equality_ids) eq.children[0].Append<int32_t>(id);
          eq.AppendListEnd(!f.equality_ids.empty());
        }
        ++batch_.num_rows;
      }));
    } else if (kind == "partitions") {
      FLOE_RETURN_IF_ERROR(FillPartitions());
    } else {
      return NotFound("no metadata table ${}", kind);
    }
    return OkStatus();
  }

  ColumnBatch Project(const std::vector<int>& indexes) {
    ColumnBatch out;
    out.num_rows = batch_.num_rows;
    for (int i : indexes) {
      out.fields.push_back(batch_.fields[static_cast<size_t>(i)]);
      out.columns.push_back(batch_.columns[static_cast<size_t>(i)]);
    }
    return out;
  }

 private:
  Status ForEachLiveFile(const std::function<void(const iceberg::DataFile&)>& fn) {
    if (!table_.snapshot) return OkStatus();
    FLOE_ASSIGN_OR_RETURN(auto manifests, CachedManifestList(caches_, table_, *table_.snapshot));
    for (const iceberg::ManifestFile& mf : *manifests) {
      FLOE_ASSIGN_OR_RETURN(auto entries, CachedManifest(caches_, table_, mf));
      for (const iceberg::ManifestEntry& e : *entries) {
        if (e.status != iceberg::EntryStatus::kDeleted) fn(e.data_file);
      }
    }
    return OkStatus();
  }

  Status FillPartitions() {
    const iceberg::TableMetadata& m = table_.metadata();
    struct Group {
      std::vector<Value> partition;
      int64_t records = 0, files = 0, size = 0;
      std::map<int32_t, iceberg::Literal> min, max;
      std::set<int32_t> unknown_min, unknown_max, unknown_nulls;
      std::map<int32_t, int64_t> nulls;
    };
    // Partition row fields (declared by the binder) by source column.
    std::vector<const TableColumn*> part_columns;
    for (const std::string& name : base_.partition_columns) {
      for (const TableColumn& c : base_.columns) {
        if (c.name == name) part_columns.push_back(&c);
      }
    }
    std::vector<const TableColumn*> data_columns;
    for (const TableColumn& c : base_.columns) {
      if (!c.type.IsNested()) data_columns.push_back(&c);
    }
    std::map<std::string, Group> groups;
    FLOE_RETURN_IF_ERROR(ForEachLiveFile([&](const iceberg::DataFile& f) {
      if (f.content != iceberg::FileContent::kData) return;
      const iceberg::PartitionSpec* spec = m.SpecById(f.spec_id);
      std::vector<Value> key;
      std::string key_text;
      for (const TableColumn* c : part_columns) {
        Value v = Value::Null(c->type);
        if (spec) {
          for (size_t p = 0; p < spec->fields().size() && p < f.partition.size(); ++p) {
            const iceberg::PartitionField& pf = spec->fields()[p];
            const iceberg::NestedField* source = table_.schema.FindField(pf.source_id);
            if (source && source->id == c->field_id) v = PartitionValue(pf, *source->type, f.partition[p], c->type);
          }
        }
        key_text += v.ToSql() + "\x1f";
        key.push_back(std::move(v));
      }
      Group& g = groups[key_text];
      g.partition = std::move(key);
      g.records += f.record_count;
      ++g.files;
      g.size += f.file_size_in_bytes;
      for (const TableColumn* c : data_columns) {
        const iceberg::NestedField* field = table_.schema.FindField(c->field_id);
        if (!field) continue;
        auto merge = [&](const std::map<int32_t, std::string>& bounds, std::map<int32_t, iceberg::Literal>& into,
                         std::set<int32_t>& unknown, bool lower) {
          auto it = bounds.find(c->field_id);
          auto l = it == bounds.end() ? Result<iceberg::Literal>(NotFound("no bound"))
                                      : iceberg::FromBinary(*field->type, it->second);
          if (!l) {
            unknown.insert(c->field_id);  // Unknown in one file: unknown for the partition.
            return;
          }
          auto cur = into.find(c->field_id);
          if (cur == into.end()) {
            into.emplace(c->field_id, *l);
          } else if (lower ? *l < cur->second : *l > cur->second) {
            cur->second = *l;
          }
        };
        merge(f.lower_bounds, g.min, g.unknown_min, true);
        merge(f.upper_bounds, g.max, g.unknown_max, false);
        auto n = f.null_value_counts.find(c->field_id);
        if (n == f.null_value_counts.end()) {
          g.unknown_nulls.insert(c->field_id);
        } else {
          g.nulls[c->field_id] += n->second;
        }
      }
    }));
    for (auto& [key, g] : groups) {
      ColumnVector& partition = Col("partition");
      if (partition.type().id == BT::kStruct) {
        for (size_t i = 0; i < g.partition.size() && i < partition.children.size(); ++i) AppendValue(partition.children[i], g.partition[i]);
        partition.AppendStructSlot();
      }
      AppendInt(Col("record_count"), g.records);
      AppendInt(Col("file_count"), g.files);
      AppendInt(Col("total_size"), g.size);
      ColumnVector& data = Col("data");
      if (data.type().id == BT::kStruct) {
        for (size_t i = 0; i < data_columns.size() && i < data.children.size(); ++i) {
          const TableColumn* c = data_columns[i];
          const iceberg::NestedField* field = table_.schema.FindField(c->field_id);
          ColumnVector& stats = data.children[i];
          auto bound = [&](const std::map<int32_t, iceberg::Literal>& from, const std::set<int32_t>& unknown) {
            auto it = from.find(c->field_id);
            if (it == from.end() || unknown.contains(c->field_id) || !field) return Value::Null(c->type);
            return ValueFor(it->second, *field->type, c->type);
          };
          AppendValue(stats.children[0], bound(g.min, g.unknown_min));
          AppendValue(stats.children[1], bound(g.max, g.unknown_max));
          AppendInt(stats.children[2], g.unknown_nulls.contains(c->field_id) ? std::nullopt : std::optional<int64_t>(g.nulls[c->field_id]));
          stats.AppendStructSlot();
        }
        data.AppendStructSlot();
      }
      ++batch_.num_rows;
    }
    return OkStatus();
  }

  const ResolvedTable& table_;
  const CatalogTable& base_;
  FileCaches& caches_;
  std::vector<TableColumn> columns_;
  std::vector<formats::Field> fields_;
  ColumnBatch batch_;
  ColumnVector scratch_{formats::Primitive(BT::kInt64)};
};

}  // namespace

Result<std::unique_ptr<TableScan>> PlanMetadataScan(std::shared_ptr<const ResolvedTable> table, const ScanRequest& request,
                                                    std::shared_ptr<FileCaches> caches) {
  auto columns = MetadataTableColumns(request.metadata_table, *request.table);
  if (!columns) return NotFound("no metadata table ${}", request.metadata_table);
  for (int i : request.columns) {
    if (i < 0 || static_cast<size_t>(i) >= columns->size()) return InvalidArgument("metadata column {} of {}", i, columns->size());
  }
  MetadataRows rows(*table, *request.table, *caches, *columns);
  FLOE_RETURN_IF_ERROR(rows.Fill(request.metadata_table));
  return std::unique_ptr<TableScan>(
      std::make_unique<MaterializedScan>(rows.Project(request.columns), fmt::format("metadata table ${}", request.metadata_table)));
}

}  // namespace floe::sql::iceberg_sql
