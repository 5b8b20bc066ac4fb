#include "sql/execution/executor.h"

#include <atomic>
#include <mutex>
#include <thread>

#include "sql/execution/key_table.h"
#include "sql/planner/result_key.h"

namespace floe::sql {
namespace {

// Partitions of a spilled join or aggregation: each holds about 1/32 of the state that did
// not fit, so state up to about 30 times the memory limit (less what else the query holds)
// completes.
constexpr int kSpillPartitions = 32;

// Rounds a recursive CTE may take (about 15 seconds of one-row rounds): a step that never stops
// adding rows fails with an error instead of running until the memory limit, rounds later.
constexpr int64_t kMaxRecursionRounds = 1'000'000;

// Returned through a scan's batch callback to stop reading early (a limit was reached); never
// leaves the executor.
constexpr std::string_view kStopMarker = "\x01stop";

bool IsStop(const Error& e) { return e.kind() == ErrorKind::kInternal && e.message() == kStopMarker; }

bool Done(const std::vector<std::unique_ptr<StreamOperator>>& operators) {
  for (const auto& op : operators) {
    if (op->Done()) return true;
  }
  return false;
}

class CallbackSink final : public Sink {
 public:
  explicit CallbackSink(const ChunkCallback& out) : out_(out) {}
  std::unique_ptr<LocalSinkState> MakeLocal(QueryContext&) override { return std::make_unique<LocalSinkState>(); }
  Status Consume(LocalSinkState&, DataChunk&& chunk, QueryContext&) override {
    std::lock_guard lock(mutex_);
    return out_(std::move(chunk));
  }
  Status Combine(std::unique_ptr<LocalSinkState>, QueryContext&) override { return OkStatus(); }
  Result<Materialized> Finalize(QueryContext&) override { return Materialized{}; }

 private:
  const ChunkCallback& out_;
  std::mutex mutex_;
};

void Count(QueryContext& context, const LogicalOperator* node, int64_t rows) {
  if (node == nullptr) return;
  OperatorStats& stats = context.StatsFor(node);
  stats.rows.fetch_add(rows, std::memory_order_relaxed);
  stats.batches.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

Result<Executor::Pipeline> Executor::Build(const LogicalOperator& op, const std::map<ColumnId, Value>* outer) {
  Pipeline p;
  p.serial = outer != nullptr && !outer->empty();
  auto extend = [&](const LogicalOperator& child) -> Status {
    FLOE_ASSIGN_OR_RETURN(p, Build(child, outer));
    return OkStatus();
  };
  switch (op.kind) {
    case LogicalKind::kScan: {
      const auto& scan = op.As<LogicalScan>();
      FLOE_ASSIGN_OR_RETURN(p.source, MakeScanSource(scan, context_));
      const ScanPredicate& predicate = *context_.dynamic_filters().PredicateFor(scan);
      if (!predicate.empty()) {
        p.producers.push_back(nullptr);
        FLOE_ASSIGN_OR_RETURN(auto filter, MakeScanFilter(scan, predicate, ColumnLayout::Of(op.output, outer)));
        p.operators.push_back(std::move(filter));
      }
      p.producers.push_back(&op);
      return p;
    }
    case LogicalKind::kValues: {
      FLOE_ASSIGN_OR_RETURN(Materialized rows, EvaluateValues(op.As<LogicalValues>(), outer, context_));
      p.source = MakeMaterializedSource(std::move(rows));
      p.producers.push_back(&op);
      return p;
    }
    case LogicalKind::kEmpty: {
      p.source = MakeMaterializedSource(Materialized{});
      p.producers.push_back(&op);
      return p;
    }
    case LogicalKind::kWorkingTable: {
      int32_t working_table = op.As<LogicalWorkingTable>().working_table;
      Materialized rows;
      {
        std::lock_guard lock(working_tables_mutex_);
        auto it = working_tables_.find({std::this_thread::get_id(), working_table});
        if (it == working_tables_.end())
          return Internal("working table {} read outside its recursive CTE", working_table);
        rows = it->second;  // Chunks share their vectors.
      }
      p.source = MakeMaterializedSource(std::move(rows));
      p.producers.push_back(&op);
      return p;
    }
    case LogicalKind::kFilter: {
      FLOE_RETURN_IF_ERROR(extend(*op.children[0]));
      std::vector<BoundExprPtr> owned;
      SplitConjunction(op.As<LogicalFilter>().predicate->Clone(), owned);
      std::vector<const BoundExpr*> terms;
      for (const auto& t : owned) terms.push_back(t.get());
      FLOE_ASSIGN_OR_RETURN(auto filter, MakeFilter(std::move(terms), ColumnLayout::Of(op.children[0]->output, outer)));
      p.operators.push_back(std::move(filter));
      p.producers.push_back(&op);
      return p;
    }
    case LogicalKind::kProject: {
      FLOE_RETURN_IF_ERROR(extend(*op.children[0]));
      FLOE_ASSIGN_OR_RETURN(auto project, MakeProject(op.As<LogicalProject>().expressions,
                                                      ColumnLayout::Of(op.children[0]->output, outer)));
      p.operators.push_back(std::move(project));
      p.producers.push_back(&op);
      return p;
    }
    case LogicalKind::kUnnest: {
      FLOE_RETURN_IF_ERROR(extend(*op.children[0]));
      FLOE_ASSIGN_OR_RETURN(auto unnest,
                            MakeUnnest(op.As<LogicalUnnest>(), ColumnLayout::Of(op.children[0]->output, outer)));
      p.operators.push_back(std::move(unnest));
      p.producers.push_back(&op);
      return p;
    }
    case LogicalKind::kLimit: {
      FLOE_RETURN_IF_ERROR(extend(*op.children[0]));
      const auto& limit = op.As<LogicalLimit>();
      p.operators.push_back(MakeLimit(limit.limit, limit.offset));
      p.producers.push_back(&op);
      return p;
    }
    case LogicalKind::kJoin: {
      const auto& join = op.As<LogicalJoin>();
      Result<Materialized> build = Materialize(*op.children[1], outer);
      if (!build.has_value()) {
        if (ShouldSpill(build.error(), outer)) return BuildGraceHashJoin(join, build.error(), outer);
        return std::unexpected(build.error());
      }
      if (build->rows() == 0 && DropsUnmatchedProbeRows(join.join_type)) {
        // Nothing can match: the probe side is not read at all.
        p.source = MakeMaterializedSource(Materialized{});
        p.producers.push_back(&op);
        return p;
      }
      // A correlated subquery's joins run per outer row: their ranges would say little.
      if (outer == nullptr || outer->empty()) context_.dynamic_filters().Publish(join, *build);
      FLOE_RETURN_IF_ERROR(extend(*op.children[0]));
      auto probe = MakeHashJoinProbe(join, std::move(*build), outer, context_);
      if (!probe.has_value()) {
        if (!ShouldSpill(probe.error(), outer)) return std::unexpected(probe.error());
        p = Pipeline{};  // Releases the probe side's operators before the sides are read again.
        return BuildGraceHashJoin(join, probe.error(), outer);
      }
      p.operators.push_back(std::move(*probe));
      p.producers.push_back(&op);
      return p;
    }
    default: {
      Result<Materialized> result = MaterializeShared(op, outer);
      if (!result.has_value()) {
        if (op.kind == LogicalKind::kSort && ShouldSpill(result.error(), outer)) {
          return BuildExternalSort(op.As<LogicalSort>(), outer);
        }
        return std::unexpected(result.error());
      }
      p.source = MakeMaterializedSource(std::move(*result));
      p.producers.push_back(nullptr);  // MaterializeBreaker counted the rows.
      return p;
    }
  }
}

Result<Materialized> Executor::MaterializeShared(const LogicalOperator& op, const std::map<ColumnId, Value>* outer) {
  // Only aggregations are worth a key (a CTE's grouped result); a correlated run's rows depend
  // on its outer values.
  bool eligible = (op.kind == LogicalKind::kAggregate || op.kind == LogicalKind::kDistinct) && (outer == nullptr || outer->empty());
  std::optional<std::string> key = eligible ? ReusableResultKey(op) : std::nullopt;
  if (key) {
    std::lock_guard lock(shared_mutex_);
    if (auto it = shared_results_.find(*key); it != shared_results_.end()) {
      OperatorStats& stats = context_.StatsFor(&op);
      stats.shared_result = true;
      stats.rows += it->second.rows();
      return it->second;  // Chunks share their vectors.
    }
  }
  FLOE_ASSIGN_OR_RETURN(Materialized result, MaterializeBreaker(op, outer));
  if (key) {
    std::lock_guard lock(shared_mutex_);
    shared_results_.emplace(*key, result);
  }
  return result;
}

Result<Materialized> Executor::MaterializeBreaker(const LogicalOperator& op, const std::map<ColumnId, Value>* outer) {
  Result<Materialized> result = Materialized{};
  switch (op.kind) {
    case LogicalKind::kAggregate:
    case LogicalKind::kDistinct:
    case LogicalKind::kSort:
    case LogicalKind::kTopN: {
      std::unique_ptr<Sink> sink;
      {
        FLOE_ASSIGN_OR_RETURN(Pipeline p, Build(*op.children[0], outer));
        if (op.kind == LogicalKind::kAggregate) {
          FLOE_ASSIGN_OR_RETURN(sink, MakeHashAggregate(op.As<LogicalAggregate>(), outer, context_));
        } else if (op.kind == LogicalKind::kDistinct) {
          FLOE_ASSIGN_OR_RETURN(sink, MakeDistinct(op.As<LogicalDistinct>(), context_));
        } else {
          FLOE_ASSIGN_OR_RETURN(sink, MakeSort(op, outer, context_));
        }
        Status run = RunPipeline(p, *sink);
        result = run.has_value() ? sink->Finalize(context_) : Result<Materialized>(std::unexpected(run.error()));
      }
      if (!result.has_value() && op.kind == LogicalKind::kAggregate && !op.As<LogicalAggregate>().groups.empty() &&
          ShouldSpill(result.error(), outer)) {
        sink.reset();  // Its tables go before the input is read again.
        result = AggregateSpilled(op.As<LogicalAggregate>(), outer);
      }
      break;
    }
    case LogicalKind::kSetOp: {
      FLOE_ASSIGN_OR_RETURN(Materialized left, Materialize(*op.children[0], outer));
      FLOE_ASSIGN_OR_RETURN(Materialized right, Materialize(*op.children[1], outer));
      result = ExecuteSetOperation(op.As<LogicalSetOp>(), std::move(left), std::move(right), context_);
      break;
    }
    case LogicalKind::kWindow: {
      FLOE_ASSIGN_OR_RETURN(Materialized input, Materialize(*op.children[0], outer));
      result = ExecuteWindow(op.As<LogicalWindow>(), std::move(input), outer, context_);
      break;
    }
    case LogicalKind::kRecursiveCte:
      result = RecursiveCte(op.As<LogicalRecursiveCte>(), outer);
      break;
    case LogicalKind::kLateralJoin:
      result = LateralJoin(op.As<LogicalLateralJoin>(), outer);
      break;
    default:
      return Internal("operator {} is not a pipeline breaker", static_cast<int>(op.kind));
  }
  if (result.has_value()) {
    OperatorStats& stats = context_.StatsFor(&op);
    stats.rows.fetch_add(result->rows());
    stats.batches.fetch_add(static_cast<int64_t>(result->chunks.size()));
  }
  return result;
}

bool Executor::ShouldSpill(const Error& error, const std::map<ColumnId, Value>* outer) {
  // The memory tracker says whether this kResourceExhausted was the memory limit (a time limit
  // has the same kind and must not start a spill).
  bool memory = error.kind() == ErrorKind::kResourceExhausted && context_.memory().TakeExceeded();
  return memory && context_.options().spill && (outer == nullptr || outer->empty());
}

Result<std::unique_ptr<SpillPartitions>> Executor::Spill(const LogicalOperator& plan, const std::vector<const BoundExpr*>& keys,
                                                         std::string_view what, const std::map<ColumnId, Value>* outer) {
  std::vector<SqlType> types;
  for (const auto& c : plan.output) types.push_back(c.type);
  FLOE_ASSIGN_OR_RETURN(auto partitions, SpillPartitions::Create(context_.spill_folder(), what, std::move(types), kSpillPartitions));
  FLOE_ASSIGN_OR_RETURN(Pipeline p, Build(plan, outer));
  FLOE_ASSIGN_OR_RETURN(auto sink, MakeSpillSink(keys, ColumnLayout::Of(plan.output, outer), *partitions));
  FLOE_RETURN_IF_ERROR(RunPipeline(p, *sink));
  FLOE_RETURN_IF_ERROR(partitions->Finish());
  return partitions;
}

Result<Executor::Pipeline> Executor::BuildGraceHashJoin(const LogicalJoin& join, const Error& limit,
                                                        const std::map<ColumnId, Value>* outer) {
  JoinKeys keys = SplitJoinCondition(join);
  if (keys.probe.empty()) return std::unexpected(limit);  // No keys to partition by.
  std::vector<const BoundExpr*> probe_keys, build_keys;
  for (const auto& k : keys.probe) probe_keys.push_back(k.get());
  for (const auto& k : keys.build) build_keys.push_back(k.get());
  FLOE_ASSIGN_OR_RETURN(auto build, Spill(*join.children[1], build_keys, "join-build", outer));
  FLOE_ASSIGN_OR_RETURN(auto probe, Spill(*join.children[0], probe_keys, "join-probe", outer));
  Pipeline p;
  p.source = MakeGraceHashJoinSource(join, std::move(probe), std::move(build), outer);
  p.producers.push_back(&join);
  context_.StatsFor(&join).spilled = true;
  return p;
}

Result<Materialized> Executor::AggregateSpilled(const LogicalAggregate& aggregate,
                                                const std::map<ColumnId, Value>* outer) {
  std::vector<const BoundExpr*> keys;
  for (const auto& g : aggregate.groups) keys.push_back(g.get());
  FLOE_ASSIGN_OR_RETURN(auto partitions, Spill(*aggregate.children[0], keys, "aggregate", outer));
  context_.StatsFor(&aggregate).spilled = true;
  Materialized out;
  for (int part = 0; part < partitions->partitions(); ++part) {
    if (partitions->rows(part) == 0) continue;
    Pipeline p;
    Materialized input;
    FLOE_ASSIGN_OR_RETURN(input.chunks, partitions->Read(part));
    p.source = MakeMaterializedSource(std::move(input));
    p.producers.push_back(nullptr);
    FLOE_ASSIGN_OR_RETURN(auto sink, MakeHashAggregate(aggregate, outer, context_));
    FLOE_RETURN_IF_ERROR(RunPipeline(p, *sink));
    FLOE_ASSIGN_OR_RETURN(Materialized groups, sink->Finalize(context_));
    for (auto& chunk : groups.chunks) out.chunks.push_back(std::move(chunk));
  }
  return out;
}

Result<Executor::Pipeline> Executor::BuildExternalSort(const LogicalSort& sort,
                                                       const std::map<ColumnId, Value>* outer) {
  Pipeline p;
  auto run_input = [&](Sink& runs) -> Status {
    FLOE_ASSIGN_OR_RETURN(Pipeline input, Build(*sort.children[0], outer));
    return RunPipeline(input, runs);
  };
  FLOE_ASSIGN_OR_RETURN(p.source, SortSpilled(sort, outer, run_input, context_));
  p.producers.push_back(&sort);
  context_.StatsFor(&sort).spilled = true;
  return p;
}

Result<Materialized> Executor::Materialize(const LogicalOperator& plan, const std::map<ColumnId, Value>* outer) {
  bool breaker = plan.kind == LogicalKind::kAggregate || plan.kind == LogicalKind::kDistinct ||
                 plan.kind == LogicalKind::kSort || plan.kind == LogicalKind::kTopN ||
                 plan.kind == LogicalKind::kSetOp || plan.kind == LogicalKind::kWindow ||
                 plan.kind == LogicalKind::kRecursiveCte || plan.kind == LogicalKind::kLateralJoin;
  Pipeline p;
  if (breaker) {
    Result<Materialized> result = MaterializeShared(plan, outer);
    // A sort that spilled still has to be held whole here (a window's or a join's input).
    if (result.has_value() || plan.kind != LogicalKind::kSort || !ShouldSpill(result.error(), outer)) return result;
    FLOE_ASSIGN_OR_RETURN(p, BuildExternalSort(plan.As<LogicalSort>(), outer));
  } else {
    FLOE_ASSIGN_OR_RETURN(p, Build(plan, outer));
  }
  bool ordered = p.source->ordered();
  auto sink = MakeCollect("Collect");
  FLOE_RETURN_IF_ERROR(RunPipeline(p, *sink));
  FLOE_ASSIGN_OR_RETURN(Materialized out, sink->Finalize(context_));
  out.ordered = ordered;
  return out;
}

Result<Materialized> Executor::RecursiveCte(const LogicalRecursiveCte& op, const std::map<ColumnId, Value>* outer) {
  KeyTable seen;  // UNION: every row so far, to keep only new ones.
  KeyEncoder encoder;
  // The rows of `round` not seen before (all of them for UNION ALL), recorded as seen.
  auto fresh = [&](Materialized round) -> Materialized {
    if (op.set_all) return round;
    Materialized out;
    for (DataChunk& chunk : round.chunks) {
      std::vector<const ColumnVector*> columns;
      for (const VectorPtr& c : chunk.columns) columns.push_back(c.get());
      encoder.Encode(columns, chunk.rows);
      std::vector<uint32_t> rows;
      for (int64_t r = 0; r < chunk.rows; ++r) {
        bool inserted = false;
        seen.FindOrInsert(encoder.key(r), encoder.hash(r), inserted);
        if (inserted) rows.push_back(static_cast<uint32_t>(r));
      }
      if (rows.size() == static_cast<size_t>(chunk.rows)) {
        out.chunks.push_back(std::move(chunk));
      } else if (!rows.empty()) {
        out.chunks.push_back(GatherChunk(chunk, rows));
      }
    }
    return out;
  };
  const auto key = std::make_pair(std::this_thread::get_id(), op.working_table);
  struct Forget {  // The working table goes when the CTE is done, however it ends.
    Executor* executor;
    std::pair<std::thread::id, int32_t> key;
    ~Forget() {
      std::lock_guard lock(executor->working_tables_mutex_);
      executor->working_tables_.erase(key);
    }
  } forget{this, key};
  // The result grows each round: the memory limit, not a round count, stops a runaway.
  MemoryReservation reservation(context_.memory(), "recursive CTE");
  FLOE_ASSIGN_OR_RETURN(Materialized anchor, Materialize(*op.children[0], outer));
  Materialized all = fresh(std::move(anchor));
  Materialized round = all;
  int64_t result_bytes = 0;
  for (const DataChunk& chunk : all.chunks) result_bytes += chunk.Bytes();
  for (int64_t rounds = 0; round.rows() > 0; ++rounds) {
    FLOE_RETURN_IF_ERROR(context_.CheckInterrupt());
    if (rounds == kMaxRecursionRounds) {
      return InvalidArgument(
          "WITH RECURSIVE query still adds rows after {} rounds; does its recursive part lack a "
          "condition that ends it?",
          kMaxRecursionRounds);
    }
    {
      std::lock_guard lock(working_tables_mutex_);
      working_tables_[key] = std::move(round);
    }
    FLOE_ASSIGN_OR_RETURN(Materialized step, Materialize(*op.children[1], outer));
    round = fresh(std::move(step));
    for (const DataChunk& chunk : round.chunks) result_bytes += chunk.Bytes();
    FLOE_RETURN_IF_ERROR(reservation.Resize(result_bytes + seen.Bytes()));
    for (const DataChunk& chunk : round.chunks) all.chunks.push_back(chunk);
  }
  return all;
}

Status Executor::Run(const LogicalOperator& plan, const ChunkCallback& out) {
  FLOE_ASSIGN_OR_RETURN(Pipeline p, Build(plan, nullptr));
  CallbackSink sink(out);
  return RunPipeline(p, sink);
}

Result<std::vector<DataChunk>> Executor::RunSubquery(const LogicalOperator& plan, const std::map<ColumnId, Value>& outer) {
  FLOE_ASSIGN_OR_RETURN(Materialized m, Materialize(plan, &outer));
  return std::move(m.chunks);
}

Status Executor::Push(Pipeline& p, size_t stage, DataChunk&& chunk, Sink& sink, LocalSinkState& local) {
  Count(context_, p.producers[stage], chunk.rows);
  if (stage == p.operators.size()) return sink.Consume(local, std::move(chunk), context_);
  return p.operators[stage]->Process(std::move(chunk), context_, [&](DataChunk&& next) -> Status {
    if (next.rows == 0) return OkStatus();
    return Push(p, stage + 1, std::move(next), sink, local);
  });
}

Status Executor::RunPipeline(Pipeline& p, Sink& sink) {
  // Every node of the pipeline ran, even one that passed no rows on (EXPLAIN ANALYZE then says
  // "actual rows 0", not "not run").
  for (const LogicalOperator* node : p.producers) {
    if (node != nullptr) context_.StatsFor(node);
  }
  size_t morsels = p.source->morsel_count();
  size_t workers = 1;
  if (!p.source->ordered() && !p.serial) workers = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(context_.threads()), morsels));
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::optional<Error> error;
  auto record = [&](const Error& e) {
    std::lock_guard lock(mutex);
    if (!error) error = e;
    failed = true;
  };
  auto work = [&]() {
    auto local = sink.MakeLocal(context_);
    Status status = [&]() -> Status {
      while (!failed.load(std::memory_order_relaxed) && !Done(p.operators)) {
        FLOE_RETURN_IF_ERROR(context_.CheckInterrupt());
        size_t m = next.fetch_add(1);
        if (m >= morsels) break;
        Status read = p.source->ReadMorsel(m, context_, [&](DataChunk&& chunk) -> Status {
          if (failed.load(std::memory_order_relaxed)) return std::unexpected(Error(ErrorKind::kInternal, std::string(kStopMarker)));
          FLOE_RETURN_IF_ERROR(Push(p, 0, std::move(chunk), sink, *local));
          if (Done(p.operators)) return std::unexpected(Error(ErrorKind::kInternal, std::string(kStopMarker)));
          return OkStatus();
        });
        if (!read.has_value() && !IsStop(read.error())) return read;
      }
      return OkStatus();
    }();
    if (status.has_value()) {
      std::lock_guard lock(mutex);
      status = sink.Combine(std::move(local), context_);
    }
    if (!status.has_value()) record(status.error());
  };
  if (workers <= 1) {
    work();
  } else {
    std::vector<std::thread> threads;
    for (size_t i = 1; i < workers; ++i) threads.emplace_back(work);
    work();
    for (auto& t : threads) t.join();
  }
  p.source->Done(context_);
  if (error) return std::unexpected(*error);
  // Rows operators held back (unmatched build rows of right and full joins).
  for (size_t i = 0; i < p.operators.size(); ++i) {
    auto local = sink.MakeLocal(context_);
    FLOE_RETURN_IF_ERROR(p.operators[i]->Finish(context_, [&](DataChunk&& chunk) -> Status {
      if (chunk.rows == 0) return OkStatus();
      return Push(p, i + 1, std::move(chunk), sink, *local);
    }));
    FLOE_RETURN_IF_ERROR(sink.Combine(std::move(local), context_));
  }
  return OkStatus();
}

}  // namespace floe::sql
