#include "broker/protocol/record_batch.h"

#include "base/bytes.h"
#include "base/crc32c.h"

namespace floe::broker {

Result<BatchHeader> ParseBatchHeader(std::string_view bytes) {
  if (bytes.size() < kBatchHeaderSize) {
    return Corruption("record batch: {} bytes, shorter than the {}-byte header", bytes.size(), kBatchHeaderSize);
  }
  ByteReader reader(bytes.substr(0, kBatchHeaderSize));
  BatchHeader h;
  FLOE_ASSIGN_OR_RETURN(h.base_offset, reader.ReadBig<int64_t>("baseOffset"));
  FLOE_ASSIGN_OR_RETURN(h.batch_length, reader.ReadBig<int32_t>("batchLength"));
  FLOE_ASSIGN_OR_RETURN(h.leader_epoch, reader.ReadBig<int32_t>("partitionLeaderEpoch"));
  FLOE_ASSIGN_OR_RETURN(h.magic, reader.ReadBig<int8_t>("magic"));
  FLOE_ASSIGN_OR_RETURN(h.crc, reader.ReadBig<uint32_t>("crc"));
  FLOE_ASSIGN_OR_RETURN(h.attributes, reader.ReadBig<int16_t>("attributes"));
  FLOE_ASSIGN_OR_RETURN(h.last_offset_delta, reader.ReadBig<int32_t>("lastOffsetDelta"));
  FLOE_ASSIGN_OR_RETURN(h.first_timestamp, reader.ReadBig<int64_t>("baseTimestamp"));
  FLOE_ASSIGN_OR_RETURN(h.max_timestamp, reader.ReadBig<int64_t>("maxTimestamp"));
  FLOE_ASSIGN_OR_RETURN(h.producer_id, reader.ReadBig<int64_t>("producerId"));
  FLOE_ASSIGN_OR_RETURN(h.producer_epoch, reader.ReadBig<int16_t>("producerEpoch"));
  FLOE_ASSIGN_OR_RETURN(h.base_sequence, reader.ReadBig<int32_t>("baseSequence"));
  FLOE_ASSIGN_OR_RETURN(h.records_count, reader.ReadBig<int32_t>("recordsCount"));
  if (h.batch_length < static_cast<int32_t>(kBatchHeaderSize - kBatchLogOverhead)) {
    return Corruption("record batch: batchLength {} is shorter than the header", h.batch_length);
  }
  return h;
}

Result<BatchHeader> ValidateBatch(std::string_view batch, BatchSource source) {
  FLOE_ASSIGN_OR_RETURN(BatchHeader h, ParseBatchHeader(batch));
  if (h.magic != 2) return Corruption("record batch: magic {} (only RecordBatch v2 is stored)", h.magic);
  if (h.size() != batch.size()) {
    return Corruption("record batch: batchLength says {} bytes, {} present", h.size(), batch.size());
  }
  const bool counts_agree = source == BatchSource::kCompactedLog ? h.records_count <= int64_t{h.last_offset_delta} + 1
                                                                 : h.last_offset_delta == h.records_count - 1;
  if (h.records_count < 0 || h.last_offset_delta < 0 || (!h.control() && h.records_count > 0 && !counts_agree)) {
    return Corruption("record batch: {} records with lastOffsetDelta {}", h.records_count, h.last_offset_delta);
  }
  uint32_t crc = crc32c::Value(batch.data() + kBatchAttributesAt, batch.size() - kBatchAttributesAt);
  if (crc != h.crc) return Corruption("record batch: CRC-32C {:08x}, header says {:08x}", crc, h.crc);
  return h;
}

Result<std::vector<BatchView>> SplitBatches(std::string_view records, size_t max_batch_bytes) {
  std::vector<BatchView> batches;
  size_t position = 0;
  while (position < records.size()) {
    std::string_view rest = records.substr(position);
    FLOE_ASSIGN_OR_RETURN(BatchHeader h, ParseBatchHeader(rest));
    if (h.size() > max_batch_bytes) {
      return ResourceExhausted("record batch of {} bytes exceeds the {}-byte limit", h.size(), max_batch_bytes);
    }
    if (h.size() > rest.size()) {
      return Corruption("record batch at byte {}: {} bytes declared, {} present", position, h.size(), rest.size());
    }
    auto validated = ValidateBatch(rest.substr(0, h.size()));
    if (!validated) return std::unexpected(std::move(validated).error().WithContext(fmt::format("batch at byte {}", position)));
    h = *validated;
    batches.push_back({h, position});
    position += h.size();
  }
  if (batches.empty()) return Corruption("produce request without a record batch");
  return batches;
}

void StampBaseOffset(char* batch, int64_t offset) {
  for (int i = 0; i < 8; ++i) batch[i] = static_cast<char>(static_cast<uint64_t>(offset) >> (56 - 8 * i));
}

}  // namespace floe::broker
