#include "up/broker_role.h"

#include <fmt/format.h>

namespace floe::up {

Status BrokerRole::Start() {
  FLOE_ASSIGN_OR_RETURN_CTX(broker_, broker::Broker::Open(config_), "starting the broker");
  FLOE_RETURN_IF_ERROR_CTX(broker_->Listen(metrics_listen_), "starting the broker");
  // Started again after being taken down, it must come back where its clients look for it.
  config_.listen.port = static_cast<uint16_t>(broker_->bound_port());
  thread_ = std::thread([this] { broker_->Run(); });
  return OkStatus();
}

void BrokerRole::Stop() {
  if (!broker_) return;
  broker_->Stop();
  if (thread_.joinable()) thread_.join();
  broker_.reset();
}

std::string BrokerRole::bootstrap() const {
  return fmt::format("{}:{}", config_.listen.host, broker_ ? broker_->bound_port() : config_.listen.port);
}

std::string BrokerRole::Describe() const {
  std::string metrics = broker_ && broker_->metrics_port() != 0
                            ? fmt::format(", /metrics on {}:{}", config_.listen.host, broker_->metrics_port())
                            : "";
  return fmt::format("Kafka protocol on {}{}", bootstrap(), metrics);
}

}  // namespace floe::up
