// The executor: turns an optimized logical plan into pipelines of physical operators
// (sql/physical_operator.h) and runs them on worker threads, morsel by morsel. Breakers
// (aggregation, sorting, join builds, set operations, windows) are materialized first; the
// last pipeline streams its chunks to the caller. It also runs subqueries for expressions,
// with the outer columns of a correlated subquery bound to values. One Executor runs one
// statement; it is used from the statement's thread and (for subqueries) its workers.
#pragma once

#include <functional>
#include <map>

#include "base/result.h"
#include "sql/logical_plan.h"
#include "sql/physical_operator.h"
#include "sql/query_context.h"

namespace floe::sql {

class Executor final : public SubqueryRunner {
 public:
  explicit Executor(QueryContext& context) : context_(context) { context_.subqueries = this; }

  // Runs `plan`, handing its result chunks to `out` one at a time, in order when the plan
  // orders its rows (columns as plan.output).
  Status Run(const LogicalOperator& plan, const ChunkCallback& out);

  // Every row of `plan`.
  Result<Materialized> Materialize(const LogicalOperator& plan, const std::map<ColumnId, Value>* outer);

  Result<std::vector<DataChunk>> RunSubquery(const LogicalOperator& plan, const std::map<ColumnId, Value>& outer) override;

 private:
  struct Pipeline {
    std::unique_ptr<Source> source;
    std::vector<std::unique_ptr<StreamOperator>> operators;
    std::vector<const LogicalOperator*> producers;  // producers[i] made the chunks entering operators[i] (or the sink).
    bool serial = false;
  };

  Result<Pipeline> Build(const LogicalOperator& op, const std::map<ColumnId, Value>* outer);
  Result<Materialized> MaterializeBreaker(const LogicalOperator& op, const std::map<ColumnId, Value>* outer);
  Status RunPipeline(Pipeline& pipeline, Sink& sink);
  Status Push(Pipeline& pipeline, size_t stage, DataChunk&& chunk, Sink& sink, LocalSinkState& local);

  QueryContext& context_;
};

}  // namespace floe::sql
