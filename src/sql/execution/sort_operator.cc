// ORDER BY and top-N: workers collect chunks (top-N prunes each worker's rows to the best N as
// they grow); the final step sorts row indexes by the key vectors and gathers the result in
// order. Ties keep their input order (stable sort).
#include <algorithm>

#include "sql/execution/physical_operator.h"
#include "sql/execution/sort_keys.h"

namespace floe::sql {
namespace {

class SortLocal final : public LocalSinkState {
 public:
  SortLocal(MemoryTracker& tracker, const char* name) : reservation(tracker, name) {}
  std::vector<DataChunk> chunks;
  int64_t rows = 0;
  int64_t bytes = 0;
  MemoryReservation reservation;
};

class SortSink final : public Sink {
 public:
  SortSink(std::vector<SqlType> types, std::vector<SortSpec> specs, std::optional<int64_t> limit, int64_t offset)
      : types_(std::move(types)), specs_(std::move(specs)), limit_(limit), offset_(offset) {}

  std::unique_ptr<LocalSinkState> MakeLocal(QueryContext& context) override {
    return std::make_unique<SortLocal>(context.memory(), limit_ ? "TopN" : "Sort");
  }

  Status Consume(LocalSinkState& state, DataChunk&& chunk, QueryContext& context) override {
    auto& local = static_cast<SortLocal&>(state);
    local.rows += chunk.rows;
    local.bytes += chunk.Bytes();
    local.chunks.push_back(std::move(chunk));
    if (limit_) {
      int64_t keep = *limit_ + offset_;
      if (local.rows > std::max<int64_t>(4 * keep, 65536)) {
        FLOE_ASSIGN_OR_RETURN(DataChunk best, SortRows(local.chunks, types_, specs_, keep, context));
        local.chunks.clear();
        local.rows = best.rows;
        local.bytes = best.Bytes();
        local.chunks.push_back(std::move(best));
      }
    }
    return local.reservation.Resize(local.bytes);
  }

  Status Combine(std::unique_ptr<LocalSinkState> state, QueryContext& context) override {
    auto& local = static_cast<SortLocal&>(*state);
    for (auto& c : local.chunks) chunks_.push_back(std::move(c));
    locals_.push_back(std::move(state));  // Keeps the memory charged until Finalize.
    return OkStatus();
  }

  Result<Materialized> Finalize(QueryContext& context) override {
    Materialized out;
    out.ordered = true;
    int64_t total = 0;
    for (const auto& c : chunks_) total += c.rows;
    if (total == 0) return out;
    int64_t keep = limit_ ? std::min(total, *limit_ + offset_) : total;
    FLOE_ASSIGN_OR_RETURN(DataChunk sorted, SortRows(chunks_, types_, specs_, keep, context));
    chunks_.clear();
    for (int64_t at = std::min(offset_, sorted.rows); at < sorted.rows; at += kChunkRows) {
      out.chunks.push_back(SliceChunk(sorted, at, std::min(kChunkRows, sorted.rows - at)));
    }
    locals_.clear();
    return out;
  }

 private:
  std::vector<SqlType> types_;
  std::vector<SortSpec> specs_;
  std::optional<int64_t> limit_;
  int64_t offset_;
  std::vector<DataChunk> chunks_;
  std::vector<std::unique_ptr<LocalSinkState>> locals_;
};

}  // namespace

Result<std::unique_ptr<Sink>> MakeSort(const LogicalOperator& node, const std::map<ColumnId, Value>* outer, QueryContext& context) {
  const auto& input = node.children[0]->output;
  std::optional<int64_t> limit;
  int64_t offset = 0;
  const std::vector<SortKey>* order = nullptr;
  if (node.kind == LogicalKind::kTopN) {
    const auto& top = node.As<LogicalTopN>();
    order = &top.order;
    limit = top.limit;
    offset = top.offset;
  } else {
    order = &node.As<LogicalSort>().order;
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<SortSpec> specs, CompileSortSpecs(*order, input, outer));
  std::vector<SqlType> types;
  for (const auto& c : input) types.push_back(c.type);
  return std::unique_ptr<Sink>(std::make_unique<SortSink>(std::move(types), std::move(specs), limit, offset));
}

}  // namespace floe::sql
