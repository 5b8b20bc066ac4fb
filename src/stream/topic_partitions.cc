#include "stream/topic_partitions.h"

#include <set>

namespace floe::stream {

std::shared_ptr<TopicPartitionIds> TopicPartitionIds::ForTopic(std::string topic) {
  std::shared_ptr<TopicPartitionIds> ids(new TopicPartitionIds());
  ids->single_topic_ = true;
  ids->topic_ = std::move(topic);
  return ids;
}

std::shared_ptr<TopicPartitionIds> TopicPartitionIds::ForManyTopics() {
  return std::shared_ptr<TopicPartitionIds>(new TopicPartitionIds());
}

int32_t TopicPartitionIds::Id(std::string_view topic, int32_t partition) {
  if (single_topic_) return partition;
  std::lock_guard lock(mutex_);
  auto key = std::make_pair(std::string(topic), partition);
  auto it = ids_.find(key);
  if (it != ids_.end()) return it->second;
  const auto id = static_cast<int32_t>(partitions_.size());
  partitions_.push_back({key.first, partition});
  ids_.emplace(std::move(key), id);
  return id;
}

TopicPartition TopicPartitionIds::Lookup(int32_t id) const {
  if (single_topic_) return {topic_, id};
  std::lock_guard lock(mutex_);
  if (id < 0 || static_cast<size_t>(id) >= partitions_.size()) return {"", -1};
  return partitions_[static_cast<size_t>(id)];
}

std::vector<std::string> TopicPartitionIds::Topics() const {
  if (single_topic_) return {topic_};
  std::lock_guard lock(mutex_);
  std::set<std::string> topics;
  for (const TopicPartition& p : partitions_) topics.insert(p.topic);
  return {topics.begin(), topics.end()};
}

TopicOffsets TopicPartitionIds::Split(const SourceOffsets& by_id) const {
  TopicOffsets out;
  for (const auto& [id, offset] : by_id) {
    TopicPartition p = Lookup(id);
    out[p.topic][p.partition] = offset;
  }
  return out;
}

SourceOffsets TopicPartitionIds::Join(const TopicOffsets& by_topic) {
  SourceOffsets out;
  for (const auto& [topic, offsets] : by_topic) {
    if (single_topic_ && topic != topic_) continue;
    for (const auto& [partition, offset] : offsets) out[Id(topic, partition)] = offset;
  }
  return out;
}

}  // namespace floe::stream
