// The rows of a running query on their way to a protocol, through a bounded buffer: the query's
// worker pushes each statement's header, its row batches and its end; the protocol takes them as
// its client reads. A worker that gets ahead of its client blocks in Push once `max_bytes` of
// rows are buffered, so a slow client holds back the engine instead of making the server keep
// the whole result (backpressure). Close() ends the stream when the query ends: after a success
// the rest can still be taken; after a cancellation or a limit it is dropped and a blocked Push
// returns an error, which stops the engine.
//
// Consumers either block (WaitReadable, Trino's HTTP threads) or are told (the listener, which
// runs on the producer's thread once after a Take found nothing: PostgreSQL's coroutines post
// from it to their strand). Shared by the Query, its worker and its protocol; thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "base/result.h"
#include "serve/statement_runner.h"

namespace floe::serve {

using ResultRow = std::vector<sql::Value>;

struct StreamItem {
  enum class Kind { kBegin, kRows, kEnd };
  Kind kind = Kind::kRows;
  // kBegin: the statement's verb and columns (has_rows); kEnd: also its message, affected count
  // and warnings. Never holds rows.
  std::shared_ptr<const StatementOutcome> statement;
  std::vector<ResultRow> rows;  // kRows.
};

// A rough size of a row on the wire, the unit of the bound and of Trino's page size.
int64_t EstimateRowBytes(const ResultRow& row);

class ResultStream {
 public:
  explicit ResultStream(int64_t max_bytes) : max_bytes_(max_bytes) {}

  // Producer (the query's worker).
  void Begin(StatementOutcome header);
  // Blocks while the buffer is full; an error once the stream was closed (the query ended).
  Status Push(std::vector<ResultRow> rows);
  void End(StatementOutcome summary);
  // The query ended; `discard` drops what the consumer has not taken (also after an earlier Close).
  void Close(bool discard);

  // Consumer. Takes items from the front, splitting a batch so the rows taken stay near
  // `max_bytes` (at least one row). Empty when nothing is buffered; the listener then runs
  // once when something arrives or the stream closes.
  std::vector<StreamItem> Take(int64_t max_bytes);
  // Closed and everything taken.
  bool Finished() const;
  // Waits until `min_bytes` of rows are buffered, the producer is blocked on a full buffer, the
  // stream is closed, or `timeout` passes.
  void WaitReadable(int64_t min_bytes, std::chrono::milliseconds timeout);
  void SetListener(std::function<void()> listener);

  int64_t buffered_bytes() const;
  int64_t peak_bytes() const;  // The most ever buffered at once.
  int64_t max_bytes() const { return max_bytes_; }

 private:
  void Append(StreamItem item, int64_t bytes, std::unique_lock<std::mutex>& lock);
  void Notify(std::unique_lock<std::mutex>& lock);  // Wakes consumers; unlocks.

  const int64_t max_bytes_;
  mutable std::mutex mu_;
  std::condition_variable space_;     // The producer waits for room.
  std::condition_variable readable_;  // Blocking consumers wait for rows.
  std::deque<StreamItem> items_;      // Guarded by mu_.
  int64_t bytes_ = 0;                 // Guarded by mu_: of the rows in items_.
  int64_t peak_ = 0;                  // Guarded by mu_.
  bool closed_ = false;               // Guarded by mu_.
  bool producer_blocked_ = false;     // Guarded by mu_.
  bool armed_ = false;                // Guarded by mu_: a Take found nothing; tell the listener.
  std::function<void()> listener_;    // Guarded by mu_.
};

}  // namespace floe::serve
