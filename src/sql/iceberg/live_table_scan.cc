#include "sql/iceberg/live_table_scan.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <future>

#include "formats/json/iceberg_fields.h"
#include "iceberg/schema_json.h"
#include "sql/execution/key_table.h"
#include "sql/execution/query_context.h"
#include "sql/iceberg/batch_transform.h"
#include "sql/iceberg/iceberg_table_scan.h"
#include "sql/iceberg/iceberg_types.h"
#include "sql/iceberg/scan_columns.h"
#include "stream/source/source_offsets.h"
#include "stream/source/upsert_batch.h"

namespace floe::sql::iceberg_sql {
namespace {

constexpr auto kWatermarkTimeout = std::chrono::milliseconds(5000);
constexpr auto kReadTimeout = std::chrono::milliseconds(10000);

using formats::ColumnBatch;

struct TailSplit {
  TailRange range;
  TailRead read;
};

// Rows [first, first + count) of `rows` (the tail's decoded rows) as the requested columns:
// each from its source column in `rows` (converted to the scan's type), or null when the tail
// has none.
Result<ColumnBatch> ShapeRows(const ColumnBatch& rows, int64_t first, int64_t count, const std::vector<int>& sources,
                              const std::vector<formats::Field>& fields) {
  ColumnBatch out;
  out.fields = fields;
  out.num_rows = count;
  for (size_t c = 0; c < fields.size(); ++c) {
    int source = sources[c];
    if (source < 0) {
      out.columns.push_back(ConstantVector(fields[c].type, iceberg::Literal::Null(), count));
      continue;
    }
    formats::ColumnVector slice = formats::SliceVector(rows.columns[static_cast<size_t>(source)], first, count);
    FLOE_ASSIGN_OR_RETURN(formats::ColumnVector converted, ConvertVector(std::move(slice), fields[c].type));
    out.columns.push_back(std::move(converted));
  }
  return out;
}

// "p0[12, 40) p2[7, 9)": the tail's ranges, for EXPLAIN.
std::string RangesText(const std::vector<TailSplit>& splits) {
  std::string ranges;
  for (const TailSplit& split : splits) {
    ranges += fmt::format("{}p{}[{}, {})", ranges.empty() ? "" : " ", split.range.partition, split.range.begin,
                          split.range.end);
  }
  return ranges;
}

class LiveTableScan final : public TableScan {
 public:
  LiveTableScan(std::unique_ptr<TableScan> snapshot, std::shared_ptr<LogTail> tail, std::vector<TailSplit> splits,
                std::vector<int> sources, std::vector<formats::Field> fields)
      : snapshot_(std::move(snapshot)),
        tail_(std::move(tail)),
        splits_(std::move(splits)),
        sources_(std::move(sources)),
        fields_(std::move(fields)) {}

  size_t split_count() const override { return snapshot_->split_count() + splits_.size(); }

  Status ReadSplit(size_t index, const std::function<Status(ColumnBatch&)>& sink) override {
    size_t snapshot_splits = snapshot_->split_count();
    if (index < snapshot_splits) return snapshot_->ReadSplit(index, sink);
    if (index - snapshot_splits >= splits_.size()) return InvalidArgument("split {} of {}", index, split_count());
    for (const TailPiece& piece : splits_[index - snapshot_splits].read.pieces) {
      for (int64_t done = 0; done < piece.rows;) {
        int64_t rows = std::min(kScanBatchRows, piece.rows - done);
        FLOE_ASSIGN_OR_RETURN(ColumnBatch out, ShapeRows(*piece.batch, piece.first_row + done, rows, sources_, fields_));
        done += rows;
        tail_rows_read_.fetch_add(rows);
        FLOE_RETURN_IF_ERROR(sink(out));
      }
    }
    return OkStatus();
  }

  ScanStats stats() const override {
    ScanStats s = snapshot_->stats();
    s.rows_read += tail_rows_read_.load();
    return s;
  }

  std::string Describe() const override { return fmt::format("{}; {}", snapshot_->Describe(), PlanDetail()); }

  std::string PlanDetail() const override {
    int64_t rows = 0;
    for (const TailSplit& split : splits_) rows += split.read.rows;
    if (splits_.empty()) return fmt::format("live: log tail of topic '{}' has no records past the snapshot", tail_->source().topic);
    return fmt::format("live: log tail of topic '{}' {}, {} rows", tail_->source().topic, RangesText(splits_), rows);
  }

 private:
  std::unique_ptr<TableScan> snapshot_;
  std::shared_ptr<LogTail> tail_;
  std::vector<TailSplit> splits_;
  std::vector<int> sources_;           // Per requested column: its index in the tail's rows, or -1.
  std::vector<formats::Field> fields_;  // Per requested column: name and batch type.
  std::atomic<int64_t> tail_rows_read_{0};
};

// A keyed table's snapshot with its tail applied by key: the snapshot's rows (scanned with the
// key columns, which may not be requested) less those of keys the tail touched, then the tail's
// winning rows. The last splits hold the winners.
class LiveKeyedScan final : public TableScan {
 public:
  LiveKeyedScan(std::unique_ptr<TableScan> snapshot, size_t output_columns, std::vector<int> key_positions,
                std::shared_ptr<const KeyTable> touched, std::vector<ColumnBatch> winners, std::string detail)
      : snapshot_(std::move(snapshot)),
        output_columns_(output_columns),
        key_positions_(std::move(key_positions)),
        touched_(std::move(touched)),
        winners_(std::move(winners)),
        detail_(std::move(detail)) {}

  size_t split_count() const override { return snapshot_->split_count() + winners_.size(); }

  Status ReadSplit(size_t index, const std::function<Status(ColumnBatch&)>& sink) override {
    size_t snapshot_splits = snapshot_->split_count();
    if (index >= snapshot_splits) {
      if (index - snapshot_splits >= winners_.size()) return InvalidArgument("split {} of {}", index, split_count());
      ColumnBatch rows = winners_[index - snapshot_splits];
      tail_rows_read_.fetch_add(rows.num_rows);
      return sink(rows);
    }
    KeyEncoder keys;
    std::vector<uint32_t> kept;
    return snapshot_->ReadSplit(index, [&](ColumnBatch& batch) -> Status {
      std::vector<const formats::ColumnVector*> key_columns;
      for (int p : key_positions_) key_columns.push_back(&batch.columns[static_cast<size_t>(p)]);
      keys.Encode(key_columns, batch.num_rows);
      kept.clear();
      for (int64_t i = 0; i < batch.num_rows; ++i) {
        if (keys.has_null(i) || touched_->Find(keys.key(i), keys.hash(i)) < 0) kept.push_back(static_cast<uint32_t>(i));
      }
      ColumnBatch out;
      out.fields.assign(batch.fields.begin(), batch.fields.begin() + static_cast<std::ptrdiff_t>(output_columns_));
      out.num_rows = static_cast<int64_t>(kept.size());
      for (size_t c = 0; c < output_columns_; ++c) {
        if (kept.size() == static_cast<size_t>(batch.num_rows)) {
          out.columns.push_back(std::move(batch.columns[c]));
        } else {
          out.columns.push_back(formats::GatherRows(batch.columns[c], kept.data(), out.num_rows));
        }
      }
      return sink(out);
    });
  }

  ScanStats stats() const override {
    ScanStats s = snapshot_->stats();
    s.rows_read += tail_rows_read_.load();
    return s;
  }

  std::string Describe() const override { return fmt::format("{}; {}", snapshot_->Describe(), PlanDetail()); }
  std::string PlanDetail() const override { return detail_; }

 private:
  std::unique_ptr<TableScan> snapshot_;
  size_t output_columns_;            // The requested columns, first in the snapshot's batches.
  std::vector<int> key_positions_;   // The key columns in the snapshot's batches.
  std::shared_ptr<const KeyTable> touched_;
  std::vector<ColumnBatch> winners_;  // The requested columns of the tail's winning rows.
  std::string detail_;
  std::atomic<int64_t> tail_rows_read_{0};
};

Result<std::vector<formats::Field>> EventFields(const LogSource& source, const ResolvedTable& table) {
  if (source.event_schema_json.empty()) return formats::BatchFieldsFromSchema(table.schema);
  FLOE_ASSIGN_OR_RETURN_CTX(iceberg::Schema schema, iceberg::SchemaFromJson(source.event_schema_json),
                            "table property floe.source.event-schema");
  return formats::BatchFieldsFromSchema(schema);
}

// The tail's ranges: each partition from the snapshot's offset (or the oldest retained record,
// for a partition the table has none of yet) to the high watermark.
Result<std::vector<TailRange>> PlanRanges(LogTail& tail, const ResolvedTable& table) {
  FLOE_ASSIGN_OR_RETURN(stream::SourceOffsets committed,
                        stream::OffsetsInAncestryOf(table.metadata(), table.snapshot, tail.source().topic));
  FLOE_ASSIGN_OR_RETURN(auto watermarks, tail.Watermarks(kWatermarkTimeout));
  std::vector<TailRange> ranges;
  for (const auto& [partition, w] : watermarks) {
    auto it = committed.find(partition);
    int64_t begin = std::max(it == committed.end() ? w.low : it->second, w.low);
    if (begin < w.high) ranges.push_back({partition, begin, w.high});
  }
  return ranges;
}

// The log tail a query reads: per partition, its records past the snapshot, decoded (and
// shaped by the job's transform, when it has one) into rows of `event_fields`.
struct TailPlan {
  std::shared_ptr<LogTail> tail;
  std::vector<TailSplit> splits;
  std::vector<formats::Field> event_fields;
  bool transformed = false;
};

Result<TailPlan> ReadTail(const ResolvedTable& table, const ScanRequest& request, const LogSource& source,
                          LogTailCache& tails) {
  TailPlan plan;
  FLOE_ASSIGN_OR_RETURN(plan.event_fields, EventFields(source, table));
  // The job's transform, compiled for this query (a compiled transform serves one thread).
  std::unique_ptr<BatchTransform> transform;
  if (!source.transform.empty()) {
    if (source.event_schema_json.empty()) return InvalidArgument("table property floe.source.event-schema is missing");
    FLOE_ASSIGN_OR_RETURN(iceberg::Schema events, iceberg::SchemaFromJson(source.event_schema_json));
    FLOE_ASSIGN_OR_RETURN_CTX(transform, BatchTransform::Compile(source.transform, events),
                              "table property floe.source.transform");
  }
  std::string key = fmt::format("{}|{}|{}|{}|{}|{}", source.brokers, source.topic, static_cast<int>(source.timestamp_unit),
                                source.transform,
                                source.event_schema_json.empty()
                                    ? fmt::format("{} schema {}", table.metadata().location, table.schema.schema_id())
                                    : source.event_schema_json,
                                source.key_columns.empty() ? "append" : "keyed");
  FLOE_ASSIGN_OR_RETURN(plan.tail, tails.Get(key, source, plan.event_fields));
  Result<std::vector<TailRange>> ranges = PlanRanges(*plan.tail, table);
  if (!ranges) {
    // A broker that cannot answer may be gone for good (moved, restarted elsewhere): the next
    // query starts from a new connection rather than this client's backoff.
    if (ranges.error().kind() == ErrorKind::kUnavailable) tails.Forget(key);
    return std::unexpected(ranges.error());
  }
  // Every partition in parallel; the bound covers the whole tail.
  std::shared_ptr<LogTail>& tail = plan.tail;
  std::vector<std::future<Result<TailRead>>> reads;
  for (const TailRange& range : *ranges) {
    reads.push_back(std::async(std::launch::async, [&tail, range, &request] {
      return tail->Read(range, request.live_tail_max_bytes, kReadTimeout);
    }));
  }
  int64_t bytes = 0;
  Status first_error = OkStatus();
  for (size_t i = 0; i < reads.size(); ++i) {
    Result<TailRead> read = reads[i].get();
    if (!read) {
      if (first_error.has_value()) first_error = std::unexpected(read.error());
      continue;
    }
    bytes += read->bytes;
    if (read->rows > 0 || !read->deleted_keys.empty()) plan.splits.push_back({(*ranges)[i], std::move(*read)});
  }
  FLOE_RETURN_IF_ERROR(first_error);
  if (bytes > request.live_tail_max_bytes) {
    return ResourceExhausted("the log tail holds {} of decoded records, more than live_tail_max_bytes ({})",
                             FormatBytes(bytes), FormatBytes(request.live_tail_max_bytes));
  }
  if (transform) {
    // The job's rows: the transform over each piece; rows it rejects are dead letters there too.
    for (TailSplit& split : plan.splits) {
      TailRead shaped;
      for (const TailPiece& piece : split.read.pieces) {
        formats::ColumnBatch events = formats::SliceBatch(*piece.batch, piece.first_row, piece.rows);
        FLOE_ASSIGN_OR_RETURN(std::vector<ColumnBatch> rows, transform->Apply(events, nullptr));
        for (ColumnBatch& b : rows) {
          shaped.rows += b.num_rows;
          int64_t n = b.num_rows;
          shaped.pieces.push_back({std::make_shared<const ColumnBatch>(std::move(b)), 0, n, {}});
        }
      }
      shaped.bytes = split.read.bytes;
      split.read = std::move(shaped);
    }
    plan.event_fields = transform->output_fields();
    plan.transformed = true;
  }
  return plan;
}

// Per requested column: its index in the tail's rows (by field id, or by name when the ids are
// unknown or a transform made the rows), or -1; and its name and batch type.
void MapColumns(const ScanRequest& request, const TailPlan& plan, std::vector<int>* sources,
                std::vector<formats::Field>* fields) {
  for (int index : request.columns) {
    const TableColumn& column = request.table->ColumnAt(index);
    int source_index = -1;
    // A metadata column ("$path", _pos, ...) is null on rows still in the log: they are in no file yet.
    for (size_t f = 0; f < plan.event_fields.size() && !request.table->IsMetadataColumn(index); ++f) {
      bool by_id = !plan.transformed && column.field_id > 0 && plan.event_fields[f].id > 0;
      if (by_id ? plan.event_fields[f].id == column.field_id : plan.event_fields[f].name == column.name) {
        source_index = static_cast<int>(f);
      }
    }
    sources->push_back(source_index);
    fields->push_back({column.name, column.field_id, true, BatchTypeFor(column.type)});
  }
}

Result<std::unique_ptr<TableScan>> PlanTail(const SnapshotPlanner& plan_snapshot, const ResolvedTable& table,
                                            const ScanRequest& request, const LogSource& source, LogTailCache& tails) {
  FLOE_ASSIGN_OR_RETURN(TailPlan plan, ReadTail(table, request, source, tails));
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<TableScan> snapshot, plan_snapshot(request));
  std::vector<int> sources;
  std::vector<formats::Field> fields;
  MapColumns(request, plan, &sources, &fields);
  return std::unique_ptr<TableScan>(std::make_unique<LiveTableScan>(std::move(snapshot), std::move(plan.tail),
                                                                    std::move(plan.splits), std::move(sources),
                                                                    std::move(fields)));
}

// A keyed table: the tail's changes reduced to the last per key, the snapshot scanned with the
// key columns to leave out the rows of every key touched.
Result<std::unique_ptr<TableScan>> PlanKeyedTail(const SnapshotPlanner& plan_snapshot, const ResolvedTable& table,
                                                 const ScanRequest& request, const LogSource& source,
                                                 LogTailCache& tails) {
  const std::vector<TableColumn>& columns = request.table->columns;
  ScanRequest with_keys = request;
  std::vector<int> key_positions;
  std::vector<int32_t> key_ids;
  std::vector<const TableColumn*> key_columns;
  for (const std::string& name : source.key_columns) {
    auto column = std::find_if(columns.begin(), columns.end(), [&](const TableColumn& c) { return c.name == name; });
    if (column == columns.end()) return InvalidArgument("table property floe.source.key names no column '{}'", name);
    int index = static_cast<int>(column - columns.begin());
    auto at = std::find(with_keys.columns.begin(), with_keys.columns.end(), index);
    if (at == with_keys.columns.end()) {
      with_keys.columns.push_back(index);
      at = with_keys.columns.end() - 1;
    }
    key_positions.push_back(static_cast<int>(at - with_keys.columns.begin()));
    key_ids.push_back(column->field_id);
    key_columns.push_back(&*column);
  }
  FLOE_ASSIGN_OR_RETURN(TailPlan plan, ReadTail(table, request, source, tails));
  // Every change in the tail, numbered in partition order, then offset order within one.
  FLOE_ASSIGN_OR_RETURN(stream::UpsertBatch changes, stream::UpsertBatch::Make(table.schema, key_ids));
  std::vector<stream::RecordError> dead_letters;  // Null keys: dead letters for the job too.
  int64_t first_record = 0;
  int64_t change_count = 0;
  for (const TailSplit& split : plan.splits) {
    auto numbered = [&](const TailPiece& piece) {
      std::vector<size_t> records;
      for (int64_t offset : piece.offsets) records.push_back(static_cast<size_t>(first_record + offset - split.range.begin));
      change_count += piece.rows;
      return records;
    };
    for (const TailPiece& piece : split.read.pieces) {
      FLOE_RETURN_IF_ERROR(changes.AddRows(formats::SliceBatch(*piece.batch, piece.first_row, piece.rows),
                                           numbered(piece), &dead_letters));
    }
    for (const TailPiece& piece : split.read.deleted_keys) {
      FLOE_RETURN_IF_ERROR(changes.AddDeletes(formats::SliceBatch(*piece.batch, piece.first_row, piece.rows),
                                              numbered(piece), &dead_letters));
    }
    first_record += split.range.end - split.range.begin;
  }
  // The keys touched, in the snapshot scan's types, so that equal keys encode equally.
  auto touched = std::make_shared<KeyTable>();
  KeyEncoder encoder;
  for (const ColumnBatch& keys : changes.TouchedKeys()) {
    std::vector<formats::ColumnVector> converted;
    for (size_t k = 0; k < key_columns.size(); ++k) {
      FLOE_ASSIGN_OR_RETURN(formats::ColumnVector v, ConvertVector(formats::ColumnVector(keys.columns[k]), BatchTypeFor(key_columns[k]->type)));
      converted.push_back(std::move(v));
    }
    std::vector<const formats::ColumnVector*> pointers;
    for (const formats::ColumnVector& v : converted) pointers.push_back(&v);
    encoder.Encode(pointers, keys.num_rows);
    bool inserted = false;
    for (int64_t i = 0; i < keys.num_rows; ++i) touched->FindOrInsert(encoder.key(i), encoder.hash(i), inserted);
  }
  std::vector<int> sources;
  std::vector<formats::Field> fields;
  MapColumns(request, plan, &sources, &fields);
  std::vector<ColumnBatch> winners;
  int64_t winning_rows = 0;
  for (const ColumnBatch& rows : changes.WinningRows()) {
    for (int64_t done = 0; done < rows.num_rows; done += kScanBatchRows) {
      int64_t n = std::min(kScanBatchRows, rows.num_rows - done);
      FLOE_ASSIGN_OR_RETURN(ColumnBatch shaped, ShapeRows(rows, done, n, sources, fields));
      winners.push_back(std::move(shaped));
      winning_rows += n;
    }
  }
  std::string detail =
      plan.splits.empty()
          ? fmt::format("live by key: log tail of topic '{}' has no records past the snapshot", source.topic)
          : fmt::format("live by key: log tail of topic '{}' {}, {} changes to {} keys, {} rows put",
                        source.topic, RangesText(plan.splits), change_count, touched->size(), winning_rows);
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<TableScan> snapshot, plan_snapshot(with_keys));
  return std::unique_ptr<TableScan>(std::make_unique<LiveKeyedScan>(std::move(snapshot), request.columns.size(),
                                                                    std::move(key_positions), std::move(touched),
                                                                    std::move(winners), std::move(detail)));
}

}  // namespace

bool WantsLiveScan(const ResolvedTable& table, const ScanRequest& request) {
  return request.freshness == Freshness::kLive && request.metadata_table.empty() &&
         request.version.kind == TableVersion::Kind::kCurrent && table.metadata().properties.contains("floe.source.topic");
}

Result<std::unique_ptr<TableScan>> PlanLiveScan(const SnapshotPlanner& plan_snapshot, const ResolvedTable& table,
                                                const ScanRequest& request, LogTailCache& tails) {
  std::optional<Result<LogSource>> source = LogSource::FromProperties(table.metadata().properties);
  if (!source.has_value()) return plan_snapshot(request);
  Result<std::unique_ptr<TableScan>> live = std::unexpected(Error(ErrorKind::kInternal, "no source"));
  if (!*source) {
    live = std::unexpected(source->error());
  } else if ((*source)->key_columns.empty()) {
    live = PlanTail(plan_snapshot, table, request, **source, tails);
  } else {
    live = PlanKeyedTail(plan_snapshot, table, request, **source, tails);
  }
  if (live) return live;
  if (request.warn) {
    request.warn(fmt::format("{}: read the committed snapshot only (freshness live could not read the log tail: {})",
                             request.table->name.ToString(), live.error().message()));
  }
  return plan_snapshot(request);
}

}  // namespace floe::sql::iceberg_sql
