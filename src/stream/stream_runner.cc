#include "stream/stream_runner.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "base/logging.h"
#include "catalog/catalog_table_operations.h"
#include "catalog/open_catalog.h"
#include "iceberg/avro_conversion.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema_json.h"
#include "stream/first_record.h"
#include "stream/iceberg_committer.h"
#include "stream/routed_maintenance.h"
#include "stream/routing_committer.h"
#include "stream/source/confluent_frame.h"
#include "stream/source/kafka_columns.h"
#include "stream/source/protobuf_table_schema.h"
#include "stream/source/schema_registry_client.h"
#include "stream/table_setup.h"

namespace floe::stream {
namespace {

int64_t CompactionTarget(const StreamConfig& config) {
  return config.compaction_target_file_size_bytes > 0 ? config.compaction_target_file_size_bytes
                                                      : config.target_file_size_bytes;
}

// The Iceberg schema (JSON) of a table made for registry-encoded records: the writer's schema
// of the topic's first record, mapped to Iceberg types.
Result<std::string> SchemaFromFirstRecord(const StreamConfig& config, SchemaRegistryClient& registry,
                                          const std::atomic<bool>* stop) {
  // A draining job gives up soon on an empty topic; a long-running one waits for its first record.
  const auto wait = config.trigger.available_now ? std::chrono::milliseconds(10'000) : std::chrono::hours(24 * 365);
  Logger("stream")->info("table {} does not exist: waiting for the first record of {} to learn its schema",
                         config.table, config.topic);
  FLOE_ASSIGN_OR_RETURN_CTX(std::string value,
                            ReadFirstRecordValue(config.brokers, config.topic, config.consumer_config, wait, stop),
                            fmt::format("table {} does not exist and --schema was not given", config.table));
  if (!LooksConfluentFramed(value)) {
    return NotFound("table {} does not exist and the first record of {} is not Confluent-framed (magic byte 0 and a "
                    "schema id): give --schema SCHEMA.json to create it",
                    config.table, config.topic);
  }
  FLOE_ASSIGN_OR_RETURN(iceberg::Schema schema,
                        SchemaOfFramedValue(value, registry, fmt::format("the first record of {}", config.topic)));
  Logger("stream")->info("creating table {} from the writer's schema of the first record", config.table);
  return iceberg::SchemaToJson(schema);
}

// `floe stream` writing many tables (routing_committer.h).
Status RunRoutedStream(const StreamConfig& config, MetricsRegistry& metrics, const std::atomic<bool>* stop) {
  auto log = Logger("stream");
  // Checked before anything is created: what routing does not do (yet).
  if (!config.key_columns.empty())
    return InvalidArgument("routing (--topics, --table-from, --route) cannot be combined with --mode upsert");
  if (!config.envelope.empty() && config.envelope != "none") return InvalidArgument("--envelope needs --mode upsert");
  if (!config.topic.empty() && !config.topics.empty()) return InvalidArgument("give --topic or --topics, not both");
  if (config.topic.empty() && config.topics.empty())
    return InvalidArgument("routing needs --topics REGEX (or --topic)");
  if (!config.topics.empty()) {
    try {
      std::regex check(config.topics, std::regex::extended);
    } catch (const std::regex_error& error) {
      return InvalidArgument("--topics '{}' is not a POSIX extended regular expression: {}", config.topics,
                             error.what());
    }
  }
  FLOE_ASSIGN_OR_RETURN(formats::EpochUnit unit, formats::ParseEpochUnit(config.timestamp_unit));
  FLOE_ASSIGN_OR_RETURN(SourceFormat format, ParseSourceFormat(config.format));
  FLOE_ASSIGN_OR_RETURN(RouteValueSource from, ParseTableFrom(config.table_from.empty() ? "topic" : config.table_from));
  if (from.kind == RouteValueSource::Kind::kField && format != SourceFormat::kJson && format != SourceFormat::kAuto) {
    return InvalidArgument("--table-from {} reads the field from JSON values: with --format {} route by topic",
                           config.table_from, config.format);
  }
  if (NeedsRegistry(format) && config.registry.empty()) {
    return InvalidArgument("--format {} needs --registry URL (the Schema Registry holding the writers' schemas)",
                           config.format);
  }
  if (config.format_version != 0 && config.format_version != 2 && config.format_version != 3) {
    return InvalidArgument("--format-version {}: floe writes format 2 or 3", config.format_version);
  }
  FLOE_ASSIGN_OR_RETURN(RoutedTableName names, ParseRoutedTable(config.table));
  catalog::TableIdentifier dlq_id{names.ns, names.prefix + "dlq"};
  if (!config.dead_letter_table.empty()) {
    FLOE_ASSIGN_OR_RETURN_CTX(dlq_id, catalog::IdentifierFromString(config.dead_letter_table), "--dead-letter-table");
  }
  std::vector<RouteRule> rules;
  if (!config.route_file.empty()) {
    FLOE_ASSIGN_OR_RETURN(rules, ParseRouteFile(config.route_text, config.route_file, names));
  }
  auto router = std::make_shared<Router>(from, names, std::move(rules), dlq_id);
  std::optional<iceberg::Schema> given_schema;
  if (!config.schema_json.empty()) {
    FLOE_ASSIGN_OR_RETURN_CTX(given_schema, iceberg::SchemaFromJson(config.schema_json), "--schema");
  }
  // --transform: every routed table gets the transform's rows, so each is made with its output
  // schema; --schema is the events' (a routed job has no one table to remember it in).
  std::shared_ptr<sql::iceberg_sql::BatchTransform> transform;
  std::string table_schema_json = config.schema_json;
  if (!config.transform.empty()) {
    if (!given_schema) return InvalidArgument("--transform needs --schema: the schema of the events");
    // As for a single table (IcebergCommitter refuses these too), but before any table is made.
    if (format != SourceFormat::kJson) {
      return InvalidArgument("--format {} cannot be combined with --transform (JSON only, for now)", config.format);
    }
    if (config.with_kafka_columns) return InvalidArgument("--with-kafka-columns cannot be combined with --transform");
    if (config.evolve) return InvalidArgument("--evolve cannot be combined with --transform");
    FLOE_ASSIGN_OR_RETURN_CTX(transform, sql::iceberg_sql::BatchTransform::Compile(config.transform, *given_schema),
                              "--transform");
    table_schema_json = iceberg::SchemaToJson(transform->output_schema());
  }

  FLOE_ASSIGN_OR_RETURN_CTX(std::unique_ptr<catalog::Catalog> opened,
                            catalog::OpenCatalog({.uri = config.catalog, .warehouse = config.warehouse}),
                            fmt::format("opening catalog {}", config.catalog));
  std::shared_ptr<catalog::Catalog> catalog = std::move(opened);
  std::set<catalog::Namespace> namespaces = {names.ns, dlq_id.ns};
  for (const RouteRule& rule : router->rules()) namespaces.insert(rule.table.ns);
  for (const catalog::Namespace& ns : namespaces) {
    FLOE_ASSIGN_OR_RETURN(bool ns_exists, catalog->NamespaceExists(ns));
    if (!ns_exists) {
      auto created = catalog->CreateNamespace(ns, {});
      if (!created && created.error().kind() != ErrorKind::kAlreadyExists) return created;
    }
  }
  const std::string route_description = config.topics.empty() ? config.topic : "/" + config.topics + "/";
  FLOE_ASSIGN_OR_RETURN(
      bool created_dlq,
      EnsureTable(*catalog, dlq_id, DeadLetterSchemaJson(), {},
                  {{"floe.dead-letters-of", fmt::format("{} routed by {}", route_description,
                                                        config.table_from.empty() ? "topic" : config.table_from)}}));
  if (created_dlq) log->info("created dead-letter table {}", catalog::IdentifierToString(dlq_id));
  FLOE_ASSIGN_OR_RETURN(auto dead_letters, LoadTable(catalog, dlq_id));

  std::shared_ptr<SchemaRegistryClient> registry;
  if (!config.registry.empty()) {
    registry = std::make_shared<SchemaRegistryClient>(SchemaRegistryClientOptions{.url = config.registry});
  }
  // A routed table records its source without a topic: it holds only the records routed to it,
  // so fresh reads, which would add a whole topic's tail, read its snapshot instead.
  std::map<std::string, std::string> source = {
      {"floe.source.brokers", config.brokers},
      {"floe.source.format", std::string(SourceFormatName(format))},
      {"floe.source.timestamp-unit", config.timestamp_unit},
      {"floe.source.route",
       fmt::format("{} by {}", route_description, config.table_from.empty() ? "topic" : config.table_from)},
  };
  std::vector<std::string> unset = {"floe.source.topic", "floe.source.transform", "floe.source.event-schema",
                                    "floe.source.mode",  "floe.source.key",       "floe.source.envelope"};
  if (registry) {
    source["floe.source.registry"] = config.registry;
  } else {
    unset.push_back("floe.source.registry");
  }
  if (config.with_kafka_columns) {
    source["floe.source.kafka-columns"] = "true";
  } else {
    unset.push_back("floe.source.kafka-columns");
  }
  if (transform) {
    source["floe.source.transform"] = config.transform;
    source["floe.source.event-schema"] = iceberg::SchemaToJson(*given_schema);
    std::erase(unset, "floe.source.transform");
    std::erase(unset, "floe.source.event-schema");
  }
  auto partitions = TopicPartitionIds::ForManyTopics();
  FLOE_ASSIGN_OR_RETURN(auto committer,
                        RoutingCommitter::Open({.catalog = catalog,
                                                .partitions = partitions,
                                                .router = router,
                                                .sink = {.format = format,
                                                         .registry = registry,
                                                         .with_kafka_columns = config.with_kafka_columns,
                                                         .timestamp_unit = unit,
                                                         .target_file_size_bytes = config.target_file_size_bytes,
                                                         .transform = transform,
                                                         .event_schema = transform ? given_schema : std::nullopt,
                                                         .evolve = config.evolve},
                                                .schema_json = table_schema_json,
                                                .partition = config.partition,
                                                .format_version = config.format_version,
                                                .properties = source,
                                                .unset_properties = unset},
                                               std::move(dead_letters)));
  std::string group = config.group.empty() ? "floe-stream-" + config.table : config.group;
  SerializedCommitter serialized(*committer);
  FLOE_ASSIGN_OR_RETURN(auto kafka_source,
                        KafkaSource::Create({.brokers = config.brokers,
                                             .topic = config.topic,
                                             .topic_regex = config.topics,
                                             .ids = partitions,
                                             .group = group,
                                             .config = config.consumer_config},
                                            [&serialized] { return serialized.CommittedOffsets(); }));
  // Every table the job writes is compacted and expired as a single table's is, the dead-letter
  // table too (it gets a checkpoint commit every batch).
  MaintenanceOptions maintenance_options = config.maintenance;
  maintenance_options.target_file_size_bytes = CompactionTarget(config);
  RoutedMaintenance maintenance(
      [&committer, dlq_id] {
        std::vector<catalog::TableIdentifier> ids = committer->Tables();
        ids.push_back(dlq_id);
        return ids;
      },
      [catalog](const catalog::TableIdentifier& id) { return LoadTable(catalog, id); }, maintenance_options, metrics);
  maintenance.Start();
  StreamJob job(*kafka_source, serialized, config.trigger, metrics, stop);
  log->info(
      "streaming {} from {} into tables routed by {} under {} (dead letters and checkpoint in {}, group {}, "
      "trigger {} ms)",
      route_description, config.brokers, config.table_from.empty() ? "topic" : config.table_from, config.table,
      catalog::IdentifierToString(dlq_id), group, config.trigger.interval_millis);
  Status status = job.Run();
  maintenance.Stop();
  return status;
}

}  // namespace

Status RunStream(const StreamConfig& config, MetricsRegistry& metrics, const std::atomic<bool>* stop) {
  if (!config.topics.empty() || !config.table_from.empty() || !config.route_file.empty()) {
    return RunRoutedStream(config, metrics, stop);
  }
  auto log = Logger("stream");
  FLOE_ASSIGN_OR_RETURN(formats::EpochUnit unit, formats::ParseEpochUnit(config.timestamp_unit));
  FLOE_ASSIGN_OR_RETURN_CTX(catalog::TableIdentifier id, catalog::IdentifierFromString(config.table), "--table");
  catalog::TableIdentifier dlq_id = id;
  dlq_id.name += "_dlq";
  FLOE_ASSIGN_OR_RETURN_CTX(std::unique_ptr<catalog::Catalog> opened,
                            catalog::OpenCatalog({.uri = config.catalog, .warehouse = config.warehouse}),
                            fmt::format("opening catalog {}", config.catalog));
  std::shared_ptr<catalog::Catalog> catalog = std::move(opened);
  FLOE_ASSIGN_OR_RETURN(bool ns_exists, catalog->NamespaceExists(id.ns));
  if (!ns_exists) {
    auto created = catalog->CreateNamespace(id.ns, {});
    if (!created && created.error().kind() != ErrorKind::kAlreadyExists) return created;
  }
  FLOE_ASSIGN_OR_RETURN(SourceFormat format, ParseSourceFormat(config.format));
  if (NeedsRegistry(format) && config.registry.empty()) {
    return InvalidArgument("--format {} needs --registry URL (the Schema Registry holding the writers' schemas)",
                           config.format);
  }
  // Checked before anything is created, as the committer would refuse them after.
  const bool keyed_or_transformed = !config.transform.empty() || !config.key_columns.empty();
  if (format != SourceFormat::kJson && keyed_or_transformed) {
    return InvalidArgument("--format {} cannot be combined with --transform or --mode upsert (JSON only, for now)",
                           config.format);
  }
  if (config.with_kafka_columns && keyed_or_transformed) {
    return InvalidArgument("--with-kafka-columns cannot be combined with --transform or --mode upsert");
  }
  std::shared_ptr<SchemaRegistryClient> registry;
  if (!config.registry.empty()) {
    registry = std::make_shared<SchemaRegistryClient>(SchemaRegistryClientOptions{.url = config.registry});
  }
  // The source, recorded so fresh reads can decode the log tail exactly as this job does.
  std::map<std::string, std::string> source = {
      {"floe.source.brokers", config.brokers},
      {"floe.source.topic", config.topic},
      {"floe.source.format", std::string(SourceFormatName(format))},
      {"floe.source.timestamp-unit", config.timestamp_unit},
  };
  std::vector<std::string> unset;  // Properties of a transform this job no longer has.
  if (registry) {
    source["floe.source.registry"] = config.registry;
  } else {
    unset.push_back("floe.source.registry");
  }
  if (config.with_kafka_columns) {
    source["floe.source.kafka-columns"] = "true";
  } else {
    unset.push_back("floe.source.kafka-columns");
  }
  std::string table_schema_json = config.schema_json;
  std::shared_ptr<sql::iceberg_sql::BatchTransform> transform;
  std::optional<iceberg::Schema> event_schema;
  if (!config.transform.empty()) {
    std::string event_schema_json = config.schema_json;
    if (event_schema_json.empty()) {
      // A table made by an earlier run knows its events' schema.
      FLOE_ASSIGN_OR_RETURN(bool exists, catalog->TableExists(id));
      if (exists) {
        FLOE_ASSIGN_OR_RETURN(auto existing, LoadTable(catalog, id));
        auto it = existing->metadata().properties.find("floe.source.event-schema");
        if (it != existing->metadata().properties.end()) event_schema_json = it->second;
      }
      if (event_schema_json.empty()) return InvalidArgument("--transform needs --schema: the schema of the events");
    }
    FLOE_ASSIGN_OR_RETURN_CTX(event_schema, iceberg::SchemaFromJson(event_schema_json), "--schema");
    FLOE_ASSIGN_OR_RETURN_CTX(auto compiled, sql::iceberg_sql::BatchTransform::Compile(config.transform, *event_schema),
                              "--transform");
    transform = std::move(compiled);
    table_schema_json = iceberg::SchemaToJson(transform->output_schema());
    source["floe.source.transform"] = config.transform;
    source["floe.source.event-schema"] = iceberg::SchemaToJson(*event_schema);
  } else {
    unset = {"floe.source.transform", "floe.source.event-schema"};
  }
  FLOE_ASSIGN_OR_RETURN(Envelope envelope, ParseEnvelope(config.envelope));
  if (!config.key_columns.empty()) {
    std::string keys;
    for (const std::string& k : config.key_columns) keys += (keys.empty() ? "" : ",") + k;
    source["floe.source.mode"] = "upsert";
    source["floe.source.key"] = keys;
    source["floe.source.envelope"] = config.envelope.empty() ? "none" : config.envelope;
  } else {
    if (envelope != Envelope::kNone) return InvalidArgument("--envelope {} needs --mode upsert", config.envelope);
    unset.insert(unset.end(), {"floe.source.mode", "floe.source.key", "floe.source.envelope"});
  }
  if (table_schema_json.empty() && registry && format != SourceFormat::kJson) {
    FLOE_ASSIGN_OR_RETURN(bool exists, catalog->TableExists(id));
    if (!exists) {
      FLOE_ASSIGN_OR_RETURN(table_schema_json, SchemaFromFirstRecord(config, *registry, stop));
    }
  }
  if (config.format_version != 0 && config.format_version != 2 && config.format_version != 3) {
    return InvalidArgument("--format-version {}: floe writes format 2 or 3", config.format_version);
  }
  std::map<std::string, std::string> creation = source;
  // Read by catalog::TableCreation at creation only: Iceberg keeps it out of the properties.
  if (config.format_version != 0) creation["format-version"] = std::to_string(config.format_version);
  FLOE_ASSIGN_OR_RETURN(bool created,
                        EnsureTable(*catalog, id, table_schema_json, config.partition, creation, config.key_columns));
  if (created) log->info("created table {}", config.table);
  std::map<std::string, std::string> dlq_properties = {{"floe.dead-letters-of", config.table}};
  FLOE_ASSIGN_OR_RETURN(bool created_dlq,
                        EnsureTable(*catalog, dlq_id, DeadLetterSchemaJson(), {}, dlq_properties));
  if (created_dlq) log->info("created dead-letter table {}", catalog::IdentifierToString(dlq_id));

  FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(catalog, id));
  if (table->metadata().format_version < config.format_version) {
    return InvalidArgument("--format-version {}: table {} exists with format version {} (upgrade it first)",
                           config.format_version, config.table, table->metadata().format_version);
  }
  // Keep the recorded source current (a job pointed at another broker or unit says so).
  FLOE_RETURN_IF_ERROR(RecordSource(*table, source, unset));
  if (config.evolve_partition_spec) {
    if (!config.key_columns.empty()) {
      return InvalidArgument("--evolve-partition is for append mode (a keyed table is partitioned by its key)");
    }
    FLOE_ASSIGN_OR_RETURN(bool evolved, EvolvePartitionSpec(*table, config.partition));
    if (evolved) {
      log->info("table {} is now partitioned by [{}]; files already written keep their spec", config.table,
                fmt::join(config.partition, ", "));
    }
  }
  if (config.with_kafka_columns) FLOE_RETURN_IF_ERROR(AddKafkaColumns(*table, config.table));
  FLOE_ASSIGN_OR_RETURN(auto dead_letters, LoadTable(catalog, dlq_id));
  FLOE_ASSIGN_OR_RETURN(auto committer,
                        IcebergCommitter::Open(std::move(table), std::move(dead_letters),
                                               {.topic = config.topic,
                                                .format = format,
                                                .registry = registry,
                                                .with_kafka_columns = config.with_kafka_columns,
                                                .timestamp_unit = unit,
                                                .target_file_size_bytes = config.target_file_size_bytes,
                                                .transform = transform,
                                                .event_schema = event_schema,
                                                .evolve = config.evolve,
                                                .key_columns = config.key_columns,
                                                .envelope = envelope}));
  std::string group = config.group.empty() ? "floe-stream-" + config.table : config.group;
  SerializedCommitter serialized(*committer);
  FLOE_ASSIGN_OR_RETURN(auto kafka_source,
                        KafkaSource::Create({.brokers = config.brokers,
                                             .topic = config.topic,
                                             .group = group,
                                             .config = config.consumer_config},
                                            [&serialized] { return serialized.CommittedOffsets(); }));
  MaintenanceOptions maintenance_options = config.maintenance;
  maintenance_options.target_file_size_bytes = CompactionTarget(config);
  TableMaintenance maintenance([catalog, id] { return LoadTable(catalog, id); }, maintenance_options, metrics);
  maintenance.Start();
  StreamJob job(*kafka_source, serialized, config.trigger, metrics, stop);
  log->info("streaming {} from {} into {} (group {}, trigger {} ms)", config.topic, config.brokers, config.table,
            group, config.trigger.interval_millis);
  Status status = job.Run();
  maintenance.Stop();
  return status;
}

}  // namespace floe::stream
