#include "stream/stream_runner.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/logging.h"
#include "catalog/catalog_table_operations.h"
#include "catalog/open_catalog.h"
#include "iceberg/avro_conversion.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema_json.h"
#include "stream/confluent_frame.h"
#include "stream/first_record.h"
#include "stream/iceberg_committer.h"
#include "stream/kafka_columns.h"
#include "stream/protobuf_table_schema.h"
#include "stream/schema_registry_client.h"

namespace floe::stream {
namespace {

// Creates `id` from `schema_json` and `partition` unless it exists; returns whether it did.
// The schema of a table created in upsert mode: the key columns required and its identifier fields.
Result<iceberg::Schema> WithKey(const iceberg::Schema& schema, const std::vector<std::string>& key_columns) {
  std::vector<iceberg::NestedField> fields = schema.fields();
  std::vector<int32_t> identifiers;
  for (const std::string& name : key_columns) {
    auto it = std::find_if(fields.begin(), fields.end(), [&](const iceberg::NestedField& f) { return f.name == name; });
    if (it == fields.end()) return InvalidArgument("--key {}: the schema has no top-level column '{}'", name, name);
    if (std::find(identifiers.begin(), identifiers.end(), it->id) != identifiers.end()) {
      return InvalidArgument("--key names '{}' twice", name);
    }
    it->required = true;
    identifiers.push_back(it->id);
  }
  iceberg::Schema keyed(schema.schema_id(), std::move(fields), std::move(identifiers));
  FLOE_RETURN_IF_ERROR_CTX(keyed.Validate(), "--key");
  return keyed;
}

Result<bool> EnsureTable(catalog::Catalog& catalog, const catalog::TableIdentifier& id, std::string_view schema_json,
                         const std::vector<std::string>& partition,
                         const std::map<std::string, std::string>& properties,
                         const std::vector<std::string>& key_columns = {}) {
  FLOE_ASSIGN_OR_RETURN(bool exists, catalog.TableExists(id));
  if (exists) return false;
  if (schema_json.empty()) {
    return NotFound("table {} does not exist; give --schema SCHEMA.json to create it",
                    catalog::IdentifierToString(id));
  }
  FLOE_ASSIGN_OR_RETURN_CTX(iceberg::Schema schema, iceberg::SchemaFromJson(schema_json), "--schema");
  if (!key_columns.empty()) {
    FLOE_ASSIGN_OR_RETURN(schema, WithKey(schema, key_columns));
  }
  std::vector<iceberg::PartitionField> fields;
  int32_t next_id = 1000;
  for (const std::string& text : partition) {
    FLOE_ASSIGN_OR_RETURN_CTX(iceberg::PartitionField field, iceberg::ParsePartitionField(text, schema, next_id++),
                              fmt::format("--partition '{}'", text));
    fields.push_back(std::move(field));
  }
  iceberg::PartitionSpec spec(0, fields);
  FLOE_RETURN_IF_ERROR_CTX(spec.Validate(schema), "--partition");
  for (const iceberg::PartitionField& field : fields) {
    // Checked before the table exists: upsert mode would refuse it once made (equality_deletes.h).
    const auto& keys = schema.identifier_field_ids();
    if (!key_columns.empty() && std::find(keys.begin(), keys.end(), field.source_id) == keys.end()) {
      return InvalidArgument("--partition {}: in upsert mode a table is partitioned by --key columns only (a key's "
                             "previous row could be in any other partition)",
                             field.name);
    }
  }
  catalog::TableCreation creation;
  creation.schema = iceberg::SchemaToJsonValue(schema);
  creation.partition_spec = iceberg::PartitionSpecToJsonValue(spec);
  creation.properties = nlohmann::json(properties);
  auto created = catalog.CreateTable(id, creation, /*stage=*/false);
  if (!created && created.error().kind() != ErrorKind::kAlreadyExists) return std::unexpected(created.error());
  return created.has_value();  // Another worker may have created it first: fine.
}

Result<std::unique_ptr<iceberg::Table>> LoadTable(std::shared_ptr<catalog::Catalog> catalog,
                                                   const catalog::TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto ops, catalog::CatalogTableOperations::Open(std::move(catalog), id));
  return iceberg::Table::Load(std::move(ops));
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
  FLOE_ASSIGN_OR_RETURN(ConfluentFrame frame, ParseConfluentFrame(value));
  FLOE_ASSIGN_OR_RETURN_CTX(auto writer, registry.SchemaById(frame.schema_id),
                            fmt::format("the writer's schema of the first record of {}", config.topic));
  iceberg::Schema schema;
  if (writer->avro) {
    FLOE_ASSIGN_OR_RETURN_CTX(schema, iceberg::AvroRecordToSchema(writer->avro->root()),
                              fmt::format("schema id {} as a table", frame.schema_id));
  } else if (writer->protobuf) {
    FLOE_ASSIGN_OR_RETURN_CTX(MessageIndexes indexes, ParseMessageIndexes(frame.payload),
                              fmt::format("the first record of {} (schema id {})", config.topic, frame.schema_id));
    FLOE_ASSIGN_OR_RETURN_CTX(const protobuf::ProtoMessage* message, writer->protobuf->MessageAt(indexes.indexes),
                              fmt::format("the first record of {} (schema id {})", config.topic, frame.schema_id));
    FLOE_ASSIGN_OR_RETURN_CTX(schema, ProtoMessageToSchema(*message),
                              fmt::format("message {} of schema id {} as a table", message->full_name, frame.schema_id));
  } else {
    return NotImplemented(
        "the first record of {} is {} (schema id {}): tables are made from Avro and Protobuf schemas only (give "
        "--schema SCHEMA.json)",
        config.topic, writer->schema_type, frame.schema_id);
  }
  Logger("stream")->info("creating table {} from schema id {} of the first record", config.table, frame.schema_id);
  return iceberg::SchemaToJson(schema);
}

}  // namespace

Status RunStream(const StreamConfig& config, MetricsRegistry& metrics, const std::atomic<bool>* stop) {
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
  std::map<std::string, std::string> stale;
  for (const auto& [k, v] : source) {
    auto it = table->metadata().properties.find(k);
    if (it == table->metadata().properties.end() || it->second != v) stale[k] = v;
  }
  std::vector<std::string> removed;
  for (const std::string& k : unset) {
    if (table->metadata().properties.contains(k)) removed.push_back(k);
  }
  if (!stale.empty() || !removed.empty()) {
    FLOE_RETURN_IF_ERROR_CTX(table->SetProperties(stale, removed), "recording the source in the table");
  }
  if (config.with_kafka_columns) {
    std::vector<iceberg::SchemaChange> changes;
    for (const iceberg::NestedField& f : MissingKafkaColumns(table->metadata().CurrentSchema())) {
      changes.push_back({.kind = iceberg::SchemaChange::Kind::kAddColumn, .column = f.name, .type = f.type, .doc = f.doc});
    }
    if (!changes.empty()) {
      FLOE_RETURN_IF_ERROR_CTX(table->UpdateSchema(changes), "adding the Kafka metadata columns (--with-kafka-columns)");
      log->info("added the Kafka metadata columns to {}", config.table);
    }
  }
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
  maintenance_options.target_file_size_bytes = config.target_file_size_bytes;
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
