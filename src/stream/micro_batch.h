// MicroBatch: the records of one trigger interval. Values are not copied when the source can
// lend them: librdkafka's messages are held, their payloads read where librdkafka received
// them, and released together when the batch is cleared. Records of each partition are in
// offset order. Used by one thread at a time (the job's loop, then the commit's thread).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "stream/source/source_offsets.h"

namespace floe::stream {

struct SourceRecord {
  int32_t partition;
  int64_t offset;
  int64_t timestamp_millis;  // The Kafka record's timestamp.
  const char* value;         // Into a held message or the batch's own blocks; null for a null value.
  uint32_t value_size;
  bool value_null;
  const char* key = nullptr;  // The Kafka message key, beside the value; null for a null key.
  uint32_t key_size = 0;
};

class MicroBatch {
 public:
  // Gives back what AddHeld kept (a librdkafka message).
  using Release = void (*)(void* handle);

  MicroBatch() = default;
  MicroBatch(const MicroBatch&) = delete;
  MicroBatch& operator=(const MicroBatch&) = delete;
  ~MicroBatch() { Clear(); }

  // Adds a record with a copy of its value (`value` null: a null value) and key (null: none).
  void Add(int32_t partition, int64_t offset, int64_t timestamp_millis, const void* value, size_t size,
           const void* key = nullptr, size_t key_size = 0);
  // Adds a record whose value and key stay in `handle` (which must hold them) until the batch is
  // cleared, when `release` gives the handle back.
  void AddHeld(int32_t partition, int64_t offset, int64_t timestamp_millis, const void* value, size_t size,
               void* handle, Release release, const void* key = nullptr, size_t key_size = 0);
  // Adds a record whose value and key stay where they are, owned by someone who keeps them
  // until this batch is cleared: a routed table's share of a batch borrows the batch's records.
  void AddBorrowed(const SourceRecord& record);
  // Forgets every record and releases every held handle.
  void Clear();

  size_t record_count() const { return records_.size(); }
  size_t value_bytes() const { return value_bytes_; }
  bool empty() const { return records_.empty(); }
  const std::vector<SourceRecord>& records() const { return records_; }
  std::string_view value(const SourceRecord& record) const { return {record.value, record.value_size}; }
  std::string_view key(const SourceRecord& record) const { return {record.key, record.key_size}; }

  // Per partition, the offset after the last record: where the next batch starts.
  const SourceOffsets& end_offsets() const { return end_offsets_; }
  // Per partition, the first offset in the batch.
  const SourceOffsets& start_offsets() const { return start_offsets_; }

  // Drops the records of every partition whose committed offset (in `committed`) is already at
  // or past the record's offset: what another commit already holds must not be written again.
  void DropCommitted(const SourceOffsets& committed);

 private:
  void Track(int32_t partition, int64_t offset);
  // A copy of `bytes` in the batch's blocks.
  const char* Copy(const void* bytes, size_t size);

  std::vector<SourceRecord> records_;
  size_t value_bytes_ = 0;
  // Copied values, in blocks that never move (records point into them).
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* block_at_ = nullptr;
  size_t block_left_ = 0;
  std::vector<void*> held_;
  Release release_ = nullptr;
  SourceOffsets start_offsets_;
  SourceOffsets end_offsets_;
  // Records come in runs of one partition: the run's end offset is updated in place.
  int32_t run_partition_ = -1;
  int64_t* run_end_ = nullptr;
};

}  // namespace floe::stream
