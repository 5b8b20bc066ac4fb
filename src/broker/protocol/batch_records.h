// The records inside an uncompressed RecordBatch v2, for the log cleaner, which must see each
// record's key and whether its value is null (a tombstone) and can rebuild a batch from some of
// its records. Record layout (Kafka's protocol guide, "Record"): varint length | int8
// attributes | varlong timestampDelta | varint offsetDelta | varint keyLength (-1 null) | key |
// varint valueLength (-1 null) | value | varint headerCount | headers.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "broker/protocol/record_batch.h"

namespace floe::broker {

struct RecordView {
  int32_t offset_delta = 0;
  int64_t timestamp_delta = 0;
  std::optional<std::string_view> key;    // nullopt: a null key.
  std::optional<std::string_view> value;  // nullopt: a null value, a tombstone.
  std::string_view bytes;                 // The whole record, its length prefix included.
};

// Calls `visit` for each record of `batch` (a whole, validated batch, header included), which
// must be uncompressed. Every length is checked against the bytes present and the record count
// against the header; a malformed record is a Corruption error naming its index and byte.
Status ForEachRecord(std::string_view batch, const std::function<void(const RecordView&)>& visit);

// A copy of `batch` holding only `records` (each the `bytes` of one of its records, in order):
// recordsCount and the CRC change; the base offset, lastOffsetDelta, timestamps, attributes
// and producer fields stay, so every kept record keeps its offset and timestamp.
std::string RebuildBatch(std::string_view batch, const std::vector<std::string_view>& records);

// Whether every record of `batch` (compressed or not) has a key, as a compacted topic needs:
// a record without one is an InvalidArgument error naming its index, records that cannot be
// decoded (or expand past `max_bytes`) a Corruption or ResourceExhausted error.
Status CheckEveryRecordHasAKey(std::string_view batch, size_t max_bytes);

// `batch` with its records area decompressed (record_compression.h) and its codec bits
// cleared, for reading with ForEachRecord and rebuilding with RebuildBatch; the CRC is not
// recomputed. An uncompressed batch comes back as a copy. Records expanding past `max_bytes`
// are a ResourceExhausted error, undecodable ones a Corruption error.
Result<std::string> DecompressBatch(std::string_view batch, size_t max_bytes);

// An uncompressed `batch` with its records area compressed with `codec` (1-4): attributes,
// batchLength and CRC set to match.
Result<std::string> CompressBatch(std::string_view batch, int codec);

// `batch` (any codec) with its records in `codec` (0 uncompressed, 1-4): a topic's
// compression.type. Offsets, timestamps and producer fields stay; records expanding past
// `max_bytes` are a ResourceExhausted error, undecodable ones a Corruption error.
Result<std::string> RecompressBatch(std::string_view batch, int codec, size_t max_bytes);

}  // namespace floe::broker
