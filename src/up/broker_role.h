// BrokerRole: floe's Kafka-protocol broker inside `floe up`, its I/O loop on its own thread.
#pragma once

#include <memory>
#include <thread>

#include "broker/server/broker.h"
#include "up/role.h"

namespace floe::up {

class BrokerRole final : public Role {
 public:
  explicit BrokerRole(broker::BrokerConfig config, std::string metrics_listen)
      : config_(std::move(config)), metrics_listen_(std::move(metrics_listen)) {}
  ~BrokerRole() override { Stop(); }

  std::string_view name() const override { return "broker"; }
  std::string Describe() const override;
  Status Start() override;
  void Stop() override;

  // "127.0.0.1:9092" with the bound port, for clients inside the process.
  std::string bootstrap() const;

 private:
  broker::BrokerConfig config_;
  std::string metrics_listen_;
  std::unique_ptr<broker::Broker> broker_;
  std::thread thread_;
};

}  // namespace floe::up
