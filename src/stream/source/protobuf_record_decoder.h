// ProtobufRecordDecoder: Confluent-framed Protobuf records into rows. Each record names its
// writer schema by registry id and its message type by the message indexes after the id
// (confluent_frame.h); the schema is fetched once (SchemaRegistryClient, which parses .proto
// text or a serialized descriptor), the message is matched to the columns once per (id,
// indexes) (protobuf::ProtoColumnDecoder) and every message is decoded straight into the
// batch's columns. A record fails alone, with a reason naming what and where: no Confluent
// header or a magic byte other than 0, bad message indexes, an unknown id or an unreachable
// registry, a schema that is not PROTOBUF or does not parse or cannot be read as the columns,
// a message that is truncated or malformed. Owned by one thread.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "formats/protobuf/proto_column_decoder.h"
#include "stream/source/record_decoder.h"
#include "stream/source/schema_registry_client.h"

namespace floe::stream {

class ProtobufRecordDecoder final : public RecordDecoder {
 public:
  ProtobufRecordDecoder(std::vector<formats::Field> fields, std::shared_ptr<SchemaRegistryClient> registry);

  DecodedRecords Decode(std::span<const EncodedRecord> records) override;
  void set_collect_unknown_fields(bool on) override { collect_unknown_ = on; }
  std::map<std::string, iceberg::TypePtr> TakeUnknownFields() override;

 private:
  // A writer message resolved against the columns.
  struct WriterPlan {
    std::shared_ptr<const RegisteredSchema> schema;
    const protobuf::ProtoMessage* message = nullptr;
    std::unique_ptr<protobuf::ProtoColumnDecoder> decoder;
  };
  // The plan of message `indexes` of schema `id`, or why its records cannot be decoded. Plans
  // are kept; failures only for one Decode call (a registry back up serves the next batch).
  Result<WriterPlan*> PlanFor(int32_t id, const std::vector<int32_t>& indexes, std::map<std::string, Error>& failed_now);

  std::vector<formats::Field> fields_;
  std::shared_ptr<SchemaRegistryClient> registry_;
  std::map<std::string, WriterPlan> plans_;  // By "id:index,index...".
  bool collect_unknown_ = false;
  std::map<std::string, iceberg::TypePtr> unknown_;
};

}  // namespace floe::stream
