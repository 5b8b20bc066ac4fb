// Topic administration over the Kafka protocol with librdkafka's admin client, so `floe topic`
// works against floe's broker and any Kafka cluster alike.
//
// Each call opens a short-lived client; callers own nothing. Any thread.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/result.h"

namespace floe::broker {

struct TopicInfo {
  std::string name;
  int32_t partitions = 0;
  std::vector<int64_t> high_watermarks;  // Per partition (describe only).
  std::map<std::string, std::string> configs;  // Describe only.
};

Status CreateTopic(const std::string& brokers, const std::string& name, int32_t partitions,
                   const std::map<std::string, std::string>& configs);
Status DeleteTopic(const std::string& brokers, const std::string& name);
Result<std::vector<TopicInfo>> ListTopics(const std::string& brokers);
Result<TopicInfo> DescribeTopic(const std::string& brokers, const std::string& name);

}  // namespace floe::broker
