// RecordDecoder: how the stream job (and fresh reads of the log tail) turn Kafka record values
// into rows of the table's columns. One implementation per source format, chosen by
// `floe stream --format`: json (the JSON event decoder), avro (Confluent-framed Avro, writer
// schemas from a registry), protobuf (Confluent-framed Protobuf, protobuf_record_decoder.h),
// json-schema (Confluent-framed JSON: the frame checked against the registry, the JSON through
// the JSON event decoder), auto (per record: JSON unless it starts with magic byte 0, then by
// the registered schema's type).
//
// A decoder is made for a set of batch fields (the table's) and owned by one thread; the
// registry client it may hold is shared and thread-safe.
#pragma once

#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "formats/json/epoch_unit.h"
#include "iceberg/types.h"

namespace floe::stream {

class SchemaRegistryClient;

enum class SourceFormat { kJson, kAvro, kProtobuf, kJsonSchema, kAuto };

// "json", "avro", "protobuf", "json-schema" or "auto"; InvalidArgument otherwise.
Result<SourceFormat> ParseSourceFormat(std::string_view text);
std::string_view SourceFormatName(SourceFormat format);

struct EncodedRecord {
  std::string_view value;
  bool value_null = false;
};

struct RecordFailure {
  size_t index = 0;    // Into the records given to Decode.
  std::string reason;  // What failed and where, for the dead-letter table.
};

// The outcome of decoding records: the rows of those that decoded, in record order (over one
// or more batches: `auto` gives one per run of records of one format), and the others.
struct DecodedRecords {
  std::vector<formats::ColumnBatch> batches;
  std::vector<RecordFailure> failures;  // Ascending by index.
};

class RecordDecoder {
 public:
  virtual ~RecordDecoder() = default;

  // Decodes every record; never stops at a bad one.
  virtual DecodedRecords Decode(std::span<const EncodedRecord> records) = 0;

  // `--evolve`: when on, top-level fields the columns lack are noted with an Iceberg type for a
  // new optional column; the rows still leave them out.
  virtual void set_collect_unknown_fields(bool on) = 0;
  // The noted fields since the last call, by name; clears them.
  virtual std::map<std::string, iceberg::TypePtr> TakeUnknownFields() = 0;
};

struct RecordDecoderOptions {
  SourceFormat format = SourceFormat::kJson;
  std::vector<formats::Field> fields;  // The rows' columns.
  formats::EpochUnit timestamp_unit = formats::EpochUnit::kMillis;  // JSON epoch numbers.
  std::shared_ptr<SchemaRegistryClient> registry;  // All but json; null: framed records fail.
};

Result<std::unique_ptr<RecordDecoder>> MakeRecordDecoder(const RecordDecoderOptions& options);

// Whether every record of `format` is Confluent-framed and needs a registry: all but json and
// auto (which may meet JSON only).
inline bool NeedsRegistry(SourceFormat format) { return format != SourceFormat::kJson && format != SourceFormat::kAuto; }

}  // namespace floe::stream
