// The broker: a Kafka-protocol server over partition logs and consumer groups, in one process.
//
// Threads: one I/O thread runs the Asio io_context (Run()); every connection, handler, log,
// group and timer lives on it, so they share state without locks. The Flusher thread only
// fdatasyncs and posts completions back. Stop() may be called from any thread (signals).
// Owned by `floe broker` (or `floe up`, or a test).
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>  // Before Boost 1.74 awaitable.hpp, which uses std::exchange without it.

#include "base/clock.h"
#include "base/result.h"
#include "broker/group/group_coordinator.h"
#include "broker/log/cleaner_thread.h"
#include "broker/log/flusher.h"
#include "broker/log/topic_registry.h"
#include "broker/server/broker_config.h"
#include "broker/server/broker_metrics.h"
#include "broker/server/fetch_sessions.h"
#include "broker/txn/transaction_coordinator.h"
#include "net/connection_limiter.h"

namespace floe::broker {

class Broker {
 public:
  // Opens the data folder (recovering logs and offsets); does not listen yet.
  static Result<std::unique_ptr<Broker>> Open(BrokerConfig config, Clock& clock = Clock::System());
  ~Broker();

  // Binds and listens; afterwards bound_port() is known. `metrics_listen` (may be empty) serves
  // Prometheus text at /metrics.
  Status Listen(const std::string& metrics_listen = "");
  // Runs the I/O loop on the calling thread until Stop().
  void Run();
  // Thread-safe.
  void Stop();
  // Runs I/O work for at most `limit`, or only what is ready for 0 (tests driving handlers directly).
  void TESTING_RunFor(std::chrono::milliseconds limit);

  uint16_t bound_port() const;
  uint16_t metrics_port() const;

  // For handlers (I/O thread).
  const BrokerConfig& config() const { return config_; }
  const HostPort& advertised() const { return advertised_; }
  TopicRegistry& topics() { return *topics_; }
  GroupCoordinator& groups() { return *groups_; }
  TransactionCoordinator& transactions() { return *transactions_; }
  FetchSessionCache& fetch_sessions() { return fetch_sessions_; }
  BrokerMetrics& metrics() { return metrics_; }
  Clock& clock() { return clock_; }
  boost::asio::any_io_executor executor();
  int64_t NextProducerId() { return next_producer_id_++; }
  // Creates `name` with the default partition count if auto-creation is on.
  Result<Topic*> AutoCreateTopic(const std::string& name);
  std::string RenderMetrics();
  // A place for a connection from `address` under max_connections and
  // max_connections_per_ip (net/connection_limiter.h), or kResourceExhausted.
  Result<net::ConnectionSlot> AdmitConnection(const std::string& address) { return connections_.Admit(address); }
  // The listener's TLS context, or null when clients connect in the clear.
  boost::asio::ssl::context* tls() const { return tls_.get(); }

 private:
  struct Io;
  Broker(BrokerConfig config, Clock& clock);
  Status ServeMetrics(const std::string& metrics_listen);
  // Hands the compacted partition with the dirtiest due log to the cleaner thread, if idle.
  void MaybeClean();
  void FinishClean(std::weak_ptr<PartitionLog> log, std::string name, Result<CleanResult> result);
  // FLOE_BROKER_TESTING_CLEANER_STALL: blocks the I/O thread for good at `step`.
  void TestingStallAt(std::string_view step);

  BrokerConfig config_;
  HostPort advertised_;
  Clock& clock_;
  net::ConnectionLimiter connections_;
  std::unique_ptr<Io> io_;
  std::unique_ptr<Flusher> flusher_;
  std::unique_ptr<TopicRegistry> topics_;
  std::unique_ptr<GroupCoordinator> groups_;
  std::unique_ptr<TransactionCoordinator> transactions_;  // Writes markers to topics_, offsets to groups_.
  FetchSessionCache fetch_sessions_;
  std::unique_ptr<CleanerThread> cleaner_;  // Null with log_cleaner_enable off.
  std::set<std::string> uncleanable_;       // Partitions whose pass failed, by folder: skipped.
  BrokerMetrics metrics_;
  std::shared_ptr<boost::asio::ssl::context> tls_;
  int64_t next_producer_id_ = 0;
};

}  // namespace floe::broker
