// `floe up`: the whole pipeline in one process (src/up).
#include <pthread.h>
#include <signal.h>

#include <cstdio>

#include <fmt/format.h>

#include "broker/server/broker_config.h"
#include "base/units.h"
#include "cli/command.h"
#include "stream/stream_runner.h"
#include "up/pipeline.h"

namespace floe::cli {
namespace {

struct UpFlags {
  std::string data = "./floe-data", traffic = "200", trigger = "10s";
  int64_t target_file_size_mb = 128, compaction_target_mb = 128;
  std::string compaction = "on", maintenance_interval = "5m";
  std::vector<std::string> partition = {"hour(ts)"};
  int64_t stream_workers = 1;
  std::string broker_listen = "127.0.0.1:9092", broker_metrics_listen = "127.0.0.1:9644";
  int partitions = 4;
  std::string catalog_listen = "127.0.0.1:8181";
  std::string catalog_replica_listen = "127.0.0.1:8182";
  std::string catalog_backend;  // Empty: sqlite:DATA/catalog.db.
  std::string registry_listen = "127.0.0.1:8081";
  int catalog_port = -1;  // Old spelling: the port of --catalog-listen.
  bool insecure_bind = false;
  std::string query_listen = "127.0.0.1:8080", pg_listen = "127.0.0.1:5433";
  double malformed_rate = 0.005;
  bool processes = false;
  std::string auth_file, tls_cert, tls_key;
};

int RunUp(const UpFlags& flags) {
  up::UpOptions options;
  options.data = flags.data;
  auto trigger = ParseDurationMillis(flags.trigger);
  if (!trigger) {
    fmt::print(stderr, "floe up: --trigger: {}\n", trigger.error().ToString());
    return kExitUsage;
  }
  auto maintenance_interval = ParseDurationMillis(flags.maintenance_interval);
  if (!maintenance_interval) {
    fmt::print(stderr, "floe up: --maintenance-interval: {}\n", maintenance_interval.error().ToString());
    return kExitUsage;
  }
  options.stream = {.trigger_millis = *trigger,
                    .target_file_size_mb = flags.target_file_size_mb,
                    .compaction = flags.compaction == "on",
                    .compaction_target_mb = flags.compaction_target_mb,
                    .maintenance_interval_millis = *maintenance_interval,
                    .partition = flags.partition,
                    .workers = flags.stream_workers};
  // The same bounds as the playground's rewiring, so both say the same about a value.
  if (auto valid = up::ValidateStreamSettings(options.stream); !valid) {
    fmt::print(stderr, "floe up: {}\n", valid.error().ToString());
    return kExitUsage;
  }
  for (auto [flag, text, host, port] : {std::tuple{"--query-listen", &flags.query_listen, &options.query_host, &options.query_port},
                                         std::tuple{"--pg-listen", &flags.pg_listen, &options.pg_host, &options.pg_port},
                                         std::tuple{"--catalog-listen", &flags.catalog_listen, &options.catalog_host,
                                                    &options.catalog_port},
                                         std::tuple{"--registry-listen", &flags.registry_listen, &options.registry_host,
                                                    &options.registry_port}}) {
    auto listen = broker::ParseHostPort(*text);
    if (!listen) {
      fmt::print(stderr, "floe up: {}: {}\n", flag, listen.error().ToString());
      return kExitUsage;
    }
    *host = listen->host;
    *port = listen->port;
  }
  if (flags.catalog_port >= 0) options.catalog_port = flags.catalog_port;
  options.partitions = flags.partitions;
  options.malformed_rate = flags.malformed_rate;
  options.processes = flags.processes;
  if (!flags.catalog_backend.empty() && !flags.catalog_backend.starts_with("sqlite:") &&
      !flags.catalog_backend.starts_with("postgresql://") && !flags.catalog_backend.starts_with("postgres://")) {
    fmt::print(stderr, "floe up: --catalog-backend: expected sqlite:PATH or postgresql://..., not '{}'\n",
               flags.catalog_backend.substr(0, flags.catalog_backend.find('@')));
    return kExitUsage;
  }
  options.catalog_backend = flags.catalog_backend;
  options.auth_file = flags.auth_file;
  options.tls_cert = flags.tls_cert;
  options.tls_key = flags.tls_key;
  if (flags.tls_cert.empty() != flags.tls_key.empty()) {
    fmt::print(stderr, "floe up: --tls-cert and --tls-key go together\n");
    return kExitUsage;
  }
  if (flags.traffic == "off") {
    options.traffic = -1;
  } else {
    try {
      options.traffic = std::stod(flags.traffic);
    } catch (const std::exception&) {
      fmt::print(stderr, "floe up: --traffic must be events per second or 'off', not '{}'\n", flags.traffic);
      return kExitUsage;
    }
  }
  auto broker_listen = broker::ParseHostPort(flags.broker_listen);
  if (!broker_listen) {
    fmt::print(stderr, "floe up: --broker-listen: {}\n", broker_listen.error().ToString());
    return kExitUsage;
  }
  options.host = broker_listen->host;
  options.broker_port = broker_listen->port;
  // Listeners that may be turned off: an empty HOST:PORT leaves the port at -1.
  for (auto [flag, text, host, port] : {std::tuple{"--broker-metrics-listen", &flags.broker_metrics_listen,
                                                   &options.broker_metrics_host, &options.broker_metrics_port},
                                        std::tuple{"--catalog-replica-listen", &flags.catalog_replica_listen,
                                                   &options.catalog_replica_host, &options.catalog_replica_port}}) {
    *port = -1;
    if (text->empty()) continue;
    auto listen = broker::ParseHostPort(*text);
    if (!listen) {
      fmt::print(stderr, "floe up: {}: {}\n", flag, listen.error().ToString());
      return kExitUsage;
    }
    *host = listen->host;
    *port = listen->port;
  }
  std::vector<std::pair<std::string, std::string>> binds = {{"--broker-listen", options.host},
                                                            {"--catalog-listen", options.catalog_host},
                                                            {"--registry-listen", options.registry_host},
                                                            {"--query-listen", options.query_host},
                                                            {"--pg-listen", options.pg_host}};
  if (options.broker_metrics_port >= 0) binds.emplace_back("--broker-metrics-listen", options.broker_metrics_host);
  if (options.catalog_replica_port >= 0) binds.emplace_back("--catalog-replica-listen", options.catalog_replica_host);
  for (const auto& [flag, host] : binds) {
    if (auto exposed = CheckExposedBind(flag, host, !flags.auth_file.empty(), flags.insecure_bind); !exposed) {
      fmt::print(stderr, "floe up: {}\n", exposed.error().ToString());
      return kExitUsage;
    }
  }

  // Signals are taken with sigwait on this thread: block them before any role starts a thread.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  up::Pipeline pipeline(options);
  if (auto status = pipeline.Start(); !status) {
    fmt::print(stderr, "floe up: {}\n", status.error().ToString());
    return kExitFailure;
  }
  fmt::print("{}", pipeline.StatusTable());
  fmt::print("floe up: running; Ctrl-C stops every role cleanly.\n");
  std::fflush(stdout);
  int signal = 0;
  sigwait(&signals, &signal);
  fmt::print("floe up: stopping\n");
  pipeline.Stop();
  return kExitOk;
}

}  // namespace

void RegisterUpCommand(CLI::App& root, CommandRegistry& registry) {
  auto flags = std::make_shared<UpFlags>();
  CLI::App* app = registry.Add(root, "up", "Start the whole pipeline: broker, catalog, stream job, query server, "
                               "console and the order-events generator", "up", [flags] { return RunUp(*flags); });
  app->add_option("--data", flags->data, "Folder for the broker log, catalog and warehouse")->capture_default_str();
  app->add_option("--traffic", flags->traffic, "Generator rate in events per second (0: paused until the console's playground sets one), or 'off'")->capture_default_str();
  app->add_option("--trigger", flags->trigger, "Stream job micro-batch interval")->capture_default_str();
  app->add_option("--target-file-size-mb", flags->target_file_size_mb, "Stream job: cut data files at this size")
      ->capture_default_str();
  app->add_option("--compaction", flags->compaction, "Stream job: compact small files in maintenance rounds (on|off)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app->add_option("--compaction-target-mb", flags->compaction_target_mb, "Stream job: what compaction writes")
      ->capture_default_str();
  app->add_option("--maintenance-interval", flags->maintenance_interval,
                  "Stream job: how often it compacts, merges manifests and expires snapshots")
      ->capture_default_str();
  app->add_option("--partition", flags->partition,
                  "Stream job: a partition field of shop.orders (repeatable); a change evolves the table's spec")
      ->capture_default_str();
  app->add_option("--stream-workers", flags->stream_workers,
                  "Stream job: workers in its consumer group, splitting the topic's partitions (1-4; one process only)")
      ->capture_default_str();
  app->add_option("--broker-listen", flags->broker_listen, "HOST:PORT of the Kafka-protocol broker")
      ->capture_default_str();
  app->add_option("--broker-metrics-listen", flags->broker_metrics_listen,
                  "HOST:PORT of the broker's Prometheus /metrics (empty: off)")
      ->capture_default_str();
  app->add_option("--catalog-listen", flags->catalog_listen, "HOST:PORT of the Iceberg REST catalog")
      ->capture_default_str();
  app->add_option("--registry-listen", flags->registry_listen,
                  "HOST:PORT of the Schema Registry (Confluent's REST API, schemas in the _schemas topic)")
      ->capture_default_str();
  app->add_option("--catalog-replica-listen", flags->catalog_replica_listen,
                  "HOST:PORT of a second Iceberg REST catalog on the same database, started down: bring it up in "
                  "the playground and the pipeline's clients carry on through it while the first is down (empty: none)")
      ->capture_default_str();
  app->add_option("--catalog-backend", flags->catalog_backend,
                  "The catalog's backing store at start: sqlite:PATH or postgresql://user@host:port/database "
                  "(default: sqlite:DATA/catalog.db); the playground moves it to another while floe up runs");
  app->add_option("--catalog-port", flags->catalog_port, "Port of the Iceberg REST catalog (overrides --catalog-listen's)");
  app->add_flag("--insecure-bind", flags->insecure_bind,
                "Allow a listener on a non-loopback address without --auth-file (anyone who can reach it may do anything)");
  app->add_option("--query-listen", flags->query_listen, "HOST:PORT of the query server: Trino protocol, HTTP API, console")
      ->capture_default_str();
  app->add_option("--pg-listen", flags->pg_listen, "HOST:PORT of the query server's PostgreSQL wire protocol")
      ->capture_default_str();
  app->add_option("--partitions", flags->partitions, "Partitions of the orders topic")->capture_default_str();
  app->add_option("--malformed-rate", flags->malformed_rate, "Share of malformed generated events (dead letters)")
      ->capture_default_str();
  app->add_flag("--processes", flags->processes, "Run each role as its own supervised child process");
  app->add_option("--auth-file", flags->auth_file,
                  "TOML of [[user]] name/password: every listener requires one of them (Kafka SASL, catalog "
                  "OAuth2, Trino basic auth, PostgreSQL); the pipeline's own clients use the first");
  app->add_option("--tls-cert", flags->tls_cert,
                  "PEM certificate chain: TLS on every listener (with --tls-key); the pipeline's own clients trust it");
  app->add_option("--tls-key", flags->tls_key, "PEM private key of --tls-cert");
}

}  // namespace floe::cli
