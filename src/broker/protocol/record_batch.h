// RecordBatch v2, the unit the broker validates, stores and serves (docs/kafka.md, "Record
// batches"). The broker never decompresses or rewrites a batch: it checks the framing and the
// CRC-32C (which covers attributes to the end, so the base offset and partition leader epoch
// can be stamped in place) and stores the producer's bytes verbatim.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::broker {

// Offset of each fixed field in a batch, and the size of the fixed part.
inline constexpr size_t kBatchBaseOffsetAt = 0;
inline constexpr size_t kBatchLengthAt = 8;
inline constexpr size_t kBatchLeaderEpochAt = 12;
inline constexpr size_t kBatchMagicAt = 16;
inline constexpr size_t kBatchCrcAt = 17;
inline constexpr size_t kBatchAttributesAt = 21;
inline constexpr size_t kBatchHeaderSize = 61;
// The bytes before batchLength's count starts (baseOffset + batchLength).
inline constexpr size_t kBatchLogOverhead = 12;

struct BatchHeader {
  int64_t base_offset = 0;
  int32_t batch_length = 0;
  int32_t leader_epoch = 0;
  int8_t magic = 0;
  uint32_t crc = 0;
  int16_t attributes = 0;
  int32_t last_offset_delta = 0;
  int64_t first_timestamp = 0;
  int64_t max_timestamp = 0;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  int32_t base_sequence = -1;
  int32_t records_count = 0;

  size_t size() const { return kBatchLogOverhead + static_cast<size_t>(batch_length); }
  int64_t last_offset() const { return base_offset + last_offset_delta; }
  int compression() const { return attributes & 0x7; }
  bool transactional() const { return (attributes & 0x10) != 0; }
  bool control() const { return (attributes & 0x20) != 0; }
  int32_t last_sequence() const { return base_sequence + last_offset_delta; }
};

// Decodes the fixed part at the start of `bytes` (at least kBatchHeaderSize bytes). Checks only
// that the length is plausible; ValidateBatch checks the rest.
Result<BatchHeader> ParseBatchHeader(std::string_view bytes);

// Where a batch comes from: a producer's batch holds one record per offset of its range; a
// stored one may have fewer once log compaction removed records (the offsets stay, so
// lastOffsetDelta keeps the range and recordsCount shrinks).
enum class BatchSource { kProducer, kCompactedLog };

// Checks one whole batch: magic 2, length consistent with `batch.size()`, offset delta
// consistent with the record count (as `source` allows), and the CRC-32C.
Result<BatchHeader> ValidateBatch(std::string_view batch, BatchSource source = BatchSource::kProducer);

struct BatchView {
  BatchHeader header;
  size_t position = 0;  // Within the records blob.
};

// Splits a produce request's records blob into batches, validating each; any batch larger than
// `max_batch_bytes` is a ResourceExhausted error, anything malformed a Corruption error.
Result<std::vector<BatchView>> SplitBatches(std::string_view records, size_t max_batch_bytes);

// Stamps `offset` as the base offset of the batch at `batch` (not covered by the CRC).
void StampBaseOffset(char* batch, int64_t offset);

}  // namespace floe::broker
