// FreshnessProbe: the playground's freshness scenario. It sends one marker event through the
// generator and then asks the query engine, every poll interval, whether a query sees it — once
// with freshness `snapshot` (committed snapshots only, what Trino or Spark reading the table see)
// and once with `live` (the snapshot plus the broker's tail past its offsets) — and records how
// long each took from the send. One probe runs at a time; the last few results are kept for the
// console's chart. Owned by the PipelineConsole; every public call is thread-safe, the polling
// runs on a thread of its own.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>

#include "base/result.h"

namespace floe::up {

class FreshnessProbe {
 public:
  // Sends one valid event and answers its event id.
  using MarkerSender = std::function<Result<std::string>()>;
  // Rows with that event id a query sees under `freshness` ("live" or "snapshot").
  using MarkerCounter = std::function<Result<int64_t>(std::string_view event_id, std::string_view freshness)>;

  struct Options {
    int64_t poll_millis = 100;
    // A marker neither read finds by then is given up on (a stream job taken down, a trigger of
    // ten minutes): the probe ends with what it has.
    int64_t timeout_millis = 11 * 60'000;
    size_t keep = 30;  // Results kept for the chart.
  };

  FreshnessProbe(MarkerSender send, MarkerCounter count, Options options);
  ~FreshnessProbe();  // Stops the polling thread.

  // Sends a marker and starts polling for it; Conflict while the previous probe still polls,
  // the sender's error when it cannot send. Answers the marker's event id.
  Result<std::string> Start();
  void Stop();

  // {"running": bool, "probes": [{"event_id", "sent_ms", "live_ms", "snapshot_ms", "timed_out",
  // "error"}]}, oldest first; a latency is null until that read has seen the marker.
  nlohmann::json ToJson() const;

 private:
  struct Probe {
    std::string event_id;
    int64_t sent_ms = 0;
    std::optional<int64_t> live_ms, snapshot_ms;
    bool timed_out = false;
    std::string error;  // The last error a count answered, while still looking.
  };
  void Poll(std::string event_id, int64_t sent_ms);

  MarkerSender send_;
  MarkerCounter count_;
  Options options_;

  mutable std::mutex mutex_;
  std::deque<Probe> probes_;  // Guarded by mutex_; the running probe is the last.
  bool running_ = false;      // Guarded by mutex_.
  bool stopping_ = false;     // Guarded by mutex_.
  std::condition_variable wake_;
  std::thread thread_;  // Started and joined under start_mutex_.
  std::mutex start_mutex_;
};

}  // namespace floe::up
