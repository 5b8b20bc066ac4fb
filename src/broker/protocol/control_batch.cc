#include "broker/protocol/control_batch.h"

#include "base/bytes.h"
#include "base/crc32c.h"
#include "broker/protocol/record_batch.h"

namespace floe::broker {

std::string BuildControlBatch(const ControlMarker& marker) {
  std::string body;
  ByteWriter b(&body);
  b.AppendBig<int8_t>(0);        // record attributes
  b.AppendSignedVarint(0);       // timestamp delta
  b.AppendSignedVarint(0);       // offset delta
  b.AppendSignedVarint(4);       // key length
  b.AppendBig<int16_t>(0);       // key version
  b.AppendBig<int16_t>(static_cast<int16_t>(marker.type));
  b.AppendSignedVarint(6);       // value length
  b.AppendBig<int16_t>(0);       // value version
  b.AppendBig<int32_t>(marker.coordinator_epoch);
  b.AppendUnsignedVarint(0);     // headers

  std::string batch;
  ByteWriter w(&batch);
  std::string record;
  ByteWriter r(&record);
  r.AppendSignedVarint(static_cast<int64_t>(body.size()));
  r.AppendBytes(body);
  w.AppendBig<int64_t>(0);  // base offset, stamped on append
  w.AppendBig<int32_t>(static_cast<int32_t>(kBatchHeaderSize - kBatchLogOverhead + record.size()));
  w.AppendBig<int32_t>(0);  // partition leader epoch
  w.AppendBig<int8_t>(2);   // magic
  w.AppendBig<uint32_t>(0);  // crc, patched below
  w.AppendBig<int16_t>(0x30);  // transactional | control
  w.AppendBig<int32_t>(0);     // last offset delta
  w.AppendBig<int64_t>(marker.timestamp_ms);
  w.AppendBig<int64_t>(marker.timestamp_ms);
  w.AppendBig<int64_t>(marker.producer_id);
  w.AppendBig<int16_t>(marker.producer_epoch);
  w.AppendBig<int32_t>(-1);  // base sequence: markers carry none
  w.AppendBig<int32_t>(1);   // records count
  w.AppendBytes(record);
  w.PatchBig<uint32_t>(kBatchCrcAt, crc32c::Value(batch.data() + kBatchAttributesAt, batch.size() - kBatchAttributesAt));
  return batch;
}

Result<ControlType> ParseControlType(std::string_view batch) {
  FLOE_ASSIGN_OR_RETURN(BatchHeader header, ParseBatchHeader(batch));
  if (!header.control()) return Corruption("control batch: attributes {:#x} lack the control bit", header.attributes);
  if (header.compression() != 0) return Corruption("control batch: compressed (codec {})", header.compression());
  if (header.records_count < 1) return Corruption("control batch without a record");
  if (batch.size() < header.size()) return Corruption("control batch: {} of {} bytes", batch.size(), header.size());
  ByteReader r(batch.data() + kBatchHeaderSize, header.size() - kBatchHeaderSize);
  FLOE_ASSIGN_OR_RETURN(int64_t length, r.ReadSignedVarint("control record length"));
  if (length < 0 || static_cast<uint64_t>(length) > r.remaining()) {
    return Corruption("control record length {} with {} bytes left", length, r.remaining());
  }
  FLOE_RETURN_IF_ERROR(r.ReadBig<int8_t>("control record attributes"));
  FLOE_RETURN_IF_ERROR(r.ReadSignedVarint("control record timestamp delta"));
  FLOE_RETURN_IF_ERROR(r.ReadSignedVarint("control record offset delta"));
  FLOE_ASSIGN_OR_RETURN(int64_t key_length, r.ReadSignedVarint("control record key length"));
  if (key_length < 4) return Corruption("control record key of {} bytes (needs version and type)", key_length);
  FLOE_ASSIGN_OR_RETURN(int16_t version, r.ReadBig<int16_t>("control key version"));
  if (version != 0) return Corruption("control key version {}", version);
  FLOE_ASSIGN_OR_RETURN(int16_t type, r.ReadBig<int16_t>("control key type"));
  if (type != 0 && type != 1) return Corruption("control key type {} (0 abort, 1 commit)", type);
  return static_cast<ControlType>(type);
}

}  // namespace floe::broker
