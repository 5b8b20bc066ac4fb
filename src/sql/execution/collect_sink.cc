// Collects chunks as they arrive (materializing an input for a later step).
#include "sql/execution/physical_operator.h"

namespace floe::sql {
namespace {

class CollectLocal final : public LocalSinkState {
 public:
  CollectLocal(MemoryTracker& tracker, const std::string& name) : reservation(tracker, name) {}
  std::vector<DataChunk> chunks;
  MemoryReservation reservation;
};

class CollectSink final : public Sink {
 public:
  explicit CollectSink(std::string name) : name_(std::move(name)) {}

  std::unique_ptr<LocalSinkState> MakeLocal(QueryContext& context) override { return std::make_unique<CollectLocal>(context.memory(), name_); }
  Status Consume(LocalSinkState& state, DataChunk&& chunk, QueryContext&) override {
    auto& local = static_cast<CollectLocal&>(state);
    FLOE_RETURN_IF_ERROR(local.reservation.Grow(chunk.Bytes()));
    local.chunks.push_back(std::move(chunk));
    return OkStatus();
  }
  Status Combine(std::unique_ptr<LocalSinkState> state, QueryContext&) override {
    auto& local = static_cast<CollectLocal&>(*state);
    for (auto& c : local.chunks) result_.chunks.push_back(std::move(c));
    local.chunks.clear();
    locals_.push_back(std::move(state));
    return OkStatus();
  }
  Result<Materialized> Finalize(QueryContext&) override { return std::move(result_); }

 private:
  std::string name_;
  Materialized result_;
  std::vector<std::unique_ptr<LocalSinkState>> locals_;  // Hold the reservations while the result lives.
};

}  // namespace

std::unique_ptr<Sink> MakeCollect(std::string operator_name) { return std::make_unique<CollectSink>(std::move(operator_name)); }

}  // namespace floe::sql
