#include "up/pipeline.h"

#include <filesystem>

#include <fmt/format.h>

#include "up/broker_role.h"
#include "up/generator_role.h"

namespace floe::up {

Pipeline::Pipeline(UpOptions options) : options_(std::move(options)) {
  missing_ = {
      {"catalog", fmt::format("Iceberg REST on {}:8181", options_.host), 6},
      {"stream job", "topic orders -> table shop.orders, partitioned by hour(ts)", 8},
      {"query server", fmt::format("Trino/HTTP/console on {0}:8080, PostgreSQL wire on {0}:5433", options_.host), 10},
  };
}

Pipeline::~Pipeline() { Stop(); }

Status Pipeline::Start() {
  std::error_code error;
  std::filesystem::create_directories(options_.data, error);
  if (error) return IoError("creating data folder {}: {}", options_.data, error.message());

  broker::BrokerConfig broker_config;
  broker_config.listen = {options_.host, static_cast<uint16_t>(options_.broker_port)};
  broker_config.data_dir = options_.data + "/broker";
  broker_config.default_partitions = options_.partitions;
  auto broker = std::make_unique<BrokerRole>(
      broker_config, options_.broker_metrics_port < 0 ? ""
                                                      : fmt::format("{}:{}", options_.host, options_.broker_metrics_port));
  auto* broker_role = broker.get();
  std::vector<std::unique_ptr<Role>> roles;
  roles.push_back(std::move(broker));

  for (auto& role : roles) {
    if (auto status = role->Start(); !status) {
      Stop();
      return status;
    }
    started_.push_back(std::move(role));
  }
  if (options_.traffic >= 0) {
    auto generator_role = std::make_unique<GeneratorRole>(
        broker_role->bootstrap(),
        generator::ProduceOptions{.topic = "orders", .rate = options_.traffic, .ledger_path = options_.data + "/ledger.json"},
        options_.malformed_rate);
    if (auto status = generator_role->Start(); !status) {
      Stop();
      return status;
    }
    started_.push_back(std::move(generator_role));
  }
  return OkStatus();
}

void Pipeline::Stop() {
  // The generator first, so every message it sent is acknowledged before the broker stops.
  while (!started_.empty()) {
    started_.back()->Stop();
    started_.pop_back();
  }
}

std::string Pipeline::StatusTable() const {
  std::string out = fmt::format("floe up: data under {}\n", options_.data);
  for (const auto& role : started_) out += fmt::format("  {:<13} {}\n", role->name(), role->Describe());
  for (const auto& role : missing_) {
    out += fmt::format("  {:<13} not built yet (issue #{}): {}\n", role.name, role.issue, role.describe);
  }
  return out;
}

}  // namespace floe::up
