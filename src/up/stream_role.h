// StreamRole: a stream job inside `floe up` (shop.orders, and the keyed shop.order_state), each
// worker on its own thread, started again after a failure (the broker or catalog briefly away)
// until the pipeline stops. Workers share the job's consumer group, so they split the topic's
// partitions; their counters add up in one MetricsRegistry.
#pragma once

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "base/metrics.h"
#include "stream/stream_runner.h"
#include "up/role.h"

namespace floe::up {

class StreamRole final : public Role {
 public:
  explicit StreamRole(stream::StreamConfig config, std::string name = "stream job")
      : config_(std::move(config)), name_(std::move(name)) {}
  ~StreamRole() override { Stop(); }

  std::string_view name() const override { return name_; }
  std::string Describe() const override;
  Status Start() override;
  void Stop() override;

  MetricsRegistry& metrics() { return metrics_; }
  // The configuration and the number of workers of its next start; call while it is stopped.
  void set_config(stream::StreamConfig config) { config_ = std::move(config); }
  void set_workers(int workers) { workers_ = workers; }

  // "floe-stream-worker-<n>": the client id worker n (from 1) gives the broker, so the console
  // can tell the group's members apart.
  static std::string WorkerClientId(int worker);

 private:
  stream::StreamConfig config_;
  std::string name_;
  int workers_ = 1;
  MetricsRegistry metrics_;
  std::atomic<bool> stopping_{false};
  std::vector<std::thread> threads_;
};

}  // namespace floe::up
