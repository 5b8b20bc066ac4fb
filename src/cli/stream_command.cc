// `floe stream`: the micro-batch job from a Kafka topic into an Iceberg table (src/stream).
#include <pthread.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "base/logging.h"
#include "broker/server/broker_config.h"
#include "base/units.h"
#include "cli/command.h"
#include "net/http_server.h"
#include "stream/stream_runner.h"

namespace floe::cli {
namespace {

struct StreamFlags {
  std::string brokers, topic, table, catalog = "sqlite:./floe-data/catalog.db", warehouse, schema, trigger = "10s",
                                     timestamp_unit = "ms", transform, group, metrics_listen, maintenance_interval = "5m",
                                     expire_older_than = "1d", orphans_older_than = "3d";
  int expire_retain_last = 100;
  std::vector<std::string> partition, consumer_settings;
  int64_t max_batch_records = 1'000'000;
  int64_t target_file_size_mb = 128;
  int64_t compaction_target_mb = 0;
  std::string compaction = "on";
  bool available_now = false;
  bool evolve_partition = false;
  bool evolve = false;
  std::string format = "json", registry;
  bool with_kafka_columns = false;
  std::string mode = "append", envelope = "none";
  std::vector<std::string> key;
  int format_version = 0;
  std::string topics, table_from, route, dead_letter_table;
};

int RunStreamCommand(const StreamFlags& flags) {
  auto fail = [](const Error& error) {
    fmt::print(stderr, "floe stream: {}\n", error.ToString());
    return error.kind() == ErrorKind::kInvalidArgument || error.kind() == ErrorKind::kNotFound ? kExitUsage
                                                                                              : kExitFailure;
  };
  stream::StreamConfig config;
  config.brokers = flags.brokers;
  config.topic = flags.topic;
  config.table = flags.table;
  config.topics = flags.topics;
  config.table_from = flags.table_from;
  config.dead_letter_table = flags.dead_letter_table;
  if (flags.topic.empty() && flags.topics.empty()) {
    return fail(Error(ErrorKind::kInvalidArgument, "give --topic TOPIC or --topics REGEX"));
  }
  if (!flags.route.empty()) {
    // Read with a bound: a route file is a few lines, not whatever the path happens to be.
    constexpr std::streamsize kMaxRead = (64 << 10) + 1;
    std::ifstream in(flags.route, std::ios::binary);
    if (!in) return fail(Error(ErrorKind::kNotFound, fmt::format("--route {} cannot be read", flags.route)));
    std::string text(static_cast<size_t>(kMaxRead), '\0');
    in.read(text.data(), kMaxRead);
    text.resize(static_cast<size_t>(in.gcount()));
    config.route_file = flags.route;
    config.route_text = std::move(text);
  }
  config.catalog = flags.catalog;
  config.warehouse = flags.warehouse;
  if (config.warehouse.empty() && config.catalog.starts_with("sqlite:")) {
    // Beside the catalog file by default: ./floe-data/catalog.db -> ./floe-data/warehouse.
    std::error_code ignored;
    std::filesystem::path db = std::filesystem::absolute(config.catalog.substr(7), ignored);
    config.warehouse = "file://" + (db.parent_path() / "warehouse").string();
  }
  if (!flags.schema.empty()) {
    std::ifstream in(flags.schema);
    if (!in) return fail(Error(ErrorKind::kNotFound, fmt::format("--schema {} cannot be read", flags.schema)));
    std::stringstream text;
    text << in.rdbuf();
    config.schema_json = text.str();
  }
  config.partition = flags.partition;
  config.evolve_partition_spec = flags.evolve_partition;
  config.format_version = flags.format_version;
  config.timestamp_unit = flags.timestamp_unit;
  config.group = flags.group;
  config.transform = flags.transform;
  config.evolve = flags.evolve;
  config.format = flags.format;
  config.registry = flags.registry;
  config.with_kafka_columns = flags.with_kafka_columns;
  if (flags.mode == "upsert") {
    if (flags.key.empty()) return fail(Error(ErrorKind::kInvalidArgument, "--mode upsert needs --key COL[,COL...]"));
    config.key_columns = flags.key;
  } else if (!flags.key.empty()) {
    return fail(Error(ErrorKind::kInvalidArgument, "--key needs --mode upsert"));
  }
  config.envelope = flags.envelope;
  for (const std::string& setting : flags.consumer_settings) {
    size_t eq = setting.find('=');
    if (eq == std::string::npos || eq == 0) {
      return fail(Error(ErrorKind::kInvalidArgument, fmt::format("--consumer-config {}: expected KEY=VALUE", setting)));
    }
    config.consumer_config[setting.substr(0, eq)] = setting.substr(eq + 1);
  }
  auto maintenance_interval = ParseDurationMillis(flags.maintenance_interval);
  if (!maintenance_interval) return fail(maintenance_interval.error());
  auto expire_older_than = ParseDurationMillis(flags.expire_older_than);
  if (!expire_older_than) return fail(expire_older_than.error());
  auto orphans_older_than = ParseDurationMillis(flags.orphans_older_than);
  if (!orphans_older_than) return fail(orphans_older_than.error());
  config.maintenance.interval_ms = *maintenance_interval;
  config.maintenance.compact = flags.compaction == "on";
  config.maintenance.expire_older_than_ms = *expire_older_than;
  config.maintenance.expire_retain_last = flags.expire_retain_last;
  config.maintenance.orphans_older_than_ms = *orphans_older_than;
  auto interval = ParseDurationMillis(flags.trigger);
  if (!interval) return fail(interval.error());
  config.trigger.interval_millis = *interval;
  config.trigger.max_records = static_cast<size_t>(flags.max_batch_records);
  config.trigger.available_now = flags.available_now;
  config.target_file_size_bytes = flags.target_file_size_mb << 20;
  config.compaction_target_file_size_bytes = flags.compaction_target_mb << 20;

  // Blocked before any thread starts, so every thread inherits it and the waiter below gets them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  MetricsRegistry metrics;
  // Prometheus scrapes /metrics on its own thread; the registry is lock-free to read.
  std::unique_ptr<net::HttpServer> metrics_server;
  if (!flags.metrics_listen.empty()) {
    auto where = broker::ParseHostPort(flags.metrics_listen);
    if (!where) return fail(where.error());
    net::HttpRouter router;
    auto added = router.Add("GET", "/metrics", [&metrics](net::HttpRequest&) {
      net::HttpResponse response = net::HttpResponse::Text(200, metrics.RenderPrometheusText());
      response.headers.Set("Content-Type", "text/plain; version=0.0.4");
      return response;
    });
    if (!added) return fail(added.error());
    net::HttpServerOptions options;
    options.host = where->host;
    options.port = where->port;
    options.threads = 1;
    options.max_body_bytes = 1 << 16;
    metrics_server = std::make_unique<net::HttpServer>(options, std::move(router));
    if (auto started = metrics_server->Start(); !started) return fail(started.error());
    Logger("stream")->info("metrics on http://{}/metrics", metrics_server->address());
  }
  std::atomic<bool> stop{false};
  std::atomic<bool> finished{false};
  std::thread waiter([&] {
    int signal = 0;
    sigwait(&signals, &signal);
    if (finished.load()) return;
    Logger("stream")->info("signal {}: finishing the current batch and stopping", signal);
    stop.store(true);
  });
  Status status = stream::RunStream(config, metrics, &stop);
  if (metrics_server) metrics_server->Stop(std::chrono::milliseconds(1000));
  finished.store(true);
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  if (!status) return fail(status.error());
  return kExitOk;
}

}  // namespace

void RegisterStreamCommand(CLI::App& root, CommandRegistry& registry) {
  auto flags = std::make_shared<StreamFlags>();
  CLI::App* app = registry.Add(root, "stream", "Run the stream job: Kafka topic -> Iceberg table, exactly once",
                               "stream", [flags] { return RunStreamCommand(*flags); });
  app->add_option("--brokers", flags->brokers, "Bootstrap HOST:PORT of the Kafka cluster")->required();
  app->add_option("--topic", flags->topic, "Topic to consume");
  app->add_option("--topics", flags->topics,
                  "Consume every topic whose whole name matches this regex (POSIX extended), including topics "
                  "created later; routes each record to a table (docs/stream.md, Routing)");
  app->add_option("--table", flags->table,
                  "Target table NS.NAME (its dead letters go to NS.NAME_dlq); when routing, NS or NS.PREFIX*: "
                  "where the tables that route values name are made")
      ->required();
  app->add_option("--table-from", flags->table_from,
                  "Routing: the value naming each record's table, topic (default) or field:NAME (a top-level field "
                  "of JSON values), like Kafka Connect's iceberg.tables.route-field");
  app->add_option("--route", flags->route,
                  "Routing: a file of 'REGEX -> TABLE' lines; a record goes to every TABLE whose REGEX matches its "
                  "whole route value (Connect's route-regex); without it the value is the table's name");
  app->add_option("--dead-letter-table", flags->dead_letter_table,
                  "Routing: the dead-letter table, which also holds the job's checkpoint (default NS.<PREFIX>dlq)");
  app->add_option("--catalog", flags->catalog, "sqlite:PATH, postgresql://... or http(s)://host:port")
      ->capture_default_str();
  app->add_option("--warehouse", flags->warehouse,
                  "file:///abs/path or s3://bucket/prefix for tables this job creates (default: beside a sqlite "
                  "catalog)");
  app->add_option("--schema", flags->schema, "Iceberg schema JSON file, to create the table when it is missing");
  app->add_option("--format-version", flags->format_version,
                  "Iceberg format version of a table the job creates: 2 (default) or 3 (row lineage)");
  app->add_option("--partition", flags->partition, "Partition field for a new table, e.g. 'hour(ts)' (repeatable)");
  app->add_flag("--evolve-partition", flags->evolve_partition,
                "Make --partition the default spec of an existing table too (partition evolution: files already "
                "written keep their spec)");
  app->add_option("--trigger", flags->trigger, "Micro-batch interval: 500ms, 10s, 1m")->capture_default_str();
  app->add_option("--max-batch-records", flags->max_batch_records, "Close a batch at this many records")
      ->capture_default_str();
  app->add_option("--target-file-size-mb", flags->target_file_size_mb, "Cut data files at this size")
      ->capture_default_str();
  app->add_option("--timestamp-unit", flags->timestamp_unit, "Unit of numeric timestamps: ms, us or ns")
      ->check(CLI::IsMember({"ms", "us", "ns"}))
      ->capture_default_str();
  app->add_option("--transform", flags->transform, "SELECT ... FROM events WHERE ... applied to each batch");
  app->add_option("--metrics-listen", flags->metrics_listen,
                  "Serve Prometheus metrics at http://HOST:PORT/metrics (port 0: any free port, logged)");
  app->add_option("--consumer-config", flags->consumer_settings,
                  "A librdkafka consumer setting KEY=VALUE, e.g. queued.max.messages.kbytes=131072 (repeatable)");
  app->add_option("--group", flags->group, "Consumer group id (default: floe-stream-<table>)");
  app->add_option("--maintenance-interval", flags->maintenance_interval,
                  "How often the job compacts small files, expires snapshots and removes orphans (0: never)")
      ->capture_default_str();
  app->add_option("--compaction", flags->compaction,
                  "off: maintenance rounds leave small files alone (they still merge manifests and expire snapshots)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app->add_option("--compaction-target-mb", flags->compaction_target_mb,
                  "What compaction writes (default: --target-file-size-mb)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 20));
  app->add_option("--expire-older-than", flags->expire_older_than, "Snapshots older than this may expire")
      ->capture_default_str();
  app->add_option("--expire-retain-last", flags->expire_retain_last, "The newest snapshots that never expire")
      ->capture_default_str();
  app->add_option("--orphans-older-than", flags->orphans_older_than,
                  "Unreferenced files older than this are deleted (0: never)")
      ->capture_default_str();
  app->add_option("--mode", flags->mode,
                  "append: every event becomes a row; upsert: the last event per --key replaces the key's row, "
                  "a tombstone (null value, key in the message key) deletes it (docs/upserts.md)")
      ->check(CLI::IsMember({"append", "upsert"}))
      ->capture_default_str();
  app->add_option("--key", flags->key,
                  "Upsert mode: the key columns, COL[,COL...]; they become the table's identifier fields")
      ->delimiter(',');
  app->add_option("--envelope", flags->envelope,
                  "Upsert mode: none (the value is the row) or debezium (Debezium change events: c/u/r put "
                  "'after', d deletes 'before')")
      ->check(CLI::IsMember({"none", "debezium"}))
      ->capture_default_str();
  app->add_option("--format", flags->format,
                  "Record values: json; avro, protobuf, json-schema (Confluent wire format: magic byte 0, schema "
                  "id, then the Avro datum, the Protobuf message indexes and message, or the JSON text; writer "
                  "schemas from --registry); auto (per record: JSON unless it starts with byte 0, then by the "
                  "registered schema's type)")
      ->check(CLI::IsMember({"json", "avro", "protobuf", "json-schema", "auto"}))
      ->capture_default_str();
  app->add_option("--registry", flags->registry,
                  "Schema Registry URL (Confluent-compatible, e.g. http://127.0.0.1:8081) for every --format but json");
  app->add_flag("--with-kafka-columns", flags->with_kafka_columns,
                "Add and fill _kafka_topic, _partition, _offset, _timestamp (timestamptz) and _key (binary) columns");
  app->add_flag("--evolve", flags->evolve,
                "Add unknown top-level event fields to the table as new optional columns instead of ignoring them");
  app->add_flag("--available-now", flags->available_now,
                "Drain what the topic holds now into the table, then exit (Spark's Trigger.AvailableNow)");
}

}  // namespace floe::cli
