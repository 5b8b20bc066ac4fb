// TopicPartitionIds: the job's numbers for the Kafka partitions it reads. The micro-batch, the
// job's loop and the source's offset maps key partitions by one int32; a job reading one topic
// uses the partition numbers themselves, a job reading many (`--topics REGEX`) numbers each
// (topic, partition) it meets, densely, in the order it meets them. The numbers live only as
// long as the process: whatever is stored (snapshot summaries, group offsets) names the topic
// and the Kafka partition.
//
// Thread-safe: the source numbers partitions on the job's thread while the commit's thread
// looks them up. Numbers are never reused or forgotten.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stream/source/source_offsets.h"

namespace floe::stream {

struct TopicPartition {
  std::string topic;
  int32_t partition = 0;
};

class TopicPartitionIds {
 public:
  // One topic: a partition's number is the partition.
  static std::shared_ptr<TopicPartitionIds> ForTopic(std::string topic);
  // Many topics: numbered as met.
  static std::shared_ptr<TopicPartitionIds> ForManyTopics();

  bool single_topic() const { return single_topic_; }

  int32_t Id(std::string_view topic, int32_t partition);
  // The partition behind `id` (which Id returned).
  TopicPartition Lookup(int32_t id) const;
  // Every topic met so far (the one topic of a single-topic job).
  std::vector<std::string> Topics() const;

  // Offsets by number into offsets by topic, and back (numbering what it meets).
  TopicOffsets Split(const SourceOffsets& by_id) const;
  SourceOffsets Join(const TopicOffsets& by_topic);

 private:
  TopicPartitionIds() = default;

  bool single_topic_ = false;
  std::string topic_;  // The single topic.
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, int32_t>, int32_t, std::less<>> ids_;  // Many topics.
  std::vector<TopicPartition> partitions_;                               // By id.
};

}  // namespace floe::stream
