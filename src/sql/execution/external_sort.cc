// ORDER BY past the memory limit: an external merge sort. Each worker collects its input up to
// its share of the limit, sorts it (sort_keys.h) and writes it as a sorted run, one spill file
// (spill.h); the output then merges the runs, holding one chunk of each and taking the smallest
// key first. Rows with equal keys come out run by run, so ties keep their input order within
// a worker; across workers input order was never defined.
#include <queue>

#include "sql/execution/physical_operator.h"
#include "sql/execution/sort_keys.h"

namespace floe::sql {
namespace {

// A run is sorted as a whole before it is written, which briefly needs about three times its
// bytes (the rows, the keys, the gathered order), none of it charged: runs are a quarter of a
// worker's share of the limit.
constexpr int64_t kSmallestRunBytes = 64 * 1024;

class RunLocal final : public LocalSinkState {
 public:
  explicit RunLocal(MemoryTracker& tracker) : reservation(tracker, "Sort") {}
  std::vector<DataChunk> chunks;
  int64_t rows = 0;
  int64_t bytes = 0;
  MemoryReservation reservation;
};

class SortedRunsSink final : public Sink {
 public:
  SortedRunsSink(std::vector<SqlType> types, std::vector<SortSpec> specs, int64_t run_bytes)
      : types_(std::move(types)), specs_(std::move(specs)), run_bytes_(run_bytes) {}

  std::unique_ptr<LocalSinkState> MakeLocal(QueryContext& context) override { return std::make_unique<RunLocal>(context.memory()); }

  Status Consume(LocalSinkState& state, DataChunk&& chunk, QueryContext& context) override {
    auto& local = static_cast<RunLocal&>(state);
    local.rows += chunk.rows;
    local.bytes += chunk.Bytes();
    local.chunks.push_back(std::move(chunk));
    if (local.bytes >= run_bytes_ || !local.reservation.Resize(local.bytes).has_value()) return WriteRun(local, context);
    return OkStatus();
  }

  Status Combine(std::unique_ptr<LocalSinkState> state, QueryContext& context) override {
    return WriteRun(static_cast<RunLocal&>(*state), context);
  }

  Result<Materialized> Finalize(QueryContext&) override { return Materialized{}; }

  std::vector<std::unique_ptr<SpillPartitions>> TakeRuns() { return std::move(runs_); }

 private:
  Status WriteRun(RunLocal& local, QueryContext& context) {
    if (local.rows == 0) return OkStatus();
    FLOE_ASSIGN_OR_RETURN(DataChunk sorted, SortRows(local.chunks, types_, specs_, local.rows, context));
    local.chunks.clear();
    local.rows = local.bytes = 0;
    FLOE_RETURN_IF_ERROR(local.reservation.Resize(0));
    FLOE_ASSIGN_OR_RETURN(auto run, SpillPartitions::Create(context.spill_folder(), "sort-run", types_, 1));
    FLOE_RETURN_IF_ERROR(run->Add(sorted, {}));
    FLOE_RETURN_IF_ERROR(run->Finish());
    std::lock_guard lock(mutex_);
    runs_.push_back(std::move(run));
    return OkStatus();
  }

  std::vector<SqlType> types_;
  std::vector<SortSpec> specs_;
  int64_t run_bytes_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<SpillPartitions>> runs_;
};

// One run being merged: its current chunk, that chunk's keys and the next row to emit.
struct RunCursor {
  std::unique_ptr<SpillPartitions::Reader> reader;
  DataChunk chunk;
  std::vector<VectorPtr> keys;
  int64_t row = 0;
};

class MergeSource final : public Source {
 public:
  MergeSource(std::vector<SqlType> types, std::vector<SortSpec> specs, std::vector<std::unique_ptr<SpillPartitions>> runs)
      : types_(std::move(types)), specs_(std::move(specs)), runs_(std::move(runs)) {}

  size_t morsel_count() const override { return 1; }
  bool ordered() const override { return true; }

  Status ReadMorsel(size_t, QueryContext& context, const ChunkCallback& out) override {
    std::vector<RunCursor> cursors(runs_.size());
    for (size_t r = 0; r < runs_.size(); ++r) {
      FLOE_ASSIGN_OR_RETURN(cursors[r].reader, runs_[r]->OpenReader(0));
    }
    // Loads the cursor's next chunk; false when its run is exhausted.
    auto advance = [&](RunCursor& c) -> Result<bool> {
      while (true) {
        FLOE_ASSIGN_OR_RETURN(std::optional<DataChunk> next, c.reader->Next());
        if (!next) return false;
        if (next->rows == 0) continue;
        c.chunk = std::move(*next);
        c.row = 0;
        FLOE_ASSIGN_OR_RETURN(c.keys, EvaluateSortKeys(specs_, c.chunk, context));
        return true;
      }
    };
    // The heap's top is the cursor with the smallest current key (the earlier run on ties).
    auto after = [&](size_t a, size_t b) {
      int c = CompareSortKeys(specs_, cursors[a].keys, cursors[a].row, cursors[b].keys, cursors[b].row);
      return c != 0 ? c > 0 : a > b;
    };
    std::priority_queue<size_t, std::vector<size_t>, decltype(after)> heap(after);
    for (size_t r = 0; r < cursors.size(); ++r) {
      FLOE_ASSIGN_OR_RETURN(bool live, advance(cursors[r]));
      if (live) heap.push(r);
    }
    auto fresh = [&] {
      std::vector<MutableVectorPtr> columns;
      for (const auto& t : types_) columns.push_back(NewVector(t, kChunkRows));
      return columns;
    };
    std::vector<MutableVectorPtr> columns = fresh();
    int64_t rows = 0;
    auto emit = [&]() -> Status {
      DataChunk chunk;
      chunk.rows = rows;
      for (auto& c : columns) chunk.columns.push_back(std::move(c));
      columns = fresh();
      rows = 0;
      FLOE_RETURN_IF_ERROR(context.CheckInterrupt());
      return out(std::move(chunk));
    };
    while (!heap.empty()) {
      size_t top = heap.top();
      heap.pop();
      RunCursor& c = cursors[top];
      for (size_t i = 0; i < columns.size(); ++i) AppendFrom(*columns[i], *c.chunk.columns[i], c.row);
      if (++rows == kChunkRows) FLOE_RETURN_IF_ERROR(emit());
      bool live = ++c.row < c.chunk.rows;
      if (!live) {
        FLOE_ASSIGN_OR_RETURN(live, advance(c));
      }
      if (live) heap.push(top);
    }
    if (rows > 0) FLOE_RETURN_IF_ERROR(emit());
    return OkStatus();
  }

 private:
  std::vector<SqlType> types_;
  std::vector<SortSpec> specs_;
  std::vector<std::unique_ptr<SpillPartitions>> runs_;
};

}  // namespace

Result<std::unique_ptr<Source>> SortSpilled(const LogicalSort& sort, const std::map<ColumnId, Value>* outer,
                                            const std::function<Status(Sink&)>& run_input, QueryContext& context) {
  std::vector<SqlType> types;
  for (const auto& c : sort.children[0]->output) types.push_back(c.type);
  FLOE_ASSIGN_OR_RETURN(std::vector<SortSpec> specs, CompileSortSpecs(sort.order, sort.children[0]->output, outer));
  int64_t share = context.options().memory_limit_bytes / std::max(1, context.threads());
  SortedRunsSink sink(types, std::move(specs), std::max(kSmallestRunBytes, share / 4));
  FLOE_RETURN_IF_ERROR(run_input(sink));
  FLOE_ASSIGN_OR_RETURN(specs, CompileSortSpecs(sort.order, sort.children[0]->output, outer));
  return std::unique_ptr<Source>(std::make_unique<MergeSource>(std::move(types), std::move(specs), sink.TakeRuns()));
}

}  // namespace floe::sql
