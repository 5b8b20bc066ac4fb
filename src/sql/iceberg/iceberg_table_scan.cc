#include "sql/iceberg/iceberg_table_scan.h"

#include <atomic>
#include <map>
#include <mutex>
#include <set>

#include "iceberg/data_files.h"
#include "iceberg/evaluators.h"
#include "iceberg/row_lineage.h"
#include "iceberg/table.h"
#include "sql/iceberg/iceberg_types.h"
#include "sql/iceberg/metadata_columns.h"
#include "sql/iceberg/scan_columns.h"
#include "sql/iceberg/scan_filter.h"

namespace floe::sql::iceberg_sql {
namespace {

using formats::ColumnBatch;
using formats::ColumnVector;

struct ScanOutputColumn {
  int32_t field_id = 0;
  std::string name;
  iceberg::TypePtr type;  // Null for a metadata column.
  formats::DataType batch_type;
  std::optional<MetadataColumn> metadata;  // Set for a metadata column ("$path", _pos, ...).
};

// The value a metadata column has on every row of `task`'s file, for those that have one.
iceberg::Literal FileConstant(MetadataColumn column, const iceberg::FileScanTask& task) {
  switch (column) {
    case MetadataColumn::kFilePath:
      return iceberg::Literal::String(task.file.file_path);
    case MetadataColumn::kSpecId:
      return iceberg::Literal::Int(task.file.spec_id);
    default:
      return iceberg::Literal();
  }
}

struct Split {
  size_t task = 0;
  int row_group = -1;  // -1: every row group of the file.
};

struct Plan {
  std::vector<iceberg::FileScanTask> tasks;
  std::vector<Split> splits;
  int64_t files_total = 0;
  int manifests_total = 0;
  int manifests_read = 0;
  int64_t pruned_by_partition = 0;
  int64_t pruned_by_metrics = 0;
  int64_t delete_files = 0;  // Distinct delete files applying to some task.
};

Result<Plan> PlanFiles(const ResolvedTable& table, const iceberg::ExprPtr& filter, FileCaches& caches) {
  Plan plan;
  if (!table.snapshot) return plan;
  const iceberg::TableMetadata& m = table.metadata();
  FLOE_ASSIGN_OR_RETURN(auto manifests, CachedManifestList(caches, table, *table.snapshot));
  plan.manifests_total = static_cast<int>(manifests->size());
  struct SpecContext {
    iceberg::ExprPtr projected;
    iceberg::TypePtr partition_type;
  };
  std::map<int32_t, SpecContext> specs;
  auto context_for = [&](int32_t spec_id) -> Result<const SpecContext*> {
    auto it = specs.find(spec_id);
    if (it != specs.end()) return &it->second;
    const iceberg::PartitionSpec* spec = m.SpecById(spec_id);
    if (!spec) return Corruption("a manifest uses unknown partition spec {}", spec_id);
    SpecContext c;
    c.projected = iceberg::ProjectInclusive(filter, *spec, table.schema);
    FLOE_ASSIGN_OR_RETURN(c.partition_type, spec->PartitionType(table.schema));
    return &specs.emplace(spec_id, std::move(c)).first->second;
  };
  std::vector<std::pair<const iceberg::DataFile*, int64_t>> deletes;
  std::vector<std::shared_ptr<const std::vector<iceberg::ManifestEntry>>> keep_alive;
  for (const iceberg::ManifestFile& mf : *manifests) {
    FLOE_ASSIGN_OR_RETURN(const SpecContext* ctx, context_for(mf.partition_spec_id));
    if (mf.content == iceberg::ManifestContent::kData) {
      int64_t live = mf.added_files_count.value_or(0) + mf.existing_files_count.value_or(0);
      if (!iceberg::ManifestMightMatch(ctx->projected, mf, *ctx->partition_type)) {
        plan.files_total += live;
        plan.pruned_by_partition += live;  // The whole manifest is skipped unread.
        continue;
      }
    } else if (!iceberg::ManifestMightMatch(ctx->projected, mf, *ctx->partition_type)) {
      continue;
    }
    ++plan.manifests_read;
    FLOE_ASSIGN_OR_RETURN(auto entries, CachedManifest(caches, table, mf));
    keep_alive.push_back(entries);
    const iceberg::PartitionSpec& spec = *m.SpecById(mf.partition_spec_id);
    for (const iceberg::ManifestEntry& e : *entries) {
      if (e.status == iceberg::EntryStatus::kDeleted) continue;
      const iceberg::DataFile& file = e.data_file;
      if (file.content == iceberg::FileContent::kData) ++plan.files_total;
      if (!iceberg::PartitionMatches(ctx->projected, file.partition, *ctx->partition_type)) {
        if (file.content == iceberg::FileContent::kData) ++plan.pruned_by_partition;
        continue;
      }
      if (file.content != iceberg::FileContent::kData) {
        if (file.content == iceberg::FileContent::kEqualityDeletes || iceberg::FileMightMatch(filter, file, table.schema)) {
          deletes.emplace_back(&file, e.sequence_number.value_or(0));
        }
        continue;
      }
      if (!iceberg::FileMightMatch(filter, file, table.schema)) {
        ++plan.pruned_by_metrics;
        continue;
      }
      iceberg::FileScanTask task;
      task.residual = iceberg::Residual(filter, spec, file.partition);
      task.data_sequence_number = e.sequence_number.value_or(0);
      task.file = file;
      plan.tasks.push_back(std::move(task));
    }
  }
  // Scope of deletes (format/spec.md, "Scan Planning"): position deletes apply to data files
  // with sequence number <= theirs (and the named file only, when they name one); equality
  // deletes to data files with a smaller sequence number in the same partition, or everywhere
  // when their spec is unpartitioned.
  for (iceberg::FileScanTask& task : plan.tasks) {
    for (const auto& [del, seq] : deletes) {
      bool applies = false;
      if (del->content == iceberg::FileContent::kPositionDeletes) {
        applies = task.data_sequence_number <= seq &&
                  (!del->referenced_data_file || *del->referenced_data_file == task.file.file_path);
      } else {
        const iceberg::PartitionSpec* dspec = m.SpecById(del->spec_id);
        bool global = dspec && dspec->is_unpartitioned();
        applies = task.data_sequence_number < seq &&
                  (global || (del->spec_id == task.file.spec_id && del->partition == task.file.partition));
      }
      if (applies) {
        task.deletes.push_back(*del);
        task.delete_sequence_numbers.push_back(seq);
      }
    }
  }
  std::set<std::string> applied;
  for (const iceberg::FileScanTask& task : plan.tasks) {
    for (const iceberg::DataFile& d : task.deletes) applied.insert(d.file_path);
  }
  plan.delete_files = static_cast<int64_t>(applied.size());
  for (size_t i = 0; i < plan.tasks.size(); ++i) {
    const iceberg::FileScanTask& t = plan.tasks[i];
    if (t.deletes.empty() && t.file.split_offsets.size() > 1) {
      for (size_t rg = 0; rg < t.file.split_offsets.size(); ++rg) plan.splits.push_back({i, static_cast<int>(rg)});
    } else {
      plan.splits.push_back({i, -1});
    }
  }
  return plan;
}

class IcebergTableScan final : public TableScan {
 public:
  IcebergTableScan(std::shared_ptr<const ResolvedTable> table, std::shared_ptr<FileCaches> caches,
                   std::vector<ScanOutputColumn> columns, std::vector<FieldPredicate> predicates, Plan plan,
                   bool has_predicate)
      : table_(std::move(table)),
        caches_(std::move(caches)),
        columns_(std::move(columns)),
        predicates_(std::move(predicates)),
        plan_(std::move(plan)),
        has_predicate_(has_predicate),
        file_touched_(plan_.tasks.size()) {
    for (const ScanOutputColumn& c : columns_) {
      fields_.push_back({c.name, c.field_id, true, c.batch_type});
      by_position_ = by_position_ || (c.metadata && DependsOnPosition(*c.metadata));
    }
    // Positions count every row of a file: such a scan reads whole files, in order.
    if (by_position_) {
      plan_.splits.clear();
      for (size_t i = 0; i < plan_.tasks.size(); ++i) plan_.splits.push_back({i, -1});
    }
  }

  size_t split_count() const override { return plan_.splits.size(); }

  Status ReadSplit(size_t index, const std::function<Status(ColumnBatch&)>& sink) override {
    if (index >= plan_.splits.size()) return InvalidArgument("split {} of {}", index, plan_.splits.size());
    const Split& split = plan_.splits[index];
    const iceberg::FileScanTask& task = plan_.tasks[split.task];
    if (!file_touched_[split.task].exchange(true)) files_read_.fetch_add(1);
    if (!task.deletes.empty() || by_position_) return ReadWholeFile(task, sink);
    const std::string& format = task.file.file_format;
    if (format != "PARQUET" && format != "parquet") {
      return NotImplemented("{}: {} data files are not supported", task.file.file_path, format);
    }
    // count(*) without a predicate needs no data: the manifest has the row count.
    if (columns_.empty() && !has_predicate_ && split.row_group < 0) {
      row_groups_total_.fetch_add(1);
      row_groups_read_.fetch_add(1);
      return EmitCount(task.file.record_count, sink);
    }
    FLOE_ASSIGN_OR_RETURN_CTX(auto reader, CachedFooter(*caches_, *table_->ops, task.file.file_path), task.file.file_path);
    std::vector<formats::Field> file_fields = reader->schema().BatchFields();
    bool file_has_ids = false;
    for (const formats::Field& f : file_fields) file_has_ids = file_has_ids || f.id >= 0;
    auto file_field_of = [&](int32_t field_id, const std::string& name) {
      for (size_t i = 0; i < file_fields.size(); ++i) {
        if (file_has_ids ? file_fields[i].id == field_id : file_fields[i].name == name) return static_cast<int>(i);
      }
      return -1;
    };
    // Which file column feeds each output column; constants for the others.
    std::vector<int> projection;
    std::vector<int> source(columns_.size(), -1);  // Index into the projected batch, or -1.
    const std::vector<iceberg::Literal> constants = FileConstants(task);
    for (size_t c = 0; c < columns_.size(); ++c) {
      if (columns_[c].metadata) continue;
      int f = file_field_of(columns_[c].field_id, columns_[c].name);
      if (f < 0) continue;
      auto it = std::find(projection.begin(), projection.end(), f);
      source[c] = static_cast<int>(it - projection.begin());
      if (it == projection.end()) projection.push_back(f);
    }
    // Row groups: the split's, then those whose statistics may match.
    std::vector<parquet::ColumnPredicate> predicates;
    for (const FieldPredicate& fp : predicates_) {
      for (const formats::Field& f : file_fields) {
        if (file_has_ids ? f.id == fp.field_id : f.name == table_->schema.FindColumnName(fp.field_id)) {
          parquet::ColumnPredicate p = fp.predicate;
          p.column = f.name;
          predicates.push_back(std::move(p));
        }
      }
    }
    std::vector<int> groups = reader->SelectRowGroups(predicates);
    int total = reader->num_row_groups();
    if (split.row_group >= 0) {
      bool matches_file = static_cast<size_t>(total) == task.file.split_offsets.size();
      // When the recorded split offsets disagree with the footer, split 0 reads the file.
      std::vector<int> mine;
      for (int g : groups) {
        if (matches_file ? g == split.row_group : split.row_group == 0) mine.push_back(g);
      }
      groups = std::move(mine);
      total = matches_file || split.row_group == 0 ? (matches_file ? 1 : total) : 0;
    }
    row_groups_total_.fetch_add(total);
    for (int g : groups) {
      const parquet::RowGroup& rg = reader->metadata().row_groups[static_cast<size_t>(g)];
      // Pages: the page index of the predicates' columns narrows the row group to row ranges.
      std::vector<parquet::RowRange> ranges{parquet::RowRange{0, rg.num_rows}};
      if (!predicates.empty() && !projection.empty()) {
        FLOE_ASSIGN_OR_RETURN(ranges, reader->SelectRows(g, predicates));
        if (ranges.empty()) continue;
      }
      row_groups_read_.fetch_add(1);
      int64_t bytes = 0;
      for (int f : projection) {
        const parquet::SchemaNode& node = reader->schema().fields()[static_cast<size_t>(f)];
        if (node.kind == parquet::SchemaNode::Kind::kPrimitive && node.leaf >= 0 &&
            static_cast<size_t>(node.leaf) < rg.columns.size() && rg.columns[static_cast<size_t>(node.leaf)].meta_data) {
          bytes += rg.columns[static_cast<size_t>(node.leaf)].meta_data->total_compressed_size;
        }
      }
      bytes_read_.fetch_add(bytes);
      if (projection.empty()) {
        FLOE_RETURN_IF_ERROR(EmitConstants(rg.num_rows, constants, sink));
        continue;
      }
      if (rg.num_rows == 0) continue;
      FLOE_ASSIGN_OR_RETURN_CTX(auto stream, reader->OpenRowGroup(g, projection, std::move(ranges)), task.file.file_path);
      stream->SetFilter(predicates);
      while (true) {
        FLOE_ASSIGN_OR_RETURN_CTX(auto batch, stream->Next(kScanBatchRows), task.file.file_path);
        if (!batch) break;
        FLOE_RETURN_IF_ERROR(EmitProjected(*batch, source, constants, sink));
      }
      pages_read_.fetch_add(stream->pages_decoded());
      pages_total_.fetch_add(stream->pages_decoded() + stream->pages_skipped());
    }
    return OkStatus();
  }

  ScanStats stats() const override {
    ScanStats s;
    s.files_total = plan_.files_total;
    s.files_read = files_read_.load();
    s.row_groups_total = row_groups_total_.load();
    s.row_groups_read = row_groups_read_.load();
    s.pages_total = pages_total_.load();
    s.pages_read = pages_read_.load();
    s.bytes_read = bytes_read_.load();
    s.rows_read = rows_read_.load();
    s.rows_deleted = rows_deleted_.load();
    if (s.rows_deleted > 0 || deletes_touched_.load()) s.delete_files = plan_.delete_files;
    return s;
  }

  std::string Describe() const override {
    std::string text =
        fmt::format("files {} of {} after pruning ({} by partition, {} by column bounds; manifests {} of {}), "
                    "{} splits",
                    plan_.tasks.size(), plan_.files_total, plan_.pruned_by_partition, plan_.pruned_by_metrics,
                    plan_.manifests_read, plan_.manifests_total, plan_.splits.size());
    if (plan_.delete_files > 0) text += fmt::format(", {} delete files apply", plan_.delete_files);
    return text;
  }

 private:
  Status EmitCount(int64_t rows, const std::function<Status(ColumnBatch&)>& sink) {
    for (int64_t done = 0; done < rows;) {
      ColumnBatch b;
      b.num_rows = std::min(kScanBatchRows, rows - done);
      done += b.num_rows;
      rows_read_.fetch_add(b.num_rows);
      FLOE_RETURN_IF_ERROR(sink(b));
    }
    return OkStatus();
  }

  Status EmitConstants(int64_t rows, const std::vector<iceberg::Literal>& constants,
                       const std::function<Status(ColumnBatch&)>& sink) {
    for (int64_t done = 0; done < rows;) {
      ColumnBatch b;
      b.fields = fields_;
      b.num_rows = std::min(kScanBatchRows, rows - done);
      for (size_t c = 0; c < columns_.size(); ++c) b.columns.push_back(ConstantVector(columns_[c].batch_type, constants[c], b.num_rows));
      done += b.num_rows;
      rows_read_.fetch_add(b.num_rows);
      FLOE_RETURN_IF_ERROR(sink(b));
    }
    return OkStatus();
  }

  Status EmitProjected(ColumnBatch& in, const std::vector<int>& source, const std::vector<iceberg::Literal>& constants,
                       const std::function<Status(ColumnBatch&)>& sink) {
    ColumnBatch out;
    out.fields = fields_;
    out.num_rows = in.num_rows;
    std::vector<int> uses(in.columns.size(), 0);
    for (int s : source) {
      if (s >= 0) ++uses[static_cast<size_t>(s)];
    }
    for (size_t c = 0; c < columns_.size(); ++c) {
      int s = source[c];
      if (s < 0) {
        out.columns.push_back(ConstantVector(columns_[c].batch_type, constants[c], in.num_rows));
        continue;
      }
      ColumnVector v = --uses[static_cast<size_t>(s)] == 0 ? std::move(in.columns[static_cast<size_t>(s)])
                                                           : in.columns[static_cast<size_t>(s)];
      FLOE_ASSIGN_OR_RETURN(ColumnVector converted, ConvertVector(std::move(v), columns_[c].batch_type));
      out.columns.push_back(std::move(converted));
    }
    rows_read_.fetch_add(out.num_rows);
    return sink(out);
  }

  // Files with deletes go through iceberg's task reader, which applies them; so do files whose
  // rows' positions the query reads (it hands over every row of the file, in order).
  Status ReadWholeFile(const iceberg::FileScanTask& task, const std::function<Status(ColumnBatch&)>& sink) {
    {
      std::lock_guard lock(table_mutex_);
      if (!table_object_) {
        FLOE_ASSIGN_OR_RETURN(table_object_, iceberg::Table::Load(table_->ops));
      }
    }
    row_groups_total_.fetch_add(1);
    row_groups_read_.fetch_add(1);
    bytes_read_.fetch_add(task.file.file_size_in_bytes);
    // Only the columns the query reads, and the equality deletes' key columns.
    std::set<int32_t> needed;
    bool lineage = false;
    for (const ScanOutputColumn& c : columns_) {
      if (!c.metadata) needed.insert(c.field_id);
      lineage =
          lineage || c.metadata == MetadataColumn::kRowId || c.metadata == MetadataColumn::kLastUpdatedSequenceNumber;
    }
    for (const iceberg::DataFile& d : task.deletes) needed.insert(d.equality_ids.begin(), d.equality_ids.end());
    std::vector<iceberg::NestedField> fields;
    for (const iceberg::NestedField& f : table_->schema.fields()) {
      if (needed.erase(f.id) > 0) fields.push_back(f);
    }
    // A nested column reads through the whole schema.
    const iceberg::Schema data_schema =
        needed.empty() ? iceberg::Schema(table_->schema.schema_id(), std::move(fields)) : table_->schema;
    // Row lineage also reads the values a file stores (files rewritten by compaction keep them).
    const size_t data_fields = data_schema.fields().size();
    const iceberg::Schema schema = lineage ? iceberg::WithRowLineageFields(data_schema) : data_schema;
    std::vector<int> schema_index(columns_.size(), -1);
    for (size_t c = 0; c < columns_.size(); ++c) {
      if (columns_[c].metadata) continue;
      for (size_t i = 0; i < data_fields; ++i) {
        if (schema.fields()[i].id == columns_[c].field_id) schema_index[c] = static_cast<int>(i);
      }
    }
    const std::vector<iceberg::Literal> constants = FileConstants(task);
    deletes_touched_.store(true);
    int64_t kept = 0;
    int64_t position = 0;  // Of the batch's first row in the file.
    std::vector<uint32_t> kept_rows;
    Status read = iceberg::ReadTaskRows(
        *table_object_, task, schema,
        [&](ColumnBatch& b, const std::vector<int>& cols, const std::vector<uint8_t>& deleted) -> Status {
          // The rows the deletes keep, gathered from the columns the query reads only (the
          // equality key columns are read for the deletes, not copied).
          kept_rows.clear();
          for (size_t r = 0; r < deleted.size(); ++r) {
            if (!deleted[r]) kept_rows.push_back(static_cast<uint32_t>(r));
          }
          const bool keeps_all = deleted.empty() || kept_rows.size() == deleted.size();
          ColumnBatch in;
          in.num_rows = keeps_all ? b.num_rows : static_cast<int64_t>(kept_rows.size());
          kept += in.num_rows;
          std::vector<int> source(columns_.size(), -1);
          std::map<int, int> taken;  // Batch column -> its place in `in` (a column read twice is taken once).
          for (size_t c = 0; c < columns_.size(); ++c) {
            int idx = schema_index[c] < 0 ? -1 : cols[static_cast<size_t>(schema_index[c])];
            if (idx < 0) continue;
            auto [it, fresh] = taken.try_emplace(idx, static_cast<int>(in.columns.size()));
            source[c] = it->second;
            if (!fresh) continue;
            ColumnVector& column = b.columns[static_cast<size_t>(idx)];
            in.columns.push_back(keeps_all ? std::move(column) : formats::GatherRows(column, kept_rows.data(), in.num_rows));
          }
          for (size_t c = 0; c < columns_.size(); ++c) {
            if (!columns_[c].metadata || !DependsOnPosition(*columns_[c].metadata)) continue;
            ColumnVector values = PositionalValues(*columns_[c].metadata, task, b, cols, data_fields, position);
            source[c] = static_cast<int>(in.columns.size());
            in.columns.push_back(keeps_all ? std::move(values)
                                           : formats::GatherRows(values, kept_rows.data(), in.num_rows));
          }
          position += b.num_rows;
          return EmitProjected(in, source, constants, sink);
        },
        &equality_deletes_);
    // The whole file is read here, so what its deletes removed is what it holds beyond the kept rows.
    if (read) rows_deleted_.fetch_add(std::max<int64_t>(0, task.file.record_count - kept));
    return read;
  }

  // What each output column is on every row of `task`'s file where the file does not store it:
  // a metadata column's file constant ("$path", _spec_id), an identity-partitioned column's
  // partition value (writers may leave such a column out of the data file, as PyIceberg does),
  // else null.
  std::vector<iceberg::Literal> FileConstants(const iceberg::FileScanTask& task) const {
    std::vector<iceberg::Literal> constants(columns_.size());
    const iceberg::PartitionSpec* spec = table_->metadata().SpecById(task.file.spec_id);
    for (size_t c = 0; c < columns_.size(); ++c) {
      if (columns_[c].metadata) {
        constants[c] = FileConstant(*columns_[c].metadata, task);
        continue;
      }
      for (size_t p = 0; spec && p < spec->fields().size() && p < task.file.partition.size(); ++p) {
        const iceberg::PartitionField& pf = spec->fields()[p];
        if (pf.source_id == columns_[c].field_id && pf.transform.kind() == iceberg::Transform::Kind::kIdentity) {
          constants[c] = task.file.partition[p];
        }
      }
    }
    return constants;
  }

  // The values of a positional metadata column for the rows of `b`, the rows at `position`,
  // `position` + 1, ... of the task's file; `cols[data_fields]` and the next are the file's
  // stored row lineage columns (or -1) when the read schema has them.
  static ColumnVector PositionalValues(MetadataColumn column, const iceberg::FileScanTask& task, const ColumnBatch& b,
                                       const std::vector<int>& cols, size_t data_fields, int64_t position) {
    auto stored = [&](size_t i) -> const ColumnVector* {
      return i < cols.size() && cols[i] >= 0 ? &b.columns[static_cast<size_t>(cols[i])] : nullptr;
    };
    switch (column) {
      case MetadataColumn::kRowId:
        return iceberg::InheritLineage(stored(data_fields), position, b.num_rows, task.file.first_row_id, true);
      case MetadataColumn::kLastUpdatedSequenceNumber:
        return iceberg::InheritLineage(stored(data_fields + 1), position, b.num_rows, task.data_sequence_number, false);
      default:
        return iceberg::InheritLineage(nullptr, position, b.num_rows, 0, true);  // Positions themselves.
    }
  }

  std::shared_ptr<const ResolvedTable> table_;
  std::shared_ptr<FileCaches> caches_;
  std::vector<ScanOutputColumn> columns_;
  std::vector<formats::Field> fields_;
  std::vector<FieldPredicate> predicates_;
  Plan plan_;
  bool has_predicate_ = false;
  bool by_position_ = false;  // A column depends on rows' positions: whole files are read.
  std::vector<std::atomic<bool>> file_touched_;
  std::atomic<int64_t> files_read_{0}, row_groups_total_{0}, row_groups_read_{0}, bytes_read_{0}, rows_read_{0};
  std::atomic<int64_t> pages_total_{0}, pages_read_{0};
  std::atomic<int64_t> rows_deleted_{0};
  std::atomic<bool> deletes_touched_{false};  // A task with deletes was read.
  iceberg::EqualityDeleteCache equality_deletes_;  // Shared by the splits' threads.
  std::mutex table_mutex_;
  std::unique_ptr<iceberg::Table> table_object_;  // Guarded by table_mutex_ until set; then read-only.
};

}  // namespace

Result<std::unique_ptr<TableScan>> PlanDataScan(std::shared_ptr<const ResolvedTable> table, const ScanRequest& request,
                                                std::shared_ptr<FileCaches> caches) {
  if (!request.table) return InvalidArgument("scan without a table");
  std::vector<ScanOutputColumn> columns;
  const size_t available = request.table->columns.size() + request.table->metadata_columns.size();
  for (int index : request.columns) {
    if (index < 0 || static_cast<size_t>(index) >= available) {
      return InvalidArgument("scan column {} of {}", index, available);
    }
    const TableColumn& tc = request.table->ColumnAt(index);
    if (request.table->IsMetadataColumn(index)) {
      std::optional<MetadataColumn> kind = MetadataColumnOf(tc.field_id);
      if (!kind) return Internal("metadata column {} has unknown field id {}", tc.name, tc.field_id);
      columns.push_back({tc.field_id, tc.name, nullptr, BatchTypeFor(tc.type), kind});
      continue;
    }
    const iceberg::NestedField* field = tc.field_id > 0 ? table->schema.FindField(tc.field_id) : table->schema.FindFieldByName(tc.name);
    if (!field) return NotFound("column {} (field id {}) is not in the table's schema", tc.name, tc.field_id);
    columns.push_back({field->id, tc.name, field->type, BatchTypeFor(tc.type)});
  }
  iceberg::ExprPtr filter = ToIcebergFilter(request.predicate, table->schema);
  std::vector<FieldPredicate> predicates = ToParquetPredicates(request.predicate, table->schema);
  FLOE_ASSIGN_OR_RETURN(Plan plan, PlanFiles(*table, filter, *caches));
  bool has_predicate = request.predicate && !request.predicate->terms.empty();
  return std::unique_ptr<TableScan>(std::make_unique<IcebergTableScan>(std::move(table), std::move(caches), std::move(columns),
                                                                       std::move(predicates), std::move(plan), has_predicate));
}

}  // namespace floe::sql::iceberg_sql
