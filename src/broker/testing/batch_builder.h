// Builds valid RecordBatch v2 bytes for the broker's unit tests (uncompressed records with
// keys and values), so log and codec tests start from correct input and corrupt it on purpose.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "base/crc32c.h"
#include "broker/protocol/record_batch.h"

namespace floe::broker::testing {

// One record of a batch: a null key or value is written as length -1 (a tombstone's value).
struct TestRecord {
  std::optional<std::string> key;
  std::optional<std::string> value;
};

struct BatchSpec {
  int records = 1;
  int64_t timestamp = 1000;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  int32_t base_sequence = -1;
  int16_t attributes = 0;  // 0x10: transactional
  std::string value = "value";
  // When set, exactly these records (and `records` is ignored); else `records` records k<i>=value.
  std::vector<TestRecord> kv;
};

inline std::string BuildBatch(const BatchSpec& given) {
  BatchSpec spec = given;
  if (spec.kv.empty()) {
    for (int i = 0; i < spec.records; ++i) spec.kv.push_back({fmt::format("k{}", i), spec.value});
  }
  spec.records = static_cast<int>(spec.kv.size());
  std::string records;
  ByteWriter r(&records);
  for (int i = 0; i < spec.records; ++i) {
    std::string body;
    ByteWriter b(&body);
    b.AppendBig<int8_t>(0);          // attributes
    b.AppendSignedVarint(0);         // timestamp delta
    b.AppendSignedVarint(i);         // offset delta
    for (const std::optional<std::string>& field : {spec.kv[i].key, spec.kv[i].value}) {
      b.AppendSignedVarint(field ? static_cast<int64_t>(field->size()) : -1);
      if (field) b.AppendBytes(*field);
    }
    b.AppendUnsignedVarint(0);       // headers
    r.AppendSignedVarint(static_cast<int64_t>(body.size()));
    r.AppendBytes(body);
  }
  std::string batch;
  ByteWriter w(&batch);
  w.AppendBig<int64_t>(0);
  w.AppendBig<int32_t>(static_cast<int32_t>(kBatchHeaderSize - kBatchLogOverhead + records.size()));
  w.AppendBig<int32_t>(0);
  w.AppendBig<int8_t>(2);
  w.AppendBig<uint32_t>(0);  // crc, patched below
  w.AppendBig<int16_t>(spec.attributes);
  w.AppendBig<int32_t>(spec.records - 1);
  w.AppendBig<int64_t>(spec.timestamp);
  w.AppendBig<int64_t>(spec.timestamp);
  w.AppendBig<int64_t>(spec.producer_id);
  w.AppendBig<int16_t>(spec.producer_epoch);
  w.AppendBig<int32_t>(spec.base_sequence);
  w.AppendBig<int32_t>(spec.records);
  w.AppendBytes(records);
  uint32_t crc = crc32c::Value(batch.data() + kBatchAttributesAt, batch.size() - kBatchAttributesAt);
  w.PatchBig<uint32_t>(kBatchCrcAt, crc);
  return batch;
}

}  // namespace floe::broker::testing
