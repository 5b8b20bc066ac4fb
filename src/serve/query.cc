#include "serve/query.h"

#include <fmt/chrono.h>

namespace floe::serve {
namespace {

int64_t Millis(Query::Clock::duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

// A rough size of the buffered rows, for the memory limit.
int64_t EstimateBytes(const std::vector<StatementOutcome>& outcomes) {
  int64_t bytes = 0;
  for (const auto& outcome : outcomes) {
    for (const auto& row : outcome.result.rows) {
      for (const auto& value : row) {
        bytes += sizeof(sql::Value);
        if (!value.is_null() && (value.type().kind() == sql::TypeKind::kVarchar ||
                                 value.type().kind() == sql::TypeKind::kVarbinary)) {
          bytes += static_cast<int64_t>(value.as_string().size());
        }
      }
    }
  }
  return bytes;
}

}  // namespace

std::string_view QueryStateName(QueryState state) {
  switch (state) {
    case QueryState::kQueued: return "QUEUED";
    case QueryState::kRunning: return "RUNNING";
    case QueryState::kFinished: return "FINISHED";
    case QueryState::kFailed: return "FAILED";
    case QueryState::kCanceled: return "CANCELED";
  }
  return "FAILED";
}

Query::Query(std::string id, QueryRequest request, QueryLimits limits)
    : id_(std::move(id)),
      request_(std::move(request)),
      limits_(limits),
      created_wall_(std::chrono::system_clock::now()),
      created_(Clock::now()),
      stream_(request_.stream ? std::make_shared<ResultStream>(limits.max_buffered_bytes) : nullptr),
      touched_nanos_(created_.time_since_epoch().count()) {}

void Query::Touch() { touched_nanos_.store(Clock::now().time_since_epoch().count()); }

int64_t Query::peak_buffered_bytes() const { return stream_ ? stream_->peak_bytes() : result_bytes(); }

QueryState Query::state() const {
  std::lock_guard lock(mu_);
  return state_;
}

bool Query::done() const {
  std::lock_guard lock(mu_);
  return state_ != QueryState::kQueued && state_ != QueryState::kRunning;
}

bool Query::Wait(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return changed_.wait_for(lock, timeout, [this] {
    return state_ != QueryState::kQueued && state_ != QueryState::kRunning;
  });
}

void Query::OnDone(std::function<void()> callback) {
  {
    std::lock_guard lock(mu_);
    if (state_ == QueryState::kQueued || state_ == QueryState::kRunning) {
      callbacks_.push_back(std::move(callback));
      return;
    }
  }
  callback();
}

void Query::Cancel() {
  cancel_.store(true);
  Fail(QueryError::Canceled(), QueryState::kCanceled);
}

bool Query::EnforceTimeLimit(Clock::time_point now) {
  if (request_.abandon_after.count() > 0 &&
      now - Clock::time_point(Clock::duration(touched_nanos_.load())) > request_.abandon_after) {
    if (done()) {
      // Finished, but the client never took the rest: free it.
      if (stream_ && !stream_->Finished()) stream_->Close(/*discard=*/true);
      return false;
    }
    cancel_.store(true);
    Fail(QueryError::Abandoned(request_.abandon_after.count()), QueryState::kFailed);
    return true;
  }
  {
    std::lock_guard lock(mu_);
    if (state_ != QueryState::kRunning || now - started_ < limits_.max_run_time) return false;
  }
  cancel_.store(true);
  Fail(QueryError::TimeLimit(limits_.max_run_time.count()));
  return true;
}

bool Query::MarkRunning() {
  std::lock_guard lock(mu_);
  if (state_ != QueryState::kQueued) return false;
  state_ = QueryState::kRunning;
  started_ = Clock::now();
  return true;
}

void Query::Finish(RunOutput output) {
  int64_t bytes = EstimateBytes(output.outcomes);
  if (bytes > limits_.max_memory_bytes) {
    Fail(QueryError::MemoryLimit(limits_.max_memory_bytes));
    return;
  }
  std::unique_lock lock(mu_);
  if (state_ != QueryState::kRunning) return;  // Canceled or timed out meanwhile.
  int64_t rows = 0;
  for (const auto& outcome : output.outcomes) rows += outcome.rows;
  result_rows_.store(rows);
  result_bytes_.store(bytes);
  outcomes_ = std::move(output.outcomes);
  session_after_ = std::move(output.session);
  if (output.error.has_value()) {
    error_ = QueryError::From(*output.error, output.failed_text);
    state_ = QueryState::kFailed;
  } else {
    state_ = QueryState::kFinished;
  }
  // An engine error still lets the client have the statements that succeeded before it.
  Complete(lock, /*discard=*/false);
}

void Query::Fail(QueryError error, QueryState state) {
  std::unique_lock lock(mu_);
  if (state_ != QueryState::kQueued && state_ != QueryState::kRunning) return;
  if (state_ == QueryState::kQueued) started_ = Clock::now();
  error_ = std::move(error);
  session_after_ = request_.session;
  state_ = state;
  // Canceled or over a limit: the rest of the result is not worth sending (the client gets the error).
  Complete(lock, /*discard=*/true);
}

void Query::Complete(std::unique_lock<std::mutex>& lock, bool discard) {
  if (stream_) stream_->Close(discard);
  ended_ = Clock::now();
  if (started_ == Clock::time_point{}) started_ = ended_;
  std::vector<std::function<void()>> callbacks = std::move(callbacks_);
  callbacks_.clear();
  lock.unlock();
  changed_.notify_all();
  for (auto& callback : callbacks) callback();
}

std::optional<Query::Clock::time_point> Query::ended_at() const {
  std::lock_guard lock(mu_);
  if (state_ == QueryState::kQueued || state_ == QueryState::kRunning) return std::nullopt;
  return ended_;
}

int64_t Query::queued_millis() const {
  std::lock_guard lock(mu_);
  if (state_ == QueryState::kQueued) return Millis(Clock::now() - created_);
  return Millis(started_ - created_);
}

int64_t Query::elapsed_millis() const {
  std::lock_guard lock(mu_);
  bool ended = state_ != QueryState::kQueued && state_ != QueryState::kRunning;
  return Millis((ended ? ended_ : Clock::now()) - created_);
}

nlohmann::json Query::Info() const {
  QueryState state = this->state();
  nlohmann::json info = {
      {"id", id_},
      {"state", QueryStateName(state)},
      {"sql", request_.sql},
      {"user", request_.session.user},
      {"protocol", request_.protocol},
      {"created", fmt::format("{:%Y-%m-%dT%H:%M:%S}Z", fmt::gmtime(std::chrono::system_clock::to_time_t(created_wall_)))},
      {"queuedMillis", queued_millis()},
      {"elapsedMillis", elapsed_millis()},
      {"rows", result_rows()},
      {"peakBufferedBytes", peak_buffered_bytes()},
  };
  if (state != QueryState::kQueued && state != QueryState::kRunning && error_.has_value()) {
    info["error"] = {{"message", error_->message}, {"errorName", error_->name}};
  }
  return info;
}

}  // namespace floe::serve
