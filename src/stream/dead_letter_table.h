// DeadLetterTable: where the stream job puts records it cannot turn into rows (undecodable, or,
// when routing, without a route), each with its topic, partition, offset, timestamp, the reason
// and the raw bytes. Its commits carry the offsets they reach like the table's, so a batch read
// again adds none of its dead letters twice. A routed job also keeps its checkpoint here
// (routing_committer.h). Used from one thread at a time (the commit's).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "formats/json/event_decoder.h"
#include "iceberg/table.h"
#include "stream/micro_batch.h"
#include "stream/topic_partitions.h"

namespace floe::stream {

// The Iceberg schema of a dead-letter table.
std::string_view DeadLetterSchemaJson();

// A record of the batch (by index) and why it is a dead letter.
using DeadLetters = std::vector<std::pair<size_t, std::string>>;

class DeadLetterTable {
 public:
  static Result<std::unique_ptr<DeadLetterTable>> Open(std::unique_ptr<iceberg::Table> table,
                                                       std::shared_ptr<TopicPartitionIds> ids,
                                                       int64_t target_file_size_bytes);

  // Commits the dead letters of `batch` the table does not hold yet (by its own offsets), its
  // offsets becoming `next` for the batch's partitions where that is further than they are.
  // Returns how many it added; commits nothing when none is new.
  Result<uint64_t> Commit(const MicroBatch& batch, const DeadLetters& bad, const SourceOffsets& next);

  iceberg::Table& table() { return *table_; }

 private:
  DeadLetterTable() = default;

  std::unique_ptr<iceberg::Table> table_;
  std::shared_ptr<TopicPartitionIds> ids_;
  int64_t target_file_size_bytes_ = 0;
  std::unique_ptr<formats::JsonEventDecoder> decoder_;
};

}  // namespace floe::stream
