// The physical operators and how they connect. A query runs as pipelines: a Source split into
// morsels (table splits, or chunks of a materialized result), a chain of StreamOperators
// (filter, project, limit, hash-join probe) and a Sink (hash aggregate, sort, top-N, collect,
// the caller's result callback). Worker threads each take morsels and push chunks through the
// chain into a thread-local sink state; the states are combined at the end. Pipeline breakers
// (aggregation, sorting, join build sides, set operations, windows) finish their pipeline
// before the next one reads their output.
//
// Operator objects are built per execution and shared by that execution's workers: Process
// and ReadMorsel must be safe to call from several threads at once; per-thread state lives in
// LocalSinkState. Finish and Finalize run on one thread after the workers are done.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "base/result.h"
#include "sql/execution/expression_evaluator.h"
#include "sql/planner/logical_plan.h"
#include "sql/execution/query_context.h"
#include "sql/execution/vector.h"

namespace floe::sql {

using ChunkCallback = std::function<Status(DataChunk&&)>;

class Source {
 public:
  virtual ~Source() = default;
  virtual size_t morsel_count() const = 0;
  // Reads morsel `index`, handing each chunk to `out`.
  virtual Status ReadMorsel(size_t index, QueryContext& context, const ChunkCallback& out) = 0;
  // Whether chunks must reach the sink in morsel order (sorted input): then one worker runs.
  virtual bool ordered() const { return false; }
  // Called once after the pipeline ran (scans record their statistics).
  virtual void Done(QueryContext& context) {}
};

class StreamOperator {
 public:
  virtual ~StreamOperator() = default;
  // Transforms one chunk, handing results to `next` (zero or more times).
  virtual Status Process(DataChunk&& chunk, QueryContext& context, const ChunkCallback& next) const = 0;
  // After all workers: emits rows the operator held back (unmatched rows of a right join).
  virtual Status Finish(QueryContext& context, const ChunkCallback& next) { return OkStatus(); }
  // Whether the operator needs no more input (a limit was reached).
  virtual bool Done() const { return false; }
};

class LocalSinkState {
 public:
  virtual ~LocalSinkState() = default;
};

// A materialized result: chunks in order.
struct Materialized {
  std::vector<DataChunk> chunks;
  bool ordered = false;

  int64_t rows() const {
    int64_t n = 0;
    for (const auto& c : chunks) n += c.rows;
    return n;
  }
};

class Sink {
 public:
  virtual ~Sink() = default;
  virtual std::unique_ptr<LocalSinkState> MakeLocal(QueryContext& context) = 0;
  virtual Status Consume(LocalSinkState& local, DataChunk&& chunk, QueryContext& context) = 0;
  // Folds a worker's state into the sink; calls are serialized by the caller.
  virtual Status Combine(std::unique_ptr<LocalSinkState> local, QueryContext& context) = 0;
  virtual Result<Materialized> Finalize(QueryContext& context) = 0;
};

// ---- factories (one operator per file)

// The scan of a table or metadata table: one morsel per split (scan_source.cc).
Result<std::unique_ptr<Source>> MakeScanSource(const LogicalScan& scan, QueryContext& context);
// What a scan node asks of its catalog under the query's options; warnings go to `context`,
// which must outlive the scan.
ScanRequest MakeScanRequest(const LogicalScan& scan, QueryContext& context);
// A materialized result as a source: one morsel per chunk (values_source.cc).
std::unique_ptr<Source> MakeMaterializedSource(Materialized result);
// VALUES rows (constant expressions, or outer columns of a correlated subquery).
Result<Materialized> EvaluateValues(const LogicalValues& values, const std::map<ColumnId, Value>* outer,
                                    QueryContext& context);

// Filters by a conjunction, term by term (filter_operator.cc).
// `advisory` (by term; missing: false) marks the terms a filter may skip where they reject few rows.
Result<std::unique_ptr<StreamOperator>> MakeFilter(std::vector<const BoundExpr*> terms, const ColumnLayout& layout,
                                                   std::vector<bool> advisory = {});
// A scan's predicate (its pushed terms and residual, and any dynamic filter) as a filter over
// the scan's output.
Result<std::unique_ptr<StreamOperator>> MakeScanFilter(const LogicalScan& scan, const ScanPredicate& predicate,
                                                       const ColumnLayout& layout);
// Computes expressions (project_operator.cc).
Result<std::unique_ptr<StreamOperator>> MakeProject(const std::vector<BoundExprPtr>& expressions, const ColumnLayout& layout);
// Each row once per element of its arrays and maps (unnest_operator.cc).
Result<std::unique_ptr<StreamOperator>> MakeUnnest(const LogicalUnnest& unnest, const ColumnLayout& layout);
// Keeps rows [offset, offset + limit) of its input (limit_operator.cc).
std::unique_ptr<StreamOperator> MakeLimit(std::optional<int64_t> limit, int64_t offset);
// Reorders/selects columns: output column i is input column positions[i].
std::unique_ptr<StreamOperator> MakeSelectColumns(std::vector<size_t> positions);

// A join condition split into equi-join keys (probe[i] = build[i], each side's expression
// reading only its side) and the rest, checked on each candidate pair (hash_join.cc).
struct JoinKeys {
  std::vector<BoundExprPtr> probe, build;
  std::vector<BoundExprPtr> residual;
};
JoinKeys SplitJoinCondition(const LogicalJoin& join);

// The probe side of a hash join whose build side (children[1]) is `build` (hash_join.cc).
Result<std::unique_ptr<StreamOperator>> MakeHashJoinProbe(const LogicalJoin& join, Materialized build,
                                                          const std::map<ColumnId, Value>* outer,
                                                          QueryContext& context);

// Hash aggregation; with no aggregates it is DISTINCT over the group keys (hash_aggregate.cc).
Result<std::unique_ptr<Sink>> MakeHashAggregate(const LogicalAggregate& aggregate,
                                                const std::map<ColumnId, Value>* outer, QueryContext& context);
Result<std::unique_ptr<Sink>> MakeDistinct(const LogicalDistinct& distinct, QueryContext& context);
// ORDER BY (a LogicalSort), or its first offset + limit rows (a LogicalTopN) (sort_operator.cc).
Result<std::unique_ptr<Sink>> MakeSort(const LogicalOperator& node, const std::map<ColumnId, Value>* outer, QueryContext& context);
// A sort whose input did not fit the memory limit (external_sort.cc): `run_input` runs the
// sort's input pipeline into the sink it is given, which writes sorted runs to the query's spill
// folder; the returned source merges them in key order.
Result<std::unique_ptr<Source>> SortSpilled(const LogicalSort& sort, const std::map<ColumnId, Value>* outer,
                                            const std::function<Status(Sink&)>& run_input, QueryContext& context);
// Collects chunks in arrival order.
std::unique_ptr<Sink> MakeCollect(std::string operator_name);

// Writes its input rows into `partitions` by the hash of `keys` (spill_sink.cc).
Result<std::unique_ptr<Sink>> MakeSpillSink(const std::vector<const BoundExpr*>& keys, const ColumnLayout& layout,
                                            SpillPartitions& partitions);
// A grace hash join of spilled sides: one morsel per partition, which builds the partition's
// hash table and streams its probe rows through it (grace_hash_join.cc).
std::unique_ptr<Source> MakeGraceHashJoinSource(const LogicalJoin& join, std::unique_ptr<SpillPartitions> probe,
                                                std::unique_ptr<SpillPartitions> build,
                                                const std::map<ColumnId, Value>* outer);

// UNION/INTERSECT/EXCEPT over two materialized inputs (set_operation.cc).
Result<Materialized> ExecuteSetOperation(const LogicalSetOp& node, Materialized left, Materialized right,
                                         QueryContext& context);
// Window functions over a materialized input (window_operator.cc).
Result<Materialized> ExecuteWindow(const LogicalWindow& node, Materialized input,
                                   const std::map<ColumnId, Value>* outer, QueryContext& context);

}  // namespace floe::sql
