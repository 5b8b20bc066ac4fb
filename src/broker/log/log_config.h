// Settings of partition logs: broker-wide defaults, overridable per topic (CreateTopics configs
// named as Kafka names them: retention.ms, retention.bytes, segment.bytes, max.message.bytes,
// cleanup.policy and the log cleaner's delete.retention.ms, min.cleanable.dirty.ratio and
// min.compaction.lag.ms, compression.type).
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
  // cleanup.policy, a list of "delete" and "compact". `delete`: retention removes old closed
  // segments. `compact`: the log cleaner (log_cleaner.h) keeps the last record of each key in
  // closed segments; without `delete` too, retention never removes a compacted topic's
  // segments, since an old record may be a key's only one.
  bool compact = false;
  bool delete_old_segments = true;
  // How long a tombstone (a null value) outlives the segment it was written in (by its last
  // modification) before the cleaner drops it: consumers reading from the start have this long
  // to see the deletion.
  int64_t delete_retention_ms = 24LL * 3600 * 1000;
  // The cleaner starts on a log once its dirty (not yet cleaned) bytes exceed this share of the
  // cleanable bytes.
  double min_cleanable_dirty_ratio = 0.5;
  // A closed segment whose newest record is younger than this is not cleaned yet.
  int64_t min_compaction_lag_ms = 0;
  // compression.type: the codec every batch is stored in (0 uncompressed, 1 gzip, 2 snappy,
  // 3 lz4, 4 zstd; a produced batch in another codec is recompressed on append), or
  // kProducerCompression (Kafka's default `producer`: each batch keeps its producer's codec).
  static constexpr int kProducerCompression = -1;
  int compression_codec = kProducerCompression;

  // Applies Kafka-named overrides; unknown names are an InvalidArgument error.
  Status Apply(const std::map<std::string, std::string>& overrides);
  // The settings as Kafka names them (DescribeConfigs, topic metadata files).
  std::map<std::string, std::string> ToMap() const;
};

}  // namespace floe::broker
