// StreamRole: the stream job inside `floe up`, on its own thread, started again after a
// failure (the broker or catalog briefly away) until the pipeline stops.
#pragma once

#include <atomic>
#include <thread>

#include "base/metrics.h"
#include "stream/stream_runner.h"
#include "up/role.h"

namespace floe::up {

class StreamRole final : public Role {
 public:
  explicit StreamRole(stream::StreamConfig config) : config_(std::move(config)) {}
  ~StreamRole() override { Stop(); }

  std::string_view name() const override { return "stream job"; }
  std::string Describe() const override;
  Status Start() override;
  void Stop() override;

  MetricsRegistry& metrics() { return metrics_; }

 private:
  stream::StreamConfig config_;
  MetricsRegistry metrics_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace floe::up
