// MicroBatch: the records of one trigger interval, kept in one contiguous arena so that a
// million records cost two allocations, not a million. Records of each partition are in offset
// order. Owned by the stream job's loop thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "stream/source_offsets.h"

namespace floe::stream {

struct SourceRecord {
  int32_t partition;
  int64_t offset;
  int64_t timestamp_millis;  // The Kafka record's timestamp.
  uint64_t value_begin;      // Into the batch's arena.
  uint32_t value_size;
  bool value_null;
};

class MicroBatch {
 public:
  void Add(int32_t partition, int64_t offset, int64_t timestamp_millis, const void* value, size_t size);
  void Clear();

  size_t record_count() const { return records_.size(); }
  size_t value_bytes() const { return arena_.size(); }
  bool empty() const { return records_.empty(); }
  const std::vector<SourceRecord>& records() const { return records_; }
  std::string_view value(const SourceRecord& record) const {
    return std::string_view(arena_.data() + record.value_begin, record.value_size);
  }

  // Per partition, the offset after the last record: where the next batch starts.
  const SourceOffsets& end_offsets() const { return end_offsets_; }
  // Per partition, the first offset in the batch.
  const SourceOffsets& start_offsets() const { return start_offsets_; }

  // Drops the records of every partition whose committed offset (in `committed`) is already at
  // or past the record's offset: what another commit already holds must not be written again.
  void DropCommitted(const SourceOffsets& committed);

 private:
  std::string arena_;
  std::vector<SourceRecord> records_;
  SourceOffsets start_offsets_;
  SourceOffsets end_offsets_;
};

}  // namespace floe::stream
