#include "stream/source/protobuf_record_decoder.h"

#include <fmt/format.h>

#include "formats/avro/column_decoder.h"
#include "stream/source/confluent_frame.h"
#include "stream/source/protobuf_table_schema.h"

namespace floe::stream {
namespace {

std::string PlanKey(int32_t id, const std::vector<int32_t>& indexes) {
  std::string key = std::to_string(id) + ":";
  for (size_t i = 0; i < indexes.size(); ++i) {
    if (i > 0) key += ',';
    key += std::to_string(indexes[i]);
  }
  return key;
}

}  // namespace

ProtobufRecordDecoder::ProtobufRecordDecoder(std::vector<formats::Field> fields,
                                             std::shared_ptr<SchemaRegistryClient> registry)
    : fields_(std::move(fields)), registry_(std::move(registry)) {}

Result<ProtobufRecordDecoder::WriterPlan*> ProtobufRecordDecoder::PlanFor(int32_t id, const std::vector<int32_t>& indexes,
                                                                          std::map<std::string, Error>& failed_now) {
  const std::string key = PlanKey(id, indexes);
  if (auto it = plans_.find(key); it != plans_.end()) return &it->second;
  if (auto it = failed_now.find(key); it != failed_now.end()) return std::unexpected(it->second);
  auto fail = [&](const Error& error) -> Result<WriterPlan*> {
    failed_now.insert_or_assign(key, error);
    return std::unexpected(error);
  };
  if (registry_ == nullptr) {
    return fail(Error(ErrorKind::kInvalidArgument,
                      fmt::format("schema id {}: no schema registry to ask (floe stream --registry URL)", id)));
  }
  auto schema = registry_->SchemaById(id);
  if (!schema) return fail(schema.error());
  if (!(*schema)->protobuf) {
    return fail(Error(ErrorKind::kNotImplemented,
                      fmt::format("schema id {} is {}, not PROTOBUF: this job decodes Protobuf", id, (*schema)->schema_type)));
  }
  auto message = (*schema)->protobuf->MessageAt(indexes);
  if (!message) return fail(Error(message.error()).WithContext(fmt::format("schema id {}", id)));
  auto decoder = protobuf::ProtoColumnDecoder::Make(**message, fields_);
  if (!decoder) {
    return fail(Error(decoder.error().kind(), fmt::format("message {} of schema id {} cannot be read as the table's columns: {}",
                                                          (*message)->full_name, id, decoder.error().message())));
  }
  WriterPlan& plan = plans_[key];
  plan.schema = std::move(*schema);
  plan.message = *message;
  plan.decoder = std::move(*decoder);
  return &plan;
}

DecodedRecords ProtobufRecordDecoder::Decode(std::span<const EncodedRecord> records) {
  DecodedRecords out;
  formats::ColumnBatch batch = formats::MakeEmptyBatch(fields_);
  size_t bytes = 0;
  for (const EncodedRecord& record : records) bytes += record.value.size();
  avro::ReserveRows(batch, static_cast<int64_t>(records.size()), bytes);
  std::map<std::string, Error> failed_now;
  WriterPlan* last = nullptr;  // Records of one topic mostly share their schema and message.
  int32_t last_id = -1;
  std::string_view last_indexes;
  for (size_t i = 0; i < records.size(); ++i) {
    const EncodedRecord& record = records[i];
    if (record.value_null) {
      out.failures.push_back({i, "protobuf: the record's value is null"});
      continue;
    }
    auto frame = ParseConfluentFrame(record.value);
    if (!frame) {
      out.failures.push_back({i, "protobuf: " + frame.error().message()});
      continue;
    }
    // The indexes are self-delimiting: a payload starting with the last record's index bytes
    // names the same message (most records of a topic do), without parsing them again.
    size_t index_size = last_indexes.size();
    if (last == nullptr || frame->schema_id != last_id || !frame->payload.starts_with(last_indexes)) {
      auto indexes = ParseMessageIndexes(frame->payload);
      if (!indexes) {
        out.failures.push_back({i, fmt::format("protobuf record of schema id {}: {}", frame->schema_id, indexes.error().message())});
        continue;
      }
      index_size = indexes->size;
      const std::string_view index_bytes = frame->payload.substr(0, indexes->size);
      auto plan = PlanFor(frame->schema_id, indexes->indexes, failed_now);
      if (!plan) {
        last = nullptr;
        out.failures.push_back({i, "protobuf: " + plan.error().message()});
        continue;
      }
      last = *plan;
      last_id = frame->schema_id;
      last_indexes = index_bytes;
      if (collect_unknown_) {
        for (const protobuf::ProtoField* field : last->decoder->unmatched_fields()) {
          if (unknown_.contains(field->name)) continue;
          int32_t next_id = 1;  // Placeholder ids: the schema update assigns the table's.
          auto type = ProtoFieldToIcebergType(*field, &next_id);
          if (type) unknown_.emplace(field->name, std::move(*type));
        }
      }
    }
    const size_t base = kConfluentHeaderSize + index_size;
    Status status = last->decoder->DecodeRow(frame->payload.substr(index_size), batch, base);
    if (!status) {
      out.failures.push_back({i, fmt::format("protobuf message {} of schema id {} (byte offsets in the record's value): {}",
                                             last->message->full_name, last_id, status.error().message())});
    }
  }
  out.batches.push_back(std::move(batch));
  return out;
}

std::map<std::string, iceberg::TypePtr> ProtobufRecordDecoder::TakeUnknownFields() { return std::exchange(unknown_, {}); }

}  // namespace floe::stream
