// The scan source: plans a TableScan through the catalog and reads one split per morsel,
// converting storage batches to the executor's vectors. The pushed predicate is applied again
// by a filter after it (storage may only use it to skip data).
#include "sql/execution/physical_operator.h"

namespace floe::sql {
namespace {

class ScanSource final : public Source {
 public:
  ScanSource(const LogicalScan& node, ScanRequest request, std::unique_ptr<TableScan> scan)
      : node_(node), request_(std::move(request)), scan_(std::move(scan)) {
    for (const auto& c : node.output) types_.push_back(c.type);
  }

  size_t morsel_count() const override { return scan_->split_count(); }

  Status ReadMorsel(size_t index, QueryContext& context, const ChunkCallback& out) override {
    return scan_->ReadSplit(index, [&](formats::ColumnBatch& batch) -> Status {
      FLOE_RETURN_IF_ERROR(context.CheckInterrupt());
      if (batch.columns.size() != types_.size()) {
        return Internal("scan of {} returned {} columns, expected {}", request_.table->name.ToString(), batch.columns.size(), types_.size());
      }
      DataChunk chunk;
      chunk.rows = batch.num_rows;
      for (size_t i = 0; i < batch.columns.size(); ++i) {
        FLOE_ASSIGN_OR_RETURN(VectorPtr v, FromStorage(std::move(batch.columns[i]), types_[i]));
        if (v->length != chunk.rows) {
          return Internal("scan of {} returned a column of {} rows in a batch of {}", request_.table->name.ToString(), v->length, chunk.rows);
        }
        chunk.columns.push_back(std::move(v));
      }
      if (chunk.rows == 0) return OkStatus();
      return out(std::move(chunk));
    });
  }

  void Done(QueryContext& context) override {
    OperatorStats& stats = context.StatsFor(&node_);
    std::lock_guard lock(stats.mutex);
    stats.has_scan = true;
    stats.scan.Add(scan_->stats());
    stats.scan_detail = scan_->Describe();
    std::string dynamic = context.dynamic_filters().Describe(node_);
    if (!dynamic.empty()) stats.scan_detail += "; dynamic filter: " + dynamic;
  }

 private:
  const LogicalScan& node_;
  ScanRequest request_;
  std::unique_ptr<TableScan> scan_;
  std::vector<SqlType> types_;
};

}  // namespace

ScanRequest MakeScanRequest(const LogicalScan& node, QueryContext& context) {
  ScanRequest request;
  request.table = node.table;
  request.version = node.version;
  request.metadata_table = node.metadata_table;
  for (const auto& c : node.scan_columns) request.columns.push_back(c.table_column);
  request.predicate = context.dynamic_filters().PredicateFor(node);
  request.freshness = context.options().freshness;
  request.live_tail_max_bytes = context.options().live_tail_max_bytes;
  request.warn = [&context](std::string text) { context.AddWarning(std::move(text)); };
  return request;
}

Result<std::unique_ptr<Source>> MakeScanSource(const LogicalScan& node, QueryContext& context) {
  for (const auto& c : node.output) {
    if (!CanCarry(c.type)) {
      return NotImplemented("reading column '{}' of type {} is not supported by the executor yet", c.name, c.type.ToString());
    }
  }
  ScanRequest request = MakeScanRequest(node, context);
  FLOE_ASSIGN_OR_RETURN(auto scan, context.catalog().OpenScan(request));
  return std::unique_ptr<Source>(std::make_unique<ScanSource>(node, std::move(request), std::move(scan)));
}

}  // namespace floe::sql
