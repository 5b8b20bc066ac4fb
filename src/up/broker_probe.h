// BrokerProbe: what the console shows of a Kafka-protocol broker — its topics, partitions and
// their start and end offsets — asked over the protocol itself (librdkafka metadata and
// ListOffsets), so it reads floe's broker in-process, as a child process, or a real Kafka alike.
//
// Owned by the PipelineConsole's sampler; not thread-safe (one caller at a time).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"

struct rd_kafka_s;

namespace floe::up {

struct PartitionOffsets {
  int32_t partition = 0;
  int64_t start_offset = 0;
  int64_t end_offset = 0;  // The high watermark: the next offset to be written.
};

struct TopicOffsets {
  std::string name;
  std::vector<PartitionOffsets> partitions;
  int64_t end_offset_sum() const;
};

// One member of a consumer group and the partitions the group's leader assigned it.
struct GroupMember {
  std::string client_id;
  std::string member_id;
  std::string host;
  std::vector<std::pair<std::string, int32_t>> partitions;  // (topic, partition), sorted.
};

struct GroupDescription {
  std::string state;                 // Stable, PreparingRebalance, CompletingRebalance, Empty, Dead, Unknown
  std::vector<GroupMember> members;  // By client id.
};

class BrokerProbe {
 public:
  explicit BrokerProbe(std::string bootstrap) : bootstrap_(std::move(bootstrap)) {}
  ~BrokerProbe();
  BrokerProbe(const BrokerProbe&) = delete;
  BrokerProbe& operator=(const BrokerProbe&) = delete;

  // Every topic but the broker's internal ones; Unavailable when the broker does not answer
  // within `timeout`.
  Result<std::vector<TopicOffsets>> Topics(std::chrono::milliseconds timeout = std::chrono::milliseconds(1000));
  // The group's state and members with their assignments (DescribeGroups through the group's
  // coordinator); Unavailable when the broker does not answer within `timeout`.
  Result<GroupDescription> DescribeGroup(const std::string& group,
                                         std::chrono::milliseconds timeout = std::chrono::milliseconds(1000));

 private:
  Status Connect();

  std::string bootstrap_;
  rd_kafka_s* kafka_ = nullptr;
};

}  // namespace floe::up
