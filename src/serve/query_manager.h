// Admission, execution and bookkeeping of every query the server runs, whatever the protocol.
//
// At most `max_running` queries run at once, each on a worker thread of its own; the rest wait
// in a FIFO queue of at most `max_queued` (beyond it a query fails at once with
// QUERY_QUEUE_FULL). A watchdog thread fails queries past their time limit. Queries are kept
// by id for polling and cancellation, and the last `history_size` form the history the console
// shows (older ones stay findable by id for `min_retention`). Owned by the QueryServer; every method is thread-safe.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/metrics.h"
#include "base/thread_pool.h"
#include "serve/query.h"
#include "sql/catalog/catalog.h"

namespace floe::serve {

struct QueryManagerOptions {
  int max_running = 4;
  int max_queued = 1000;
  QueryLimits limits;
  size_t history_size = 200;
  // A finished query stays known by id at least this long, so that a client paging through
  // its result (Trino) finds it even when the history has moved on; up to a hard cap.
  std::chrono::seconds min_retention{300};
  size_t max_retained = 20'000;
};

class QueryManager {
 public:
  // `catalog` and `metrics` (may be null) outlive the manager.
  QueryManager(sql::SqlCatalog& catalog, QueryManagerOptions options, MetricsRegistry* metrics);
  ~QueryManager();  // Cancels what is queued or running, waits for the workers.
  QueryManager(const QueryManager&) = delete;
  QueryManager& operator=(const QueryManager&) = delete;

  // Queues `request`; `on_done` (optional) runs once when the query ends, on whichever thread
  // ends it. A full queue gives a query that has already failed.
  std::shared_ptr<Query> Submit(QueryRequest request, std::function<void()> on_done = {});

  // A query still known by id (running, queued or in the history), or null.
  std::shared_ptr<Query> Find(std::string_view id) const;
  // Cancels by id; false when unknown.
  bool Cancel(std::string_view id);
  // Newest first.
  std::vector<std::shared_ptr<Query>> Recent() const;

  int running() const;
  int queued() const;
  const QueryManagerOptions& options() const { return options_; }
  const sql::SqlCatalog& catalog() const { return catalog_; }

 private:
  void Run(const std::shared_ptr<Query>& query);
  void Watch();
  std::string NextId();

  sql::SqlCatalog& catalog_;
  const QueryManagerOptions options_;
  MetricsRegistry* metrics_;
  ThreadPool workers_;

  mutable std::mutex mu_;
  std::condition_variable stop_watch_;
  bool stopping_ = false;                                          // Guarded by mu_.
  uint64_t sequence_ = 0;                                          // Guarded by mu_.
  int queued_ = 0;                                                 // Guarded by mu_.
  int running_ = 0;                                                // Guarded by mu_.
  std::map<std::string, std::shared_ptr<Query>, std::less<>> by_id_;  // Guarded by mu_.
  std::deque<std::shared_ptr<Query>> order_;                       // Guarded by mu_; oldest first.
  std::set<std::shared_ptr<Query>> admitted_;  // Guarded by mu_; handed to a worker, not yet back.
  std::thread watchdog_;
};

}  // namespace floe::serve
