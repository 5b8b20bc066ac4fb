// AvroRecordDecoder: Confluent-framed Avro records into rows. Each record names its writer
// schema by registry id; the schema is fetched once (SchemaRegistryClient), resolved against the
// columns once per id (avro::AvroColumnDecoder) and every datum is decoded straight into the
// batch's columns. A record fails alone, with a reason naming what and where: no Confluent
// header or a magic byte other than 0, an unknown id or an unreachable registry, a schema that
// does not parse or cannot be read as the columns, a datum that is truncated or malformed.
// Owned by one thread.
#pragma once

#include <map>
#include <memory>

#include "formats/avro/column_decoder.h"
#include "stream/source/record_decoder.h"
#include "stream/source/schema_registry_client.h"

namespace floe::stream {

class AvroRecordDecoder final : public RecordDecoder {
 public:
  AvroRecordDecoder(std::vector<formats::Field> fields, std::shared_ptr<SchemaRegistryClient> registry);

  DecodedRecords Decode(std::span<const EncodedRecord> records) override;
  void set_collect_unknown_fields(bool on) override { collect_unknown_ = on; }
  std::map<std::string, iceberg::TypePtr> TakeUnknownFields() override;

 private:
  // A writer schema resolved against the columns.
  struct WriterPlan {
    std::shared_ptr<const RegisteredSchema> schema;
    std::unique_ptr<avro::AvroColumnDecoder> decoder;
  };
  // The plan of schema `id`, or why its records cannot be decoded. Plans are kept; failures
  // are kept for one Decode call only (a registry back up, or an id registered since, serves
  // the next batch).
  Result<const WriterPlan*> PlanFor(int32_t id, std::map<int32_t, Error>& failed_now);

  std::vector<formats::Field> fields_;
  std::shared_ptr<SchemaRegistryClient> registry_;
  std::map<int32_t, WriterPlan> plans_;
  bool collect_unknown_ = false;
  std::map<std::string, iceberg::TypePtr> unknown_;
};

}  // namespace floe::stream
