#include "sql/iceberg/live_table_scan.h"

#include <atomic>
#include <future>

#include <fmt/format.h>

#include "formats/json/iceberg_fields.h"
#include "iceberg/schema_json.h"
#include "sql/iceberg/batch_transform.h"
#include "sql/iceberg/iceberg_table_scan.h"
#include "sql/iceberg/iceberg_types.h"
#include "sql/iceberg/scan_columns.h"
#include "sql/execution/query_context.h"
#include "stream/source_offsets.h"

namespace floe::sql::iceberg_sql {
namespace {

constexpr auto kWatermarkTimeout = std::chrono::milliseconds(5000);
constexpr auto kReadTimeout = std::chrono::milliseconds(10000);

using formats::ColumnBatch;

struct TailSplit {
  TailRange range;
  TailRead read;
};

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
        ColumnBatch out;
        out.fields = fields_;
        out.num_rows = rows;
        for (size_t c = 0; c < fields_.size(); ++c) {
          int source = sources_[c];
          if (source < 0) {
            out.columns.push_back(ConstantVector(fields_[c].type, iceberg::Literal::Null(), rows));
            continue;
          }
          formats::ColumnVector slice =
              formats::SliceVector(piece.batch->columns[static_cast<size_t>(source)], piece.first_row + done, rows);
          FLOE_ASSIGN_OR_RETURN(formats::ColumnVector converted, ConvertVector(std::move(slice), fields_[c].type));
          out.columns.push_back(std::move(converted));
        }
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
    std::string ranges;
    int64_t rows = 0;
    for (const TailSplit& split : splits_) {
      ranges += fmt::format("{}p{}[{}, {})", ranges.empty() ? "" : " ", split.range.partition, split.range.begin,
                            split.range.end);
      rows += split.read.rows;
    }
    if (splits_.empty()) return fmt::format("live: log tail of topic '{}' has no records past the snapshot", tail_->source().topic);
    return fmt::format("live: log tail of topic '{}' {}, {} rows", tail_->source().topic, ranges, rows);
  }

 private:
  std::unique_ptr<TableScan> snapshot_;
  std::shared_ptr<LogTail> tail_;
  std::vector<TailSplit> splits_;
  std::vector<int> sources_;           // Per requested column: its index in the tail's rows, or -1.
  std::vector<formats::Field> fields_;  // Per requested column: name and batch type.
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

Result<std::unique_ptr<TableScan>> PlanTail(std::unique_ptr<TableScan>& snapshot, const ResolvedTable& table,
                                            const ScanRequest& request, const LogSource& source, LogTailCache& tails) {
  FLOE_ASSIGN_OR_RETURN(std::vector<formats::Field> event_fields, EventFields(source, table));
  // The job's transform, compiled for this query (a compiled transform serves one thread).
  std::unique_ptr<BatchTransform> transform;
  if (!source.transform.empty()) {
    if (source.event_schema_json.empty()) return InvalidArgument("table property floe.source.event-schema is missing");
    FLOE_ASSIGN_OR_RETURN(iceberg::Schema events, iceberg::SchemaFromJson(source.event_schema_json));
    FLOE_ASSIGN_OR_RETURN_CTX(transform, BatchTransform::Compile(source.transform, events),
                              "table property floe.source.transform");
  }
  std::string key = fmt::format("{}|{}|{}|{}|{}", source.brokers, source.topic, static_cast<int>(source.timestamp_unit),
                                source.transform,
                                source.event_schema_json.empty()
                                    ? fmt::format("{} schema {}", table.metadata().location, table.schema.schema_id())
                                    : source.event_schema_json);
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<LogTail> tail, tails.Get(key, source, event_fields));
  Result<std::vector<TailRange>> ranges = PlanRanges(*tail, table);
  if (!ranges) {
    // A broker that cannot answer may be gone for good (moved, restarted elsewhere): the next
    // query starts from a new connection rather than this client's backoff.
    if (ranges.error().kind() == ErrorKind::kUnavailable) tails.Forget(key);
    return std::unexpected(ranges.error());
  }
  // Every partition in parallel; the bound covers the whole tail.
  std::vector<std::future<Result<TailRead>>> reads;
  for (const TailRange& range : *ranges) {
    reads.push_back(std::async(std::launch::async, [&tail, range, &request] {
      return tail->Read(range, request.live_tail_max_bytes, kReadTimeout);
    }));
  }
  std::vector<TailSplit> splits;
  int64_t bytes = 0;
  Status first_error = OkStatus();
  for (size_t i = 0; i < reads.size(); ++i) {
    Result<TailRead> read = reads[i].get();
    if (!read) {
      if (first_error.has_value()) first_error = std::unexpected(read.error());
      continue;
    }
    bytes += read->bytes;
    if (read->rows > 0) splits.push_back({(*ranges)[i], std::move(*read)});
  }
  FLOE_RETURN_IF_ERROR(first_error);
  if (bytes > request.live_tail_max_bytes) {
    return ResourceExhausted("the log tail holds {} of decoded records, more than live_tail_max_bytes ({})",
                             FormatBytes(bytes), FormatBytes(request.live_tail_max_bytes));
  }
  if (transform) {
    // The job's rows: the transform over each piece; rows it rejects are dead letters there too.
    for (TailSplit& split : splits) {
      TailRead shaped;
      for (const TailPiece& piece : split.read.pieces) {
        formats::ColumnBatch events = formats::SliceBatch(*piece.batch, piece.first_row, piece.rows);
        FLOE_ASSIGN_OR_RETURN(std::vector<ColumnBatch> rows, transform->Apply(events, nullptr));
        for (ColumnBatch& b : rows) {
          shaped.rows += b.num_rows;
          int64_t n = b.num_rows;
          shaped.pieces.push_back({std::make_shared<const ColumnBatch>(std::move(b)), 0, n});
        }
      }
      shaped.bytes = split.read.bytes;
      split.read = std::move(shaped);
    }
    event_fields = transform->output_fields();
  }
  // Each requested column from the tail's rows, by field id (names when the ids are unknown).
  std::vector<int> sources;
  std::vector<formats::Field> fields;
  for (int index : request.columns) {
    const TableColumn& column = request.table->columns[static_cast<size_t>(index)];
    int source_index = -1;
    for (size_t f = 0; f < event_fields.size(); ++f) {
      bool by_id = !transform && column.field_id > 0 && event_fields[f].id > 0;
      if (by_id ? event_fields[f].id == column.field_id : event_fields[f].name == column.name) {
        source_index = static_cast<int>(f);
      }
    }
    sources.push_back(source_index);
    fields.push_back({column.name, column.field_id, true, BatchTypeFor(column.type)});
  }
  return std::unique_ptr<TableScan>(std::make_unique<LiveTableScan>(std::move(snapshot), std::move(tail), std::move(splits),
                                                                    std::move(sources), std::move(fields)));
}

}  // namespace

bool WantsLiveScan(const ResolvedTable& table, const ScanRequest& request) {
  return request.freshness == Freshness::kLive && request.metadata_table.empty() &&
         request.version.kind == TableVersion::Kind::kCurrent && table.metadata().properties.contains("floe.source.topic");
}

Result<std::unique_ptr<TableScan>> PlanLiveScan(std::unique_ptr<TableScan> snapshot, const ResolvedTable& table,
                                                const ScanRequest& request, LogTailCache& tails) {
  std::optional<Result<LogSource>> source = LogSource::FromProperties(table.metadata().properties);
  if (!source.has_value()) return snapshot;
  Result<std::unique_ptr<TableScan>> live =
      *source ? PlanTail(snapshot, table, request, **source, tails) : Result<std::unique_ptr<TableScan>>(std::unexpected(source->error()));
  if (live) return live;
  if (request.warn) {
    request.warn(fmt::format("{}: read the committed snapshot only (freshness live could not read the log tail: {})",
                             request.table->name.ToString(), live.error().message()));
  }
  return snapshot;
}

}  // namespace floe::sql::iceberg_sql
