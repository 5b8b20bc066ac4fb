// LIMIT/OFFSET as a stream operator. Workers claim row ranges of the input with one atomic
// counter, so the operator keeps exactly `limit` rows after `offset` however chunks interleave
// (which rows is only defined when the input is ordered, and then one worker runs).
#include <atomic>

#include "sql/execution/physical_operator.h"

namespace floe::sql {
namespace {

class LimitOperator final : public StreamOperator {
 public:
  LimitOperator(std::optional<int64_t> limit, int64_t offset) : limit_(limit), offset_(offset) {}

  Status Process(DataChunk&& chunk, QueryContext&, const ChunkCallback& next) const override {
    int64_t end = limit_ ? offset_ + *limit_ : INT64_MAX;
    int64_t start = seen_.fetch_add(chunk.rows);
    if (start + chunk.rows >= end) done_.store(true);
    int64_t from = std::max<int64_t>(offset_ - start, 0);
    int64_t to = std::min<int64_t>(chunk.rows, end - start);
    if (to <= from) return OkStatus();
    return next(SliceChunk(chunk, from, to - from));
  }

  bool Done() const override { return done_.load(); }

 private:
  std::optional<int64_t> limit_;
  int64_t offset_;
  mutable std::atomic<int64_t> seen_{0};
  mutable std::atomic<bool> done_{false};
};

}  // namespace

std::unique_ptr<StreamOperator> MakeLimit(std::optional<int64_t> limit, int64_t offset) {
  return std::make_unique<LimitOperator>(limit, offset);
}

}  // namespace floe::sql
