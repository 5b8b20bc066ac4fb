// Settings of partition logs: broker-wide defaults, overridable per topic (CreateTopics configs
// named as Kafka names them: retention.ms, retention.bytes, segment.bytes, max.message.bytes,
// cleanup.policy).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "base/result.h"

namespace floe::broker {

enum class FsyncPolicy {
  kBatch,     // acks=all waits for an fsync covering its batch (group commit); others flush on the interval.
  kInterval,  // Nothing waits; every dirty partition is flushed each interval.
  kNever,     // Only the operating system writes back.
};

Result<FsyncPolicy> ParseFsyncPolicy(std::string_view text);
std::string_view FsyncPolicyName(FsyncPolicy policy);

struct LogConfig {
  int64_t retention_ms = 7LL * 24 * 3600 * 1000;
  int64_t retention_bytes = -1;  // Per partition; -1 keeps any size.
  int64_t segment_bytes = 1LL << 30;
  int64_t segment_ms = 7LL * 24 * 3600 * 1000;
  int32_t max_message_bytes = 1048588;
  int32_t index_interval_bytes = 4096;
  // cleanup.policy=compact: a topic whose records are each key's latest state (the schema
  // registry's _schemas). Retention never removes its segments, since an old record may be a
  // key's only one; floe's broker does not compact yet, so such a topic keeps every record.
  bool compact = false;

  // Applies Kafka-named overrides; unknown names are an InvalidArgument error.
  Status Apply(const std::map<std::string, std::string>& overrides);
  // The settings as Kafka names them (DescribeConfigs, topic metadata files).
  std::map<std::string, std::string> ToMap() const;
};

}  // namespace floe::broker
