#include "stream/source/avro_record_decoder.h"

#include <fmt/format.h>

#include "iceberg/avro_conversion.h"
#include "stream/source/confluent_frame.h"

namespace floe::stream {

AvroRecordDecoder::AvroRecordDecoder(std::vector<formats::Field> fields, std::shared_ptr<SchemaRegistryClient> registry)
    : fields_(std::move(fields)), registry_(std::move(registry)) {}

Result<const AvroRecordDecoder::WriterPlan*> AvroRecordDecoder::PlanFor(int32_t id,
                                                                         std::map<int32_t, Error>& failed_now) {
  if (auto it = plans_.find(id); it != plans_.end()) return &it->second;
  if (auto it = failed_now.find(id); it != failed_now.end()) return std::unexpected(it->second);
  auto fail = [&](const Error& error) -> Result<const WriterPlan*> {
    failed_now.insert_or_assign(id, error);
    return std::unexpected(error);
  };
  if (registry_ == nullptr) {
    return fail(Error(ErrorKind::kInvalidArgument,
                      fmt::format("schema id {}: no schema registry to ask (floe stream --registry URL)", id)));
  }
  auto schema = registry_->SchemaById(id);
  if (!schema) return fail(schema.error());
  if (!(*schema)->avro) {
    return fail(Error(ErrorKind::kNotImplemented,
                      fmt::format("schema id {} is {}, not AVRO: this job decodes Avro", id, (*schema)->schema_type)));
  }
  auto decoder = avro::AvroColumnDecoder::Make((*schema)->avro->root(), fields_);
  if (!decoder) {
    return fail(Error(decoder.error().kind(),
                      fmt::format("schema id {} cannot be read as the table's columns: {}", id, decoder.error().message())));
  }
  WriterPlan& plan = plans_[id];
  plan.schema = std::move(*schema);
  plan.decoder = std::move(*decoder);
  return &plan;
}

DecodedRecords AvroRecordDecoder::Decode(std::span<const EncodedRecord> records) {
  DecodedRecords out;
  formats::ColumnBatch batch = formats::MakeEmptyBatch(fields_);
  size_t bytes = 0;
  for (const EncodedRecord& record : records) bytes += record.value.size();
  avro::ReserveRows(batch, static_cast<int64_t>(records.size()), bytes);
  std::map<int32_t, Error> failed_now;
  const WriterPlan* last = nullptr;  // Records of one topic mostly share their schema.
  int32_t last_id = -1;
  for (size_t i = 0; i < records.size(); ++i) {
    const EncodedRecord& record = records[i];
    if (record.value_null) {
      out.failures.push_back({i, "avro: the record's value is null"});
      continue;
    }
    auto frame = ParseConfluentFrame(record.value);
    if (!frame) {
      out.failures.push_back({i, "avro: " + frame.error().message()});
      continue;
    }
    if (last == nullptr || frame->schema_id != last_id) {
      auto plan = PlanFor(frame->schema_id, failed_now);
      if (!plan) {
        out.failures.push_back({i, "avro: " + plan.error().message()});
        continue;
      }
      last = *plan;
      last_id = frame->schema_id;
      if (collect_unknown_) {
        for (const avro::AvroField* field : last->decoder->unmatched_fields()) {
          if (unknown_.contains(field->name)) continue;
          int32_t next_id = 1;  // Placeholder ids: the schema update assigns the table's.
          auto type = iceberg::AvroToIcebergType(*field->type, &next_id);
          if (type) unknown_.emplace(field->name, std::move(*type));
        }
      }
    }
    Status status = last->decoder->DecodeRow(frame->payload, batch);
    if (!status) {
      out.failures.push_back(
          {i, fmt::format("avro datum of schema id {} (byte offsets after the 5-byte header): {}", last_id,
                          status.error().message())});
    }
  }
  out.batches.push_back(std::move(batch));
  return out;
}

std::map<std::string, iceberg::TypePtr> AvroRecordDecoder::TakeUnknownFields() { return std::exchange(unknown_, {}); }

}  // namespace floe::stream
