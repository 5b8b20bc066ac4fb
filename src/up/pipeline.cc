#include "up/pipeline.h"

#include <signal.h>

#include <filesystem>

#include <fmt/format.h>

#include "base/logging.h"
#include "generator/order_event.h"
#include "stream/stream_runner.h"
#include "up/broker_role.h"
#include "up/catalog_role.h"
#include "up/stream_role.h"
#include "up/generator_role.h"
#include "up/process_role.h"

namespace floe::up {
namespace {

std::string HostPortText(const std::string& host, int port) { return fmt::format("{}:{}", host, port); }

std::string AbsolutePath(const std::string& path) {
  std::error_code ignored;
  return std::filesystem::absolute(path, ignored).lexically_normal().string();
}

}  // namespace

Pipeline::Pipeline(UpOptions options) : options_(std::move(options)) {
  missing_ = {
      {"query server", fmt::format("Trino/HTTP/console on {0}:8080, PostgreSQL wire on {0}:5433", options_.host), 10},
  };
}

Pipeline::~Pipeline() { Stop(); }

std::vector<std::unique_ptr<Role>> Pipeline::MakeInProcessRoles() {
  std::vector<std::unique_ptr<Role>> roles;
  broker::BrokerConfig broker_config;
  broker_config.listen = {options_.host, static_cast<uint16_t>(options_.broker_port)};
  broker_config.data_dir = options_.data + "/broker";
  broker_config.default_partitions = options_.partitions;
  std::string metrics =
      options_.broker_metrics_port < 0 ? "" : HostPortText(options_.host, options_.broker_metrics_port);
  roles.push_back(std::make_unique<BrokerRole>(broker_config, metrics));
  roles.push_back(std::make_unique<CatalogRole>(options_.host, options_.catalog_port,
                                                "sqlite:" + options_.data + "/catalog.db", Warehouse()));
  roles.push_back(std::make_unique<StreamRole>(StreamConfigFor()));
  return roles;
}

std::string Pipeline::Warehouse() const { return "file://" + AbsolutePath(options_.data + "/warehouse"); }

stream::StreamConfig Pipeline::StreamConfigFor() const {
  stream::StreamConfig config;
  config.brokers = HostPortText(options_.host, options_.broker_port);
  config.topic = "orders";
  config.table = "shop.orders";
  config.catalog = fmt::format("http://{}:{}", options_.host, options_.catalog_port);
  config.warehouse = Warehouse();
  config.schema_json = std::string(generator::OrdersSchemaJson());
  config.partition = {"hour(ts)"};
  config.timestamp_unit = "ms";
  config.trigger.interval_millis = options_.trigger_millis;
  return config;
}

std::vector<std::unique_ptr<Role>> Pipeline::MakeProcessRoles() {
  std::vector<std::unique_ptr<Role>> roles;
  std::string brokers = HostPortText(options_.host, options_.broker_port);
  std::string logs = options_.data + "/logs";
  std::filesystem::create_directories(logs);
  roles.push_back(std::make_unique<ProcessRole>(
      "broker", "Kafka protocol on " + brokers,
      std::vector<std::string>{options_.floe_binary, "broker", "--listen", brokers, "--data",
                               options_.data + "/broker", "--partitions", std::to_string(options_.partitions),
                               "--metrics-listen",
                               options_.broker_metrics_port < 0
                                   ? ""
                                   : HostPortText(options_.host, options_.broker_metrics_port)},
      logs + "/broker.log", options_.host, options_.broker_port));
  if (options_.traffic >= 0) {
    roles.push_back(std::make_unique<ProcessRole>(
        "generator", fmt::format("{} order events/s into topic orders", options_.traffic),
        std::vector<std::string>{options_.floe_binary, "produce", "--brokers", brokers, "--topic", "orders", "--rate",
                                 fmt::format("{}", options_.traffic), "--malformed-rate",
                                 fmt::format("{}", options_.malformed_rate), "--ledger",
                                 options_.data + "/ledger.json"},
        logs + "/generator.log", options_.host, -1));
  }
  return roles;
}

Status Pipeline::Start() {
  std::error_code error;
  std::filesystem::create_directories(options_.data, error);
  if (error) return IoError("creating data folder {}: {}", options_.data, error.message());

  std::vector<std::unique_ptr<Role>> roles = options_.processes ? MakeProcessRoles() : MakeInProcessRoles();
  std::lock_guard lock(mutex_);
  for (auto& role : roles) {
    if (auto status = role->Start(); !status) {
      for (auto it = started_.rbegin(); it != started_.rend(); ++it) (*it)->Stop();
      started_.clear();
      return status;
    }
    started_.push_back(std::move(role));
  }
  if (!options_.processes && options_.traffic >= 0) {
    auto* broker_role = static_cast<BrokerRole*>(started_.front().get());
    auto generator_role = std::make_unique<GeneratorRole>(
        broker_role->bootstrap(),
        generator::ProduceOptions{.topic = "orders", .rate = options_.traffic,
                                  .ledger_path = options_.data + "/ledger.json"},
        options_.malformed_rate);
    if (auto status = generator_role->Start(); !status) {
      for (auto it = started_.rbegin(); it != started_.rend(); ++it) (*it)->Stop();
      started_.clear();
      return status;
    }
    started_.push_back(std::move(generator_role));
  }
  if (options_.processes) supervisor_ = std::thread([this] { Supervise(); });
  return OkStatus();
}

void Pipeline::Supervise() {
  auto log = Logger("up");
  while (!stopping_.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    std::lock_guard lock(mutex_);
    for (auto& role : started_) {
      auto* process = static_cast<ProcessRole*>(role.get());
      if (stopping_.load() || held_down_.contains(process->name()) || process->Running()) continue;
      log->warn("{} exited; restarting it", process->name());
      process->CountRestart();
      if (auto status = process->Start(); !status) log->error("{}", status.error().ToString());
    }
  }
}

void Pipeline::Stop() {
  stopping_.store(true);
  if (supervisor_.joinable()) supervisor_.join();
  std::lock_guard lock(mutex_);
  // The generator first, so every message it sent is acknowledged before the broker stops.
  while (!started_.empty()) {
    started_.back()->Stop();
    started_.pop_back();
  }
}

Role* Pipeline::Find(std::string_view role) {
  for (auto& r : started_) {
    if (r->name() == role) return r.get();
  }
  return nullptr;
}

Status Pipeline::TakeDown(std::string_view role) {
  if (!options_.processes) return InvalidArgument("taking a role down needs floe up --processes");
  std::lock_guard lock(mutex_);
  auto* found = static_cast<ProcessRole*>(Find(role));
  if (found == nullptr) return NotFound("no running role named '{}'", role);
  held_down_.insert(std::string(role));
  found->Kill();
  return OkStatus();
}

Status Pipeline::BringUp(std::string_view role) {
  if (!options_.processes) return InvalidArgument("bringing a role up needs floe up --processes");
  std::lock_guard lock(mutex_);
  auto* found = static_cast<ProcessRole*>(Find(role));
  if (found == nullptr) return NotFound("no role named '{}'", role);
  if (auto it = held_down_.find(role); it != held_down_.end()) held_down_.erase(it);
  if (found->Running()) return OkStatus();
  return found->Start();
}

size_t Pipeline::running_roles() const {
  std::lock_guard lock(mutex_);
  return started_.size();
}

std::string Pipeline::StatusTable() const {
  std::lock_guard lock(mutex_);
  std::string out = fmt::format("floe up: data under {}{}\n", options_.data,
                                options_.processes ? ", one process per role" : "");
  for (const auto& role : started_) out += fmt::format("  {:<13} {}\n", role->name(), role->Describe());
  for (const auto& role : missing_) {
    out += fmt::format("  {:<13} not built yet (issue #{}): {}\n", role.name, role.issue, role.describe);
  }
  return out;
}

}  // namespace floe::up
