// The spill sink: evaluates the key expressions of each chunk, hashes the keys as a hash table
// would, and appends the rows to the partitions of their hashes (spill.h). Holds no state of its
// own, so any number of workers share it.
#include "sql/execution/key_table.h"
#include "sql/execution/physical_operator.h"
#include "sql/execution/spill.h"

namespace floe::sql {
namespace {

class SpillSink final : public Sink {
 public:
  SpillSink(std::vector<ExprNodePtr> keys, SpillPartitions& partitions) : keys_(std::move(keys)), partitions_(partitions) {}

  std::unique_ptr<LocalSinkState> MakeLocal(QueryContext&) override { return std::make_unique<LocalSinkState>(); }
  Status Consume(LocalSinkState&, DataChunk&& chunk, QueryContext& context) override {
    FLOE_ASSIGN_OR_RETURN(EvaluatedKeys keys, EvaluateKeys(keys_, chunk, context));
    KeyEncoder encoder;
    encoder.Encode(keys.columns, chunk.rows);
    std::vector<uint64_t> hashes(static_cast<size_t>(chunk.rows));
    for (int64_t i = 0; i < chunk.rows; ++i) hashes[static_cast<size_t>(i)] = encoder.hash(i);
    return partitions_.Add(chunk, hashes);
  }
  Status Combine(std::unique_ptr<LocalSinkState>, QueryContext&) override { return OkStatus(); }
  Result<Materialized> Finalize(QueryContext&) override { return Materialized{}; }

 private:
  std::vector<ExprNodePtr> keys_;
  SpillPartitions& partitions_;
};

}  // namespace

Result<std::unique_ptr<Sink>> MakeSpillSink(const std::vector<const BoundExpr*>& keys, const ColumnLayout& layout,
                                            SpillPartitions& partitions) {
  std::vector<ExprNodePtr> compiled;
  for (const BoundExpr* k : keys) {
    FLOE_ASSIGN_OR_RETURN(auto node, CompileExpression(*k, layout));
    compiled.push_back(std::move(node));
  }
  return std::unique_ptr<Sink>(std::make_unique<SpillSink>(std::move(compiled), partitions));
}

}  // namespace floe::sql
