// StreamRole: a stream job inside `floe up` (shop.orders, and the keyed shop.order_state), on its
// own thread, started again after a failure (the broker or catalog briefly away) until the
// pipeline stops.
#pragma once

#include <atomic>
#include <string>
#include <thread>

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
  // The configuration of its next start; call while it is stopped.
  void set_config(stream::StreamConfig config) { config_ = std::move(config); }

 private:
  stream::StreamConfig config_;
  std::string name_;
  MetricsRegistry metrics_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace floe::up
