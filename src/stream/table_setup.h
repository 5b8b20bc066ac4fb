// Making and preparing the tables a stream job writes: creation from a schema (or from the
// first record's), the source recorded in the table's properties, the Kafka metadata columns.
// Shared by the single-table job (stream_runner.h) and the routed one (routing_committer.h).
// Functions of their arguments; any thread.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "catalog/catalog.h"
#include "formats/json/epoch_unit.h"
#include "iceberg/schema.h"
#include "iceberg/table.h"
#include "stream/source/schema_registry_client.h"

namespace floe::stream {

// Creates `id` from `schema_json` and `partition` unless it exists; returns whether it did. In
// upsert mode (`key_columns`) the key columns become required identifier fields.
Result<bool> EnsureTable(catalog::Catalog& catalog, const catalog::TableIdentifier& id, std::string_view schema_json,
                         const std::vector<std::string>& partition,
                         const std::map<std::string, std::string>& properties,
                         const std::vector<std::string>& key_columns = {});

Result<std::unique_ptr<iceberg::Table>> LoadTable(std::shared_ptr<catalog::Catalog> catalog,
                                                  const catalog::TableIdentifier& id);

// Makes `partition` ("hour(ts)", "region", ...; empty: unpartitioned) the table's default
// partition spec unless it already is — Iceberg partition evolution: files written under an
// earlier spec keep it and are read with it, new files use the new one. Returns whether the
// spec changed.
Result<bool> EvolvePartitionSpec(iceberg::Table& table, const std::vector<std::string>& partition);

// Sets the properties of `set` that differ and removes those of `unset` that are there.
Status RecordSource(iceberg::Table& table, const std::map<std::string, std::string>& set,
                    const std::vector<std::string>& unset);

// Adds the Kafka metadata columns (kafka_columns.h) the table lacks.
Status AddKafkaColumns(iceberg::Table& table, std::string_view name);

// The table schema of a Confluent-framed record: its writer's Avro schema, or the Protobuf
// message its indexes name, mapped to Iceberg types. `what` names the record in errors.
Result<iceberg::Schema> SchemaOfFramedValue(std::string_view value, SchemaRegistryClient& registry,
                                            std::string_view what);

// The table schema of a JSON object record: one optional column per top-level key (in name
// order), typed as `--evolve` types a new key (string, long, double or boolean; see
// formats/json). Keys whose values are null, objects or arrays are left out.
Result<iceberg::Schema> SchemaOfJsonValue(std::string_view value, formats::EpochUnit unit);

}  // namespace floe::stream
