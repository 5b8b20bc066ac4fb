#include "stream/record_decoder.h"

#include "formats/json/event_decoder.h"
#include "stream/avro_record_decoder.h"
#include "stream/confluent_frame.h"

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

// auto: each run of records of one format (Confluent-framed or not) goes to that format's
// decoder; the runs' batches follow one another in record order.
class AutoRecordDecoder final : public RecordDecoder {
 public:
  AutoRecordDecoder(std::unique_ptr<RecordDecoder> json, std::unique_ptr<RecordDecoder> framed)
      : json_(std::move(json)), framed_(std::move(framed)) {}

  DecodedRecords Decode(std::span<const EncodedRecord> records) override {
    DecodedRecords out;
    size_t start = 0;
    while (start < records.size()) {
      const bool framed = IsFramed(records[start]);
      size_t end = start + 1;
      while (end < records.size() && IsFramed(records[end]) == framed) ++end;
      DecodedRecords run = (framed ? framed_ : json_)->Decode(records.subspan(start, end - start));
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
    json_->set_collect_unknown_fields(on);
    framed_->set_collect_unknown_fields(on);
  }

  std::map<std::string, iceberg::TypePtr> TakeUnknownFields() override {
    std::map<std::string, iceberg::TypePtr> out = json_->TakeUnknownFields();
    out.merge(framed_->TakeUnknownFields());
    return out;
  }

 private:
  static bool IsFramed(const EncodedRecord& r) { return !r.value_null && LooksConfluentFramed(r.value); }

  std::unique_ptr<RecordDecoder> json_;
  std::unique_ptr<RecordDecoder> framed_;
};

}  // namespace

Result<SourceFormat> ParseSourceFormat(std::string_view text) {
  if (text == "json") return SourceFormat::kJson;
  if (text == "avro") return SourceFormat::kAvro;
  if (text == "auto") return SourceFormat::kAuto;
  if (text == "protobuf" || text == "json-schema") {
    return NotImplemented("--format {} is not supported yet (json, avro or auto)", text);
  }
  return InvalidArgument("--format {}: expected json, avro or auto", text);
}

std::string_view SourceFormatName(SourceFormat format) {
  switch (format) {
    case SourceFormat::kJson: return "json";
    case SourceFormat::kAvro: return "avro";
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
    case SourceFormat::kAuto: {
      FLOE_ASSIGN_OR_RETURN(auto json, make_json());
      return std::make_unique<AutoRecordDecoder>(std::move(json),
                                                 std::make_unique<AvroRecordDecoder>(options.fields, options.registry));
    }
  }
  return InvalidArgument("unknown source format");
}

}  // namespace floe::stream
