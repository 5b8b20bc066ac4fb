#include "stream/table_setup.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/logging.h"
#include "catalog/catalog_table_operations.h"
#include "iceberg/avro_conversion.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema_json.h"
#include "stream/source/confluent_frame.h"
#include "stream/source/kafka_columns.h"
#include "stream/source/protobuf_table_schema.h"
#include "stream/source/record_decoder.h"

namespace floe::stream {
namespace {

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

}  // namespace

Result<bool> EnsureTable(catalog::Catalog& catalog, const catalog::TableIdentifier& id, std::string_view schema_json,
                         const std::vector<std::string>& partition,
                         const std::map<std::string, std::string>& properties,
                         const std::vector<std::string>& key_columns) {
  FLOE_ASSIGN_OR_RETURN(bool exists, catalog.TableExists(id));
  if (exists) return false;
  if (schema_json.empty()) {
    return NotFound("table {} does not exist; give --schema SCHEMA.json to create it", catalog::IdentifierToString(id));
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
      return InvalidArgument(
          "--partition {}: in upsert mode a table is partitioned by --key columns only (a key's "
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

Result<bool> EvolvePartitionSpec(iceberg::Table& table, const std::vector<std::string>& partition) {
  const iceberg::Schema& schema = table.metadata().CurrentSchema();
  std::vector<iceberg::PartitionField> fields;
  for (const std::string& text : partition) {
    // The id is a placeholder: UpdatePartitionSpec reuses an earlier spec's id for an equal field.
    FLOE_ASSIGN_OR_RETURN_CTX(iceberg::PartitionField field, iceberg::ParsePartitionField(text, schema, 0),
                              fmt::format("--partition '{}'", text));
    fields.push_back(std::move(field));
  }
  const std::vector<iceberg::PartitionField>& current = table.metadata().DefaultSpec().fields();
  bool same = current.size() == fields.size();
  for (size_t i = 0; same && i < fields.size(); ++i) {
    same = current[i].source_id == fields[i].source_id && current[i].transform == fields[i].transform;
  }
  if (same) return false;
  FLOE_RETURN_IF_ERROR_CTX(table.UpdatePartitionSpec(fields), "evolving the partition spec");
  return true;
}

Status RecordSource(iceberg::Table& table, const std::map<std::string, std::string>& set,
                    const std::vector<std::string>& unset) {
  std::map<std::string, std::string> stale;
  for (const auto& [k, v] : set) {
    auto it = table.metadata().properties.find(k);
    if (it == table.metadata().properties.end() || it->second != v) stale[k] = v;
  }
  std::vector<std::string> removed;
  for (const std::string& k : unset) {
    if (table.metadata().properties.contains(k)) removed.push_back(k);
  }
  if (!stale.empty() || !removed.empty()) {
    FLOE_RETURN_IF_ERROR_CTX(table.SetProperties(stale, removed), "recording the source in the table");
  }
  return OkStatus();
}

Status AddKafkaColumns(iceberg::Table& table, std::string_view name) {
  std::vector<iceberg::SchemaChange> changes;
  for (const iceberg::NestedField& f : MissingKafkaColumns(table.metadata().CurrentSchema())) {
    changes.push_back(
        {.kind = iceberg::SchemaChange::Kind::kAddColumn, .column = f.name, .type = f.type, .doc = f.doc});
  }
  if (!changes.empty()) {
    FLOE_RETURN_IF_ERROR_CTX(table.UpdateSchema(changes), "adding the Kafka metadata columns (--with-kafka-columns)");
    Logger("stream")->info("added the Kafka metadata columns to {}", name);
  }
  return OkStatus();
}

Result<iceberg::Schema> SchemaOfFramedValue(std::string_view value, SchemaRegistryClient& registry,
                                            std::string_view what) {
  FLOE_ASSIGN_OR_RETURN(ConfluentFrame frame, ParseConfluentFrame(value));
  FLOE_ASSIGN_OR_RETURN_CTX(auto writer, registry.SchemaById(frame.schema_id),
                            fmt::format("the writer's schema of {}", what));
  iceberg::Schema schema;
  if (writer->avro) {
    FLOE_ASSIGN_OR_RETURN_CTX(schema, iceberg::AvroRecordToSchema(writer->avro->root()),
                              fmt::format("schema id {} as a table", frame.schema_id));
  } else if (writer->protobuf) {
    FLOE_ASSIGN_OR_RETURN_CTX(MessageIndexes indexes, ParseMessageIndexes(frame.payload),
                              fmt::format("{} (schema id {})", what, frame.schema_id));
    FLOE_ASSIGN_OR_RETURN_CTX(const protobuf::ProtoMessage* message, writer->protobuf->MessageAt(indexes.indexes),
                              fmt::format("{} (schema id {})", what, frame.schema_id));
    FLOE_ASSIGN_OR_RETURN_CTX(
        schema, ProtoMessageToSchema(*message),
        fmt::format("message {} of schema id {} as a table", message->full_name, frame.schema_id));
  } else {
    return NotImplemented(
        "{} is {} (schema id {}): tables are made from Avro and Protobuf schemas only (give --schema SCHEMA.json)",
        what, writer->schema_type, frame.schema_id);
  }
  return schema;
}

Result<iceberg::Schema> SchemaOfJsonValue(std::string_view value, formats::EpochUnit unit) {
  // A JSON decoder needs one field; every key of the record is to be noted, so the one field is
  // a name no JSON text has unescaped (a raw control byte), and nullable: its absence is fine.
  formats::Field placeholder{
      .name = "\x01floe-no-column", .id = -1, .nullable = true, .type = formats::Primitive(formats::TypeId::kString)};
  FLOE_ASSIGN_OR_RETURN(
      auto decoder,
      MakeRecordDecoder({.format = SourceFormat::kJson, .fields = {placeholder}, .timestamp_unit = unit}));
  decoder->set_collect_unknown_fields(true);
  EncodedRecord record{.value = value, .value_null = false};
  DecodedRecords decoded = decoder->Decode(std::span<const EncodedRecord>(&record, 1));
  if (!decoded.failures.empty()) {
    return InvalidArgument("the first record is not a JSON object a table can be made from: {}",
                           decoded.failures.front().reason);
  }
  std::vector<iceberg::NestedField> fields;
  int32_t id = 1;
  for (auto& [name, type] : decoder->TakeUnknownFields()) {
    fields.push_back({.id = id++, .name = name, .required = false, .type = std::move(type)});
  }
  if (fields.empty()) return InvalidArgument("the first record has no key a column can be made from");
  iceberg::Schema schema(0, std::move(fields));
  FLOE_RETURN_IF_ERROR(schema.Validate());
  return schema;
}

}  // namespace floe::stream
