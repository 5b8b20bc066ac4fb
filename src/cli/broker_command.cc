// `floe broker`: the Kafka-protocol broker (src/broker).
#include <pthread.h>
#include <signal.h>

#include <cstdlib>
#include <thread>

#include "auth/users.h"
#include "base/logging.h"
#include "broker/server/broker.h"
#include "cli/command.h"

namespace floe::cli {
namespace {

struct BrokerFlags {
  std::string listen = "127.0.0.1:9092";
  std::string advertise;
  std::string data = "./floe-data/broker";
  std::string metrics_listen = "127.0.0.1:9644";
  int32_t partitions = 1;
  bool auto_create = true;
  std::string fsync = "batch";
  int32_t fsync_interval_ms = 1000;
  int64_t retention_ms = 7LL * 24 * 3600 * 1000;
  int64_t retention_bytes = -1;
  int64_t segment_bytes = 1LL << 30;
  bool log_cleaner_enable = true;
  int32_t log_cleaner_backoff_ms = 15000;
  int32_t max_message_bytes = 1048588;
  int32_t max_request_bytes = 100 * 1024 * 1024;
  int32_t max_connections = 1000;
  int32_t max_connections_per_ip = 256;
  int32_t connections_max_idle_ms = 10 * 60 * 1000;
  int32_t authentication_timeout_ms = 30 * 1000;
  int32_t initial_rebalance_delay_ms = 0;
  std::string auth_file;
  bool insecure_bind = false;
  std::string tls_cert, tls_key;
};

int RunBroker(const BrokerFlags& flags) {
  broker::BrokerConfig config;
  auto fail = [](const Error& error) {
    fmt::print(stderr, "floe broker: {}\n", error.ToString());
    return ExitCodeFor(error);
  };
  auto listen = broker::ParseHostPort(flags.listen);
  if (!listen) return fail(listen.error());
  config.listen = *listen;
  if (auto exposed = CheckExposedBind("--listen", config.listen.host, !flags.auth_file.empty(), flags.insecure_bind); !exposed) {
    return fail(exposed.error());
  }
  if (!flags.metrics_listen.empty()) {
    auto metrics = broker::ParseHostPort(flags.metrics_listen);
    if (!metrics) return fail(metrics.error());
    if (auto exposed = CheckExposedBind("--metrics-listen", metrics->host, !flags.auth_file.empty(), flags.insecure_bind); !exposed) {
      return fail(exposed.error());
    }
  }
  if (!flags.advertise.empty()) {
    auto advertise = broker::ParseHostPort(flags.advertise);
    if (!advertise) return fail(advertise.error());
    config.advertise = *advertise;
  }
  auto fsync = broker::ParseFsyncPolicy(flags.fsync);
  if (!fsync) return fail(fsync.error());
  config.fsync = *fsync;
  config.data_dir = flags.data;
  config.default_partitions = flags.partitions;
  config.auto_create_topics = flags.auto_create;
  config.fsync_interval_ms = flags.fsync_interval_ms;
  config.log.retention_ms = flags.retention_ms;
  config.log.retention_bytes = flags.retention_bytes;
  config.log.segment_bytes = flags.segment_bytes;
  config.log_cleaner_enable = flags.log_cleaner_enable;
  config.log_cleaner_backoff_ms = flags.log_cleaner_backoff_ms;
  if (const char* stall = std::getenv("FLOE_BROKER_TESTING_CLEANER_STALL")) config.testing_cleaner_stall = stall;
  config.log.max_message_bytes = flags.max_message_bytes;
  config.max_request_bytes = flags.max_request_bytes;
  config.max_connections = flags.max_connections;
  config.max_connections_per_ip = flags.max_connections_per_ip;
  config.connections_max_idle_ms = flags.connections_max_idle_ms;
  config.authentication_timeout_ms = flags.authentication_timeout_ms;
  config.groups.initial_rebalance_delay_ms = flags.initial_rebalance_delay_ms;
  if (!flags.auth_file.empty()) {
    auto users = auth::LoadAuthFile(flags.auth_file);
    if (!users) return fail(users.error());
    config.users = std::move(*users);
  }
  config.tls = net::TlsFiles{flags.tls_cert, flags.tls_key};

  // Signals are taken by a dedicated thread (sigwait), so block them before any thread starts.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  auto opened = broker::Broker::Open(config);
  if (!opened) return fail(opened.error());
  std::unique_ptr<broker::Broker> server = std::move(*opened);
  if (auto listening = server->Listen(flags.metrics_listen); !listening) return fail(listening.error());
  // Tests and scripts read the bound ports from this line (port 0 picks free ones).
  fmt::print("floe broker listening on {}:{} metrics {}\n", config.listen.host, server->bound_port(),
             server->metrics_port());
  std::fflush(stdout);
  std::thread waiter([&] {
    int signal = 0;
    sigwait(&signals, &signal);
    Logger("broker")->info("signal {}: stopping", signal);
    server->Stop();
  });
  server->Run();
  // Run returns only after Stop(); wake the waiter if it is still blocked.
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  server.reset();
  return kExitOk;
}

}  // namespace

void RegisterBrokerCommand(CLI::App& root, CommandRegistry& registry) {
  auto flags = std::make_shared<BrokerFlags>();
  CLI::App* app = registry.Add(root, "broker", "Run the Kafka-protocol broker: a durable partitioned log", "broker",
                               [flags] { return RunBroker(*flags); });
  app->add_option("--listen", flags->listen, "HOST:PORT to accept Kafka clients on (port 0: any free port)")
      ->capture_default_str();
  app->add_option("--advertise", flags->advertise, "HOST:PORT clients are told to connect to (default: --listen)");
  app->add_option("--data", flags->data, "Folder for partition logs, topic and group metadata")->capture_default_str();
  app->add_option("--metrics-listen", flags->metrics_listen, "HOST:PORT serving Prometheus /metrics (empty: off)")
      ->capture_default_str();
  app->add_option("--partitions", flags->partitions, "Partitions of auto-created topics")->capture_default_str();
  app->add_option("--auto-create-topics", flags->auto_create, "Create unknown topics on first use")
      ->capture_default_str();
  app->add_option("--fsync", flags->fsync,
                  "batch (acks=all waits for fsync, group commit), interval (flush every interval) or never")
      ->check(CLI::IsMember({"batch", "interval", "never"}))
      ->capture_default_str();
  app->add_option("--fsync-interval-ms", flags->fsync_interval_ms, "Background flush interval")->capture_default_str();
  app->add_option("--retention-ms", flags->retention_ms, "Default retention time (-1: forever)")->capture_default_str();
  app->add_option("--retention-bytes", flags->retention_bytes, "Default retention size per partition (-1: unlimited)")
      ->capture_default_str();
  app->add_option("--segment-bytes", flags->segment_bytes, "Segment file size")->capture_default_str();
  app->add_option("--log-cleaner-enable", flags->log_cleaner_enable,
                  "Compact topics with cleanup.policy=compact in the background")
      ->capture_default_str();
  app->add_option("--log-cleaner-backoff-ms", flags->log_cleaner_backoff_ms,
                  "How often the idle log cleaner looks for a compacted log due for cleaning")
      ->capture_default_str();
  app->add_option("--max-message-bytes", flags->max_message_bytes, "Largest record batch accepted")
      ->capture_default_str();
  app->add_option("--max-request-bytes", flags->max_request_bytes, "Largest request frame accepted")
      ->capture_default_str();
  app->add_option("--max-connections", flags->max_connections, "Connections accepted at once")->capture_default_str();
  app->add_option("--max-connections-per-ip", flags->max_connections_per_ip, "Connections accepted at once from one client address")
      ->capture_default_str();
  app->add_option("--connections-max-idle-ms", flags->connections_max_idle_ms,
                  "Close a connection with nothing in flight and no bytes arriving for this long")
      ->capture_default_str();
  app->add_option("--authentication-timeout-ms", flags->authentication_timeout_ms,
                  "With --auth-file: close a connection that has not finished SASL within this long")
      ->capture_default_str();
  app->add_option("--tls-cert", flags->tls_cert, "PEM certificate chain: clients and metrics scrapes connect with TLS (with --tls-key)");
  app->add_option("--tls-key", flags->tls_key, "PEM private key of --tls-cert");
  app->add_flag("--insecure-bind", flags->insecure_bind,
               "Allow listening beyond loopback without --auth-file (anyone who reaches the port may use it)");
  app->add_option("--auth-file", flags->auth_file,
                  "TOML with [[user]] name/password: clients must authenticate with SASL/PLAIN or SCRAM-SHA-256 (default: none)");
  app->add_option("--group-initial-rebalance-delay-ms", flags->initial_rebalance_delay_ms,
                  "How long a new group's first rebalance waits for more members")
      ->capture_default_str();
}

}  // namespace floe::cli
