// A real broker for tests: opened on a fresh data folder under /tmp, listening on a loopback port
// the kernel picks, served on a thread of its own, and stopped with its folder removed when the
// object goes away. Tests talk to it through `bootstrap()` with any Kafka client.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "broker/server/broker.h"

namespace floe::broker::testing {

class RunningBroker {
 public:
  // `name` keeps concurrent test binaries' folders apart (with the process id).
  explicit RunningBroker(std::string_view name) {
    dir_ = std::filesystem::temp_directory_path() / fmt::format("floe-{}-{}", name, ::getpid());
    std::filesystem::remove_all(dir_);
    BrokerConfig config;
    config.data_dir = dir_.string();
    config.listen = {"127.0.0.1", 0};
    config.fsync = FsyncPolicy::kNever;
    auto opened = Broker::Open(config);
    if (!opened) {
      ADD_FAILURE() << opened.error().ToString();
      return;
    }
    broker_ = std::move(*opened);
    if (auto listening = broker_->Listen(); !listening) {
      ADD_FAILURE() << listening.error().ToString();
      broker_.reset();
      return;
    }
    bootstrap_ = fmt::format("127.0.0.1:{}", broker_->bound_port());
    thread_ = std::thread([this] { broker_->Run(); });
  }
  ~RunningBroker() {
    if (broker_) {
      broker_->Stop();
      thread_.join();
      broker_.reset();
    }
    std::filesystem::remove_all(dir_);
  }
  RunningBroker(const RunningBroker&) = delete;
  RunningBroker& operator=(const RunningBroker&) = delete;

  bool running() const { return broker_ != nullptr; }
  const std::string& bootstrap() const { return bootstrap_; }
  Broker& broker() { return *broker_; }

 private:
  std::filesystem::path dir_;
  std::unique_ptr<Broker> broker_;
  std::string bootstrap_;
  std::thread thread_;
};

}  // namespace floe::broker::testing
