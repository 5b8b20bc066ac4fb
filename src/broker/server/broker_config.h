// Everything `floe broker` can be told: where to listen and what to advertise, where the data
// lives, and the limits and defaults of logs, groups and connections.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "auth/users.h"
#include "base/result.h"
#include "broker/group/group_coordinator.h"
#include "broker/log/log_config.h"
#include "net/tls.h"

namespace floe::broker {

struct HostPort {
  std::string host;
  uint16_t port = 0;
};

// Parses "host:port" (IPv6 as "[::1]:9092").
Result<HostPort> ParseHostPort(std::string_view text);

struct BrokerConfig {
  HostPort listen{"127.0.0.1", 9092};
  HostPort advertise;  // Empty host: the listen address (with the bound port).
  std::string data_dir = "./floe-data/broker";
  int32_t node_id = 0;
  std::string cluster_id = "floe";
  bool auto_create_topics = true;
  int32_t default_partitions = 1;
  int32_t max_connections = 1000;
  // Connections from one client address at once (Kafka's max.connections.per.ip), so one host
  // cannot take every slot of max_connections.
  int32_t max_connections_per_ip = 256;
  int32_t max_request_bytes = 100 * 1024 * 1024;
  // Largest frame before SASL completes when users are configured (Kafka's
  // sasl.server.max.receive.size): the unauthenticated only negotiate, in small frames.
  int32_t max_preauth_request_bytes = 512 * 1024;
  // A connection with nothing in flight and no bytes arriving for this long is closed
  // (Kafka's connections.max.idle.ms).
  int32_t connections_max_idle_ms = 10 * 60 * 1000;
  // With users configured, a connection must finish SASL within this long, half-sent frames
  // included, or it is closed.
  int32_t authentication_timeout_ms = 30 * 1000;
  // Requests a connection may have in flight before the broker stops reading from it.
  int32_t max_in_flight_per_connection = 64;
  FsyncPolicy fsync = FsyncPolicy::kBatch;
  int32_t fsync_interval_ms = 1000;
  int32_t retention_check_interval_ms = 60000;
  // The log cleaner (cleanup.policy=compact), with Kafka's names: log.cleaner.enable,
  // log.cleaner.backoff.ms (how often it looks for a log to clean when idle) and
  // log.cleaner.dedupe.buffer.size (the bound of one pass's offset map).
  bool log_cleaner_enable = true;
  int32_t log_cleaner_backoff_ms = 15000;
  uint64_t log_cleaner_dedupe_buffer_size = 128ULL << 20;
  // Crash tests only (FLOE_BROKER_TESTING_CLEANER_STALL): the I/O thread stops for good at this
  // step of installing a cleaning pass ("cleaned", "swap" or "swapping"), after logging it, so
  // that a kill -9 lands exactly there.
  std::string testing_cleaner_stall;
  LogConfig log;
  GroupCoordinatorOptions groups;
  // Users of --auth-file: when any, clients must authenticate with SASL/PLAIN or
  // SCRAM-SHA-256 before anything else.
  std::vector<auth::AuthUser> users;
  // Certificate and key: clients connect with TLS (security.protocol=SSL, or SASL_SSL with
  // users). Fetches then copy through TLS instead of sendfile.
  net::TlsFiles tls;
};

}  // namespace floe::broker
