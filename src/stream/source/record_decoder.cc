#include "stream/source/record_decoder.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <iterator>

#include "formats/json/event_decoder.h"
#include "stream/source/avro_record_decoder.h"
#include "stream/source/confluent_frame.h"
#include "stream/source/protobuf_record_decoder.h"
#include "stream/source/schema_registry_client.h"

namespace floe::stream {
namespace {

// JSON: one event object per record, through the JSON event decoder (one line per record, so
// line numbers are record numbers).
class JsonRecordDecoder final : public RecordDecoder {
 public:
  explicit JsonRecordDecoder(std::unique_ptr<formats::JsonEventDecoder> decoder) : decoder_(std::move(decoder)) {}

  DecodedRecords Decode(std::span<const EncodedRecord> records) override {
    lines_.clear();
    for (const EncodedRecord& r : records) formats::AppendEventLine(&lines_, r.value, r.value_null);
    const size_t size = lines_.size();
    lines_.append(formats::JsonEventDecoder::kPadding, '\0');
    decoder_->DecodeLines(std::string_view(lines_.data(), size), 1);
    DecodedRecords out;
    for (const formats::LineError& e : decoder_->errors()) {
      out.failures.push_back({static_cast<size_t>(e.line - 1), e.message});
    }
    decoder_->ClearErrors();
    out.batches.push_back(decoder_->TakeBatch());
    return out;
  }

  void set_collect_unknown_fields(bool on) override { decoder_->set_collect_unknown_fields(on); }

  std::map<std::string, iceberg::TypePtr> TakeUnknownFields() override {
    std::map<std::string, iceberg::TypePtr> out;
    for (const auto& [name, type] : decoder_->TakeUnknownFields()) {
      iceberg::TypeId id = type == formats::TypeId::kString  ? iceberg::TypeId::kString
                           : type == formats::TypeId::kInt64 ? iceberg::TypeId::kLong
                           : type == formats::TypeId::kDouble ? iceberg::TypeId::kDouble
                                                              : iceberg::TypeId::kBoolean;
      out.emplace(name, iceberg::Type::Primitive(id));
    }
    return out;
  }

 private:
  std::unique_ptr<formats::JsonEventDecoder> decoder_;
  std::string lines_;  // Reused: one line per record of the records being decoded.
};

// Merges two lists of failures, each ascending by index, into one.
std::vector<RecordFailure> MergeFailures(std::vector<RecordFailure> a, std::vector<RecordFailure> b) {
  std::vector<RecordFailure> out;
  out.reserve(a.size() + b.size());
  std::merge(std::make_move_iterator(a.begin()), std::make_move_iterator(a.end()), std::make_move_iterator(b.begin()),
             std::make_move_iterator(b.end()), std::back_inserter(out),
             [](const RecordFailure& x, const RecordFailure& y) { return x.index < y.index; });
  return out;
}

// json-schema: Confluent-framed JSON. The frame's schema id must name a JSON schema in the
// registry (the payload is not validated against it); the payloads go through the JSON decoder.
class JsonSchemaRecordDecoder final : public RecordDecoder {
 public:
  JsonSchemaRecordDecoder(std::unique_ptr<RecordDecoder> json, std::shared_ptr<SchemaRegistryClient> registry)
      : json_(std::move(json)), registry_(std::move(registry)) {}

  DecodedRecords Decode(std::span<const EncodedRecord> records) override {
    std::vector<RecordFailure> failures;
    payloads_.clear();
    index_of_.clear();
    std::map<int32_t, std::string> failed_now;  // Why an id's records fail, for this call.
    int32_t last_good = -1;
    for (size_t i = 0; i < records.size(); ++i) {
      const EncodedRecord& r = records[i];
      if (r.value_null) {
        failures.push_back({i, "json-schema: the record's value is null"});
        continue;
      }
      auto frame = ParseConfluentFrame(r.value);
      if (!frame) {
        failures.push_back({i, "json-schema: " + frame.error().message()});
        continue;
      }
      if (frame->schema_id != last_good) {
        std::string why = Check(frame->schema_id, failed_now);
        if (!why.empty()) {
          failures.push_back({i, "json-schema: " + why});
          continue;
        }
        last_good = frame->schema_id;
      }
      payloads_.push_back({frame->payload, false});
      index_of_.push_back(i);
    }
    DecodedRecords out = json_->Decode(payloads_);
    for (RecordFailure& f : out.failures) f.index = index_of_[f.index];
    out.failures = MergeFailures(std::move(out.failures), std::move(failures));
    return out;
  }

  void set_collect_unknown_fields(bool on) override { json_->set_collect_unknown_fields(on); }
  std::map<std::string, iceberg::TypePtr> TakeUnknownFields() override { return json_->TakeUnknownFields(); }

 private:
  // Empty when `id` is a JSON schema the registry knows; else why not.
  std::string Check(int32_t id, std::map<int32_t, std::string>& failed_now) {
    if (auto it = failed_now.find(id); it != failed_now.end()) return it->second;
    std::string why;
    if (registry_ == nullptr) {
      why = fmt::format("schema id {}: no schema registry to ask (floe stream --registry URL)", id);
    } else if (auto schema = registry_->SchemaById(id); !schema) {
      why = schema.error().message();
    } else if ((*schema)->schema_type != "JSON") {
      why = fmt::format("schema id {} is {}, not JSON: this job decodes JSON Schema records", id, (*schema)->schema_type);
    }
    if (!why.empty()) failed_now.emplace(id, why);
    return why;
  }

  std::unique_ptr<RecordDecoder> json_;
  std::shared_ptr<SchemaRegistryClient> registry_;
  std::vector<EncodedRecord> payloads_;
  std::vector<size_t> index_of_;  // The record each payload came from.
};

// auto: JSON unless a record starts with magic byte 0; a framed record goes to the decoder of
// its registered schema's type (AVRO, PROTOBUF, JSON). Each run of records of one kind goes to
// that kind's decoder; the runs' batches follow one another in record order.
class AutoRecordDecoder final : public RecordDecoder {
 public:
  enum Kind { kJsonKind, kAvroKind, kProtobufKind, kJsonSchemaKind, kFailedKind, kKinds };

  AutoRecordDecoder(std::array<std::unique_ptr<RecordDecoder>, 4> decoders, std::shared_ptr<SchemaRegistryClient> registry)
      : decoders_(std::move(decoders)), registry_(std::move(registry)) {}

  DecodedRecords Decode(std::span<const EncodedRecord> records) override {
    DecodedRecords out;
    kinds_.clear();
    reasons_.clear();
    for (const EncodedRecord& r : records) kinds_.push_back(Classify(r));
    size_t start = 0;
    while (start < records.size()) {
      const Kind kind = kinds_[start];
      size_t end = start + 1;
      while (end < records.size() && kinds_[end] == kind) ++end;
      if (kind == kFailedKind) {
        for (size_t i = start; i < end; ++i) out.failures.push_back({i, reasons_[i]});
        start = end;
        continue;
      }
      DecodedRecords run = decoders_[kind]->Decode(records.subspan(start, end - start));
      for (RecordFailure& f : run.failures) {
        f.index += start;
        out.failures.push_back(std::move(f));
      }
      for (formats::ColumnBatch& b : run.batches) {
        if (b.num_rows > 0) out.batches.push_back(std::move(b));
      }
      start = end;
    }
    return out;
  }

  void set_collect_unknown_fields(bool on) override {
    for (auto& d : decoders_) d->set_collect_unknown_fields(on);
  }

  std::map<std::string, iceberg::TypePtr> TakeUnknownFields() override {
    std::map<std::string, iceberg::TypePtr> out;
    for (auto& d : decoders_) out.merge(d->TakeUnknownFields());
    return out;
  }

 private:
  Kind Classify(const EncodedRecord& r) {
    if (r.value_null || !LooksConfluentFramed(r.value)) return kJsonKind;
    // Without a registry the Avro decoder reports that framed records need one (as before
    // Protobuf and JSON Schema were known).
    if (registry_ == nullptr) return kAvroKind;
    auto frame = ParseConfluentFrame(r.value);
    if (!frame) return kAvroKind;  // Not reached: LooksConfluentFramed holds.
    // An id never changes meaning: its kind, once known, is kept (records of a topic mostly
    // share one id, and this spares the registry client's lock per record).
    if (frame->schema_id == last_id_) return last_kind_;
    auto schema = registry_->SchemaById(frame->schema_id);
    if (!schema) {
      reasons_.resize(kinds_.size() + 1);
      reasons_[kinds_.size()] = schema.error().message();
      return kFailedKind;
    }
    const std::string& type = (*schema)->schema_type;
    last_id_ = frame->schema_id;
    last_kind_ = type == "PROTOBUF" ? kProtobufKind : type == "JSON" ? kJsonSchemaKind : kAvroKind;
    return last_kind_;
  }

  std::array<std::unique_ptr<RecordDecoder>, 4> decoders_;  // By Kind.
  std::shared_ptr<SchemaRegistryClient> registry_;
  std::vector<Kind> kinds_;
  std::vector<std::string> reasons_;  // kFailedKind records' reasons, by index.
  int64_t last_id_ = -1;              // The last schema id classified, and its kind.
  Kind last_kind_ = kAvroKind;
};

}  // namespace

Result<SourceFormat> ParseSourceFormat(std::string_view text) {
  if (text == "json") return SourceFormat::kJson;
  if (text == "avro") return SourceFormat::kAvro;
  if (text == "protobuf") return SourceFormat::kProtobuf;
  if (text == "json-schema") return SourceFormat::kJsonSchema;
  if (text == "auto") return SourceFormat::kAuto;
  return InvalidArgument("--format {}: expected json, avro, protobuf, json-schema or auto", text);
}

std::string_view SourceFormatName(SourceFormat format) {
  switch (format) {
    case SourceFormat::kJson: return "json";
    case SourceFormat::kAvro: return "avro";
    case SourceFormat::kProtobuf: return "protobuf";
    case SourceFormat::kJsonSchema: return "json-schema";
    case SourceFormat::kAuto: return "auto";
  }
  return "json";
}

Result<std::unique_ptr<RecordDecoder>> MakeRecordDecoder(const RecordDecoderOptions& options) {
  auto make_json = [&]() -> Result<std::unique_ptr<RecordDecoder>> {
    FLOE_ASSIGN_OR_RETURN(auto decoder, formats::JsonEventDecoder::Make(options.fields, options.timestamp_unit));
    return std::make_unique<JsonRecordDecoder>(std::move(decoder));
  };
  switch (options.format) {
    case SourceFormat::kJson: return make_json();
    case SourceFormat::kAvro: return std::make_unique<AvroRecordDecoder>(options.fields, options.registry);
    case SourceFormat::kProtobuf: return std::make_unique<ProtobufRecordDecoder>(options.fields, options.registry);
    case SourceFormat::kJsonSchema: {
      FLOE_ASSIGN_OR_RETURN(auto json, make_json());
      return std::make_unique<JsonSchemaRecordDecoder>(std::move(json), options.registry);
    }
    case SourceFormat::kAuto: {
      std::array<std::unique_ptr<RecordDecoder>, 4> decoders;
      FLOE_ASSIGN_OR_RETURN(decoders[AutoRecordDecoder::kJsonKind], make_json());
      decoders[AutoRecordDecoder::kAvroKind] = std::make_unique<AvroRecordDecoder>(options.fields, options.registry);
      decoders[AutoRecordDecoder::kProtobufKind] = std::make_unique<ProtobufRecordDecoder>(options.fields, options.registry);
      FLOE_ASSIGN_OR_RETURN(auto json_for_schema, make_json());
      decoders[AutoRecordDecoder::kJsonSchemaKind] =
          std::make_unique<JsonSchemaRecordDecoder>(std::move(json_for_schema), options.registry);
      return std::make_unique<AutoRecordDecoder>(std::move(decoders), options.registry);
    }
  }
  return InvalidArgument("unknown source format");
}

}  // namespace floe::stream
