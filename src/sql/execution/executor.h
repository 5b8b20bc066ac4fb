// The executor: turns an optimized logical plan into pipelines of physical operators
// (sql/physical_operator.h) and runs them on worker threads, morsel by morsel. Breakers
// (aggregation, sorting, join builds, set operations, windows) are materialized first; the
// last pipeline streams its chunks to the caller. It also runs subqueries for expressions,
// with the outer columns of a correlated subquery bound to values. One Executor runs one
// statement; it is used from the statement's thread and (for subqueries) its workers.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "base/result.h"
#include "sql/execution/physical_operator.h"
#include "sql/execution/query_context.h"
#include "sql/planner/logical_plan.h"

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
  // As MaterializeBreaker, once per query for subplans with the same ReusableResultKey.
  Result<Materialized> MaterializeShared(const LogicalOperator& op, const std::map<ColumnId, Value>* outer);
  Status RunPipeline(Pipeline& pipeline, Sink& sink);
  // Whether `error` is the memory limit refusing an operator that may spill instead (the
  // query allows it; not inside a correlated subquery's per-row run).
  bool ShouldSpill(const Error& error, const std::map<ColumnId, Value>* outer);
  // Runs `plan`'s pipeline into partitions by the hash of `keys` (spill.h).
  Result<std::unique_ptr<SpillPartitions>> Spill(const LogicalOperator& plan, const std::vector<const BoundExpr*>& keys,
                                                 std::string_view what, const std::map<ColumnId, Value>* outer);
  // A join whose build side passed the memory limit, as a grace hash join of spilled sides.
  Result<Pipeline> BuildGraceHashJoin(const LogicalJoin& join, const Error& limit,
                                      const std::map<ColumnId, Value>* outer);
  // A grouped aggregation whose groups passed the memory limit, one partition of its input at a time.
  Result<Materialized> AggregateSpilled(const LogicalAggregate& aggregate, const std::map<ColumnId, Value>* outer);
  // A sort past the memory limit: its input read again into sorted runs on disk, merged.
  Result<Pipeline> BuildExternalSort(const LogicalSort& sort, const std::map<ColumnId, Value>* outer);
  Status Push(Pipeline& pipeline, size_t stage, DataChunk&& chunk, Sink& sink, LocalSinkState& local);
  // WITH RECURSIVE: the anchor's rows, then rounds of the step over the previous round's rows
  // (its kWorkingTable) until a round adds none; UNION keeps only rows not seen before.
  Result<Materialized> RecursiveCte(const LogicalRecursiveCte& op, const std::map<ColumnId, Value>* outer);
  // LATERAL (lateral_join.cc): the right child run per distinct values of the left columns it
  // reads, each left row paired with the rows its run gives.
  Result<Materialized> LateralJoin(const LogicalLateralJoin& op, const std::map<ColumnId, Value>* outer);

  QueryContext& context_;
  // The rows of the current round of each recursive CTE being computed, by the thread computing
  // it (correlated subqueries run on the workers that evaluate them) and its working_table.
  std::mutex working_tables_mutex_;
  std::map<std::pair<std::thread::id, int32_t>, Materialized> working_tables_;
  std::mutex shared_mutex_;
  std::map<std::string, Materialized> shared_results_;  // By ReusableResultKey.
};

}  // namespace floe::sql
