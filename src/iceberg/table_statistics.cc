#include "iceberg/table_statistics.h"

#include <cmath>
#include <cstring>
#include <set>

#include "base/bytes.h"
#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/literal.h"
#include "iceberg/puffin.h"
#include "iceberg/scan.h"
#include "iceberg/table_operations.h"
#include "iceberg/theta_sketch.h"

namespace floe::iceberg {
namespace {

using formats::ColumnVector;

// Slot `row` (not null) of `vector` in the single-value binary form of `type` (Appendix D),
// which is what a sketch hashes. The common types are written straight from the vector's
// buffer; the rest go through a literal.
void ValueBytes(const ColumnVector& vector, int64_t row, const Type& type, std::string& out) {
  out.clear();
  const formats::TypeId stored = vector.type().id;
  ByteWriter writer(&out);
  auto integer = [&]() -> int64_t {
    return stored == formats::TypeId::kInt32 || stored == formats::TypeId::kDate ? vector.Data<int32_t>()[row]
                                                                                 : vector.Data<int64_t>()[row];
  };
  switch (type.id()) {
    case TypeId::kInt:
    case TypeId::kDate:
      writer.AppendLittle<int32_t>(static_cast<int32_t>(integer()));
      return;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      writer.AppendLittle<int64_t>(integer());
      return;
    case TypeId::kString:
    case TypeId::kBinary:
      if (stored == formats::TypeId::kString || stored == formats::TypeId::kBinary) {
        out.assign(vector.StringAt(row));
        return;
      }
      break;
    case TypeId::kDecimal:
      if (stored == formats::TypeId::kDecimal) {
        __int128 unscaled;
        std::memcpy(&unscaled, vector.values.data() + static_cast<size_t>(row) * 16, 16);
        out = DecimalToMinimalBytes(unscaled);
        return;
      }
      break;
    default: break;
  }
  out = ToBinary(type, LiteralAt(vector, row, type));
}

struct ColumnSketch {
  int32_t field_id = 0;
  TypePtr type;
  ThetaSketch sketch;
};

// The sketches of the schema's primitive top-level columns.
std::vector<ColumnSketch> EmptySketches(const Schema& schema) {
  std::vector<ColumnSketch> out;
  for (const NestedField& f : schema.fields()) {
    if (f.type->is_primitive() && f.type->id() != TypeId::kVariant && f.type->id() != TypeId::kUnknown) {
      out.push_back(ColumnSketch{f.id, f.type, ThetaSketch()});
    }
  }
  return out;
}

Status AddBatch(const Schema& schema, const formats::ColumnBatch& batch, const std::vector<int>& columns,
                std::vector<ColumnSketch>& sketches) {
  std::string bytes;
  for (ColumnSketch& s : sketches) {
    int position = -1;
    for (size_t i = 0; i < schema.fields().size(); ++i) {
      if (schema.fields()[i].id == s.field_id) position = columns[i];
    }
    if (position < 0) continue;  // A file older than the column: nulls only.
    const ColumnVector& vector = batch.columns[static_cast<size_t>(position)];
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      if (!vector.IsValid(r)) continue;
      ValueBytes(vector, r, *s.type, bytes);
      s.sketch.Update(bytes);
    }
  }
  return OkStatus();
}

// The statistics entry of `snapshot_id` in the metadata, or null.
const nlohmann::json* StatisticsOf(const TableMetadata& metadata, int64_t snapshot_id) {
  for (const auto& entry : metadata.statistics) {
    if (entry.is_object() && entry.value("snapshot-id", int64_t{-1}) == snapshot_id) return &entry;
  }
  return nullptr;
}

// The nearest snapshot from the current one back (the current included) that has a statistics
// file, and the snapshots after it, newest first.
const Snapshot* NearestWithStatistics(const TableMetadata& metadata, std::vector<const Snapshot*>* since) {
  std::set<int64_t> seen;  // A corrupt parent chain must not loop.
  for (const Snapshot* s = metadata.CurrentSnapshot(); s != nullptr && seen.insert(s->snapshot_id).second;
       s = s->parent_snapshot_id ? metadata.SnapshotById(*s->parent_snapshot_id) : nullptr) {
    if (StatisticsOf(metadata, s->snapshot_id) != nullptr) return s;
    if (since != nullptr) since->push_back(s);
  }
  return nullptr;
}

// The stored sketches of a statistics file, by field id (absent fields are rebuilt in full).
Result<std::map<int32_t, ThetaSketch>> ReadSketches(Table& table, const nlohmann::json& entry) {
  std::string path = entry.value("statistics-path", std::string());
  FLOE_ASSIGN_OR_RETURN(std::string bytes, table.ReadLocation(path));
  FLOE_ASSIGN_OR_RETURN(std::vector<PuffinBlob> blobs, ReadPuffin(bytes, path));
  std::map<int32_t, ThetaSketch> out;
  for (const PuffinBlob& blob : blobs) {
    if (blob.type != kThetaSketchBlobType || blob.fields.size() != 1) continue;
    FLOE_ASSIGN_OR_RETURN(ThetaSketch sketch, ThetaSketch::Deserialize(blob.data, path));
    out.emplace(blob.fields[0], std::move(sketch));
  }
  return out;
}

// The data files `snapshot` added.
Result<std::vector<DataFile>> AddedDataFiles(Table& table, const Snapshot& snapshot) {
  std::vector<DataFile> out;
  FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, table.Manifests(snapshot));
  for (const ManifestFile& m : manifests) {
    if (m.content != ManifestContent::kData || m.added_snapshot_id != snapshot.snapshot_id) continue;
    FLOE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries, table.ReadEntries(m));
    for (const ManifestEntry& e : entries) {
      if (e.status == EntryStatus::kAdded && e.snapshot_id.value_or(snapshot.snapshot_id) == snapshot.snapshot_id) {
        out.push_back(e.data_file);
      }
    }
  }
  return out;
}

}  // namespace

Result<TableStatisticsResult> UpdateTableStatistics(Table& table, bool full) {
  FLOE_RETURN_IF_ERROR(table.Refresh());
  const TableMetadata& metadata = table.metadata();
  TableStatisticsResult result;
  const Snapshot* current = metadata.CurrentSnapshot();
  if (current == nullptr) return result;
  result.snapshot_id = current->snapshot_id;
  const Schema& schema = metadata.CurrentSchema();
  std::vector<ColumnSketch> sketches = EmptySketches(schema);

  std::vector<const Snapshot*> since;
  const Snapshot* base = full ? nullptr : NearestWithStatistics(metadata, &since);
  bool incremental = base != nullptr;
  for (const Snapshot* s : since) {
    std::string op = s->operation();
    incremental &= op == "append" || op == "replace";
  }
  if (incremental && since.empty()) {
    // Already up to date: report what the file says.
    result.up_to_date = true;
    result.path = StatisticsOf(metadata, base->snapshot_id)->value("statistics-path", std::string());
    result.ndv = DistinctCounts(metadata);
    return result;
  }
  if (incremental) {
    FLOE_ASSIGN_OR_RETURN(auto previous, ReadSketches(table, *StatisticsOf(metadata, base->snapshot_id)));
    for (ColumnSketch& s : sketches) {
      auto it = previous.find(s.field_id);
      if (it == previous.end()) {
        incremental = false;  // A column the file lacks (added since): read everything.
        break;
      }
      s.sketch.Merge(it->second);
    }
  }
  auto read = [&](const FileScanTask& task) -> Status {
    ++result.files_read;
    return ReadTask(table, task, schema, [&](const formats::ColumnBatch& batch, const std::vector<int>& columns) -> Status {
      result.rows_read += batch.num_rows;
      return AddBatch(schema, batch, columns, sketches);
    });
  };
  if (incremental) {
    for (const Snapshot* s : since) {
      if (s->operation() != "append") continue;
      FLOE_ASSIGN_OR_RETURN(std::vector<DataFile> files, AddedDataFiles(table, *s));
      for (DataFile& f : files) {
        FileScanTask task;
        task.file = std::move(f);
        task.data_sequence_number = s->sequence_number;
        FLOE_RETURN_IF_ERROR(read(task));
      }
    }
  } else {
    sketches = EmptySketches(schema);
    ScanOptions all;
    all.snapshot_id = current->snapshot_id;
    FLOE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(table, all));
    for (const FileScanTask& task : plan.tasks) FLOE_RETURN_IF_ERROR(read(task));
  }
  result.incremental = incremental;

  std::vector<PuffinBlob> blobs;
  nlohmann::json blob_metadata = nlohmann::json::array();
  for (ColumnSketch& s : sketches) {
    PuffinBlob blob;
    blob.type = std::string(kThetaSketchBlobType);
    blob.fields = {s.field_id};
    blob.snapshot_id = current->snapshot_id;
    blob.sequence_number = current->sequence_number;
    const auto ndv = static_cast<int64_t>(std::llround(s.sketch.Estimate()));
    blob.properties["ndv"] = std::to_string(ndv);
    blob.data = s.sketch.Serialize();
    result.ndv[s.field_id] = ndv;
    blob_metadata.push_back({{"type", blob.type},
                             {"snapshot-id", blob.snapshot_id},
                             {"sequence-number", blob.sequence_number},
                             {"fields", blob.fields},
                             {"properties", blob.properties}});
    blobs.push_back(std::move(blob));
  }
  PuffinFile file = WritePuffin(blobs, "floe");
  result.path = table.ops().NewLocation(fmt::format("metadata/{}-{}.stats", current->snapshot_id, NewUuid()));
  FLOE_RETURN_IF_ERROR(table.WriteLocation(result.path, file.bytes));
  nlohmann::json entry = {{"snapshot-id", current->snapshot_id},
                          {"statistics-path", result.path},
                          {"file-size-in-bytes", static_cast<int64_t>(file.bytes.size())},
                          {"file-footer-size-in-bytes", file.footer_size},
                          {"blob-metadata", std::move(blob_metadata)}};
  FLOE_RETURN_IF_ERROR(table.SetStatistics(entry));
  return result;
}

std::map<int32_t, int64_t> DistinctCounts(const TableMetadata& metadata) {
  std::map<int32_t, int64_t> out;
  const Snapshot* nearest = NearestWithStatistics(metadata, nullptr);
  if (nearest == nullptr) return out;
  const nlohmann::json& entry = *StatisticsOf(metadata, nearest->snapshot_id);
  auto blobs = entry.find("blob-metadata");
  if (blobs == entry.end() || !blobs->is_array()) return out;
  for (const auto& blob : *blobs) {
    if (!blob.is_object() || blob.value("type", std::string()) != kThetaSketchBlobType) continue;
    auto fields = blob.find("fields");
    auto properties = blob.find("properties");
    if (fields == blob.end() || !fields->is_array() || fields->size() != 1 || !(*fields)[0].is_number_integer()) continue;
    if (properties == blob.end() || !properties->is_object()) continue;
    auto ndv = properties->find("ndv");
    if (ndv == properties->end() || !ndv->is_string()) continue;
    char* end = nullptr;
    const std::string& text = ndv->get_ref<const std::string&>();
    long long value = std::strtoll(text.c_str(), &end, 10);
    if (end == text.c_str() || *end != '\0' || value < 0) continue;  // Not a count: ignored, as a hint.
    out[(*fields)[0].get<int32_t>()] = value;
  }
  return out;
}

}  // namespace floe::iceberg
