#include "broker/protocol/batch_records.h"

#include "base/bytes.h"
#include "base/crc32c.h"
#include "broker/protocol/record_compression.h"

namespace floe::broker {

Status ForEachRecord(std::string_view batch, const std::function<void(const RecordView&)>& visit) {
  FLOE_ASSIGN_OR_RETURN(BatchHeader header, ParseBatchHeader(batch));
  if (header.compression() != 0) return Corruption("record batch: compressed (codec {})", header.compression());
  if (batch.size() != header.size()) return Corruption("record batch: {} of {} bytes", batch.size(), header.size());
  ByteReader in(batch.substr(kBatchHeaderSize));
  for (int32_t i = 0; i < header.records_count; ++i) {
    const size_t start = in.position();
    auto where = [&](const Error& e) {
      return Corruption("record {} at byte {}: {}", i, kBatchHeaderSize + start, e.message()).error();
    };
    auto length = in.ReadSignedVarint("record length");
    if (!length) return std::unexpected(where(length.error()));
    if (*length < 1 || static_cast<uint64_t>(*length) > in.remaining()) {
      return Corruption("record {} at byte {}: length {} with {} bytes left", i, kBatchHeaderSize + start, *length,
                        in.remaining());
    }
    const size_t prefix = in.position() - start;
    auto body = in.ReadBytes(static_cast<size_t>(*length), "record");
    ByteReader r(*body);
    RecordView record;
    record.bytes = batch.substr(kBatchHeaderSize + start, prefix + static_cast<size_t>(*length));
    Status fields = [&]() -> Status {
      FLOE_RETURN_IF_ERROR(r.ReadBig<int8_t>("attributes"));
      FLOE_ASSIGN_OR_RETURN(record.timestamp_delta, r.ReadSignedVarint("timestampDelta"));
      FLOE_ASSIGN_OR_RETURN(int64_t offset_delta, r.ReadSignedVarint("offsetDelta"));
      if (offset_delta < 0 || offset_delta > header.last_offset_delta) {
        return Corruption("offsetDelta {} outside the batch's 0..{}", offset_delta, header.last_offset_delta);
      }
      record.offset_delta = static_cast<int32_t>(offset_delta);
      FLOE_ASSIGN_OR_RETURN(int64_t key_length, r.ReadSignedVarint("keyLength"));
      if (key_length < -1) return Corruption("keyLength {}", key_length);
      if (key_length >= 0) {
        FLOE_ASSIGN_OR_RETURN(record.key, r.ReadBytes(static_cast<size_t>(key_length), "key"));
      }
      FLOE_ASSIGN_OR_RETURN(int64_t value_length, r.ReadSignedVarint("valueLength"));
      if (value_length < -1) return Corruption("valueLength {}", value_length);
      if (value_length >= 0) {
        FLOE_ASSIGN_OR_RETURN(record.value, r.ReadBytes(static_cast<size_t>(value_length), "value"));
      }
      FLOE_ASSIGN_OR_RETURN(uint64_t headers, r.ReadUnsignedVarint("headerCount"));
      // Each header takes at least two bytes (two varint lengths).
      if (headers > r.remaining() / 2) return Corruption("{} headers in {} bytes", headers, r.remaining());
      return OkStatus();
    }();
    if (!fields) return std::unexpected(where(fields.error()));
    visit(record);
  }
  if (!in.empty()) {
    return Corruption("record batch: {} bytes after its {} records", in.remaining(), header.records_count);
  }
  return OkStatus();
}

std::string RebuildBatch(std::string_view batch, const std::vector<std::string_view>& records) {
  std::string out(batch.substr(0, kBatchHeaderSize));
  for (std::string_view record : records) out.append(record);
  ByteWriter w(&out);
  w.PatchBig<int32_t>(kBatchLengthAt, static_cast<int32_t>(out.size() - kBatchLogOverhead));
  w.PatchBig<int32_t>(kBatchHeaderSize - 4, static_cast<int32_t>(records.size()));
  w.PatchBig<uint32_t>(kBatchCrcAt, crc32c::Value(out.data() + kBatchAttributesAt, out.size() - kBatchAttributesAt));
  return out;
}

namespace {

// Replaces the records area of `header_and_records`'s first kBatchHeaderSize bytes' batch
// with `records`, setting the codec bits, batchLength and CRC.
std::string WithRecordsArea(std::string_view batch, std::string_view records, int codec) {
  std::string out(batch.substr(0, kBatchHeaderSize));
  out.append(records);
  ByteWriter w(&out);
  auto attributes = static_cast<int16_t>((static_cast<uint8_t>(out[kBatchAttributesAt]) << 8) |
                                         static_cast<uint8_t>(out[kBatchAttributesAt + 1]));
  w.PatchBig<int16_t>(kBatchAttributesAt, static_cast<int16_t>((attributes & ~0x7) | codec));
  w.PatchBig<int32_t>(kBatchLengthAt, static_cast<int32_t>(out.size() - kBatchLogOverhead));
  w.PatchBig<uint32_t>(kBatchCrcAt, crc32c::Value(out.data() + kBatchAttributesAt, out.size() - kBatchAttributesAt));
  return out;
}

}  // namespace

Result<std::string> DecompressBatch(std::string_view batch, size_t max_bytes) {
  FLOE_ASSIGN_OR_RETURN(BatchHeader header, ParseBatchHeader(batch));
  if (batch.size() != header.size()) return Corruption("record batch: {} of {} bytes", batch.size(), header.size());
  if (header.compression() == 0) return std::string(batch);
  FLOE_ASSIGN_OR_RETURN(std::string records,
                        DecompressRecords(header.compression(), batch.substr(kBatchHeaderSize), max_bytes));
  return WithRecordsArea(batch, records, 0);
}

Result<std::string> RecompressBatch(std::string_view batch, int codec, size_t max_bytes) {
  FLOE_ASSIGN_OR_RETURN(std::string plain, DecompressBatch(batch, max_bytes));
  if (codec == 0) return plain;
  return CompressBatch(plain, codec);
}

Status CheckEveryRecordHasAKey(std::string_view batch, size_t max_bytes) {
  FLOE_ASSIGN_OR_RETURN(std::string plain, DecompressBatch(batch, max_bytes));
  int32_t index = 0, keyless = -1;
  FLOE_RETURN_IF_ERROR(ForEachRecord(plain, [&](const RecordView& record) {
    if (!record.key && keyless < 0) keyless = index;
    ++index;
  }));
  if (keyless >= 0) return InvalidArgument("record {} of the batch has no key, which a compacted topic needs", keyless);
  return OkStatus();
}

Result<std::string> CompressBatch(std::string_view batch, int codec) {
  FLOE_ASSIGN_OR_RETURN(BatchHeader header, ParseBatchHeader(batch));
  if (header.compression() != 0)
    return InvalidArgument("record batch: already compressed (codec {})", header.compression());
  FLOE_ASSIGN_OR_RETURN(std::string records, CompressRecords(codec, batch.substr(kBatchHeaderSize)));
  return WithRecordsArea(batch, records, codec);
}

}  // namespace floe::broker
