// One submitted query from admission to its result: its id, state (QUEUED, RUNNING, FINISHED,
// FAILED, CANCELED), the outcomes of its statements or its error, and its timings. Shared
// (shared_ptr) by the QueryManager, the worker that runs it and the protocol handlers that
// poll, page and cancel it; every method is thread-safe. The result is immutable once done();
// a streamed result flows through stream() meanwhile and is closed when the query ends.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "serve/query_error.h"
#include "serve/result_stream.h"
#include "serve/session_state.h"
#include "serve/statement_runner.h"

namespace floe::serve {

enum class QueryState { kQueued, kRunning, kFinished, kFailed, kCanceled };
std::string_view QueryStateName(QueryState state);  // "QUEUED", ...

struct QueryRequest {
  std::string sql;
  SessionState session;
  std::string protocol;  // "trino", "postgres", "http": for the history and metrics.
  std::shared_ptr<StatementInterceptor> interceptor;  // May be null.
  // Stream the rows through stream() as they are made (the outcomes then carry none) instead of
  // keeping them in the outcomes.
  bool stream = false;
  bool last_statement_rows_only = false;  // Of a streamed query: Trino shows one result.
  // A query whose client has not touched it for this long is canceled (0: never): a Trino client
  // that stopped polling.
  std::chrono::milliseconds abandon_after{0};
};

struct QueryLimits {
  std::chrono::milliseconds max_run_time{300'000};
  // Of the engine's operator state per statement, and of a result kept whole (not streamed).
  int64_t max_memory_bytes = 1LL << 30;
  // Where joins and aggregations past max_memory_bytes spill (empty: the temporary folder).
  std::string spill_dir;
  int64_t max_buffered_bytes = 4 << 20;  // Of a streamed result not yet taken by its client.
};

class Query {
 public:
  using Clock = std::chrono::steady_clock;

  Query(std::string id, QueryRequest request, QueryLimits limits);

  const std::string& id() const { return id_; }
  const QueryRequest& request() const { return request_; }
  const QueryLimits& limits() const { return limits_; }
  QueryState state() const;
  bool done() const;

  // Blocks until done() or `timeout` passes; returns done().
  bool Wait(std::chrono::milliseconds timeout);
  // Runs `callback` once the query is done (at once, on this thread, if it already is).
  void OnDone(std::function<void()> callback);

  // Ends the query as CANCELED unless it already ended; the engine sees cancel_flag().
  void Cancel();
  // Fails a running query past its time limit, or cancels one its client abandoned; true when
  // it did.
  bool EnforceTimeLimit(Clock::time_point now);
  // The client is still there (it polled); see QueryRequest::abandon_after.
  void Touch();

  // The rows on their way to the client when request().stream; null otherwise.
  const std::shared_ptr<ResultStream>& stream() const { return stream_; }

  // Valid once done(): the statements' outcomes (those that succeeded) and the error, if any.
  const std::vector<StatementOutcome>& outcomes() const { return outcomes_; }
  const std::optional<QueryError>& error() const { return error_; }
  const SessionState& session_after() const { return session_after_; }

  // Worker side.
  bool MarkRunning();  // False when the query was canceled while queued.
  void Finish(RunOutput output);
  void Fail(QueryError error, QueryState state = QueryState::kFailed);
  const std::atomic<bool>& cancel_flag() const { return cancel_; }

  // Milliseconds spent queued and running so far (or in total, once done).
  int64_t queued_millis() const;
  // When the query ended; nullopt while it runs.
  std::optional<Clock::time_point> ended_at() const;
  int64_t elapsed_millis() const;
  int64_t result_rows() const { return result_rows_.load(); }
  int64_t result_bytes() const { return result_bytes_.load(); }
  // The most result bytes the server held at once for this query (the buffer of a streamed one).
  int64_t peak_buffered_bytes() const;
  // {"id", "state", "sql", "user", "protocol", "created", "queuedMillis", "elapsedMillis", "rows", "error"}
  nlohmann::json Info() const;

 private:
  // Closes the stream, wakes waiters and runs callbacks.
  void Complete(std::unique_lock<std::mutex>& lock, bool discard);

  const std::string id_;
  const QueryRequest request_;
  const QueryLimits limits_;
  const std::chrono::system_clock::time_point created_wall_;
  const Clock::time_point created_;
  std::atomic<bool> cancel_{false};
  std::atomic<int64_t> result_rows_{0};
  std::atomic<int64_t> result_bytes_{0};
  const std::shared_ptr<ResultStream> stream_;
  std::atomic<int64_t> touched_nanos_;  // Clock time of the client's last poll.

  mutable std::mutex mu_;
  std::condition_variable changed_;
  QueryState state_ = QueryState::kQueued;  // Guarded by mu_.
  Clock::time_point started_{};             // Guarded by mu_.
  Clock::time_point ended_{};               // Guarded by mu_.
  std::vector<std::function<void()>> callbacks_;  // Guarded by mu_.
  // Written once under mu_ before state_ becomes final, then read-only.
  std::vector<StatementOutcome> outcomes_;
  std::optional<QueryError> error_;
  SessionState session_after_;
};

}  // namespace floe::serve
