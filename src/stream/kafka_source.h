// KafkaSource: the stream job's consumer, a member of a librdkafka consumer group, so several
// `floe stream` workers split a topic's partitions and it runs against any Kafka.
//
// Positions come from the table, not the group: whenever partitions are assigned, the source
// asks its OffsetProvider (the table's current snapshot summary) where to start, and reports
// the rebalance so the job discards a half-built batch instead of committing records another
// worker now owns. Group offsets are committed after each table commit, for monitoring only.
// Not thread-safe: used from the job's loop thread (librdkafka calls the rebalance callback
// from inside Poll, on that same thread).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "base/result.h"
#include "stream/micro_batch.h"
#include "stream/source/source_offsets.h"
#include "stream/topic_partitions.h"

struct rd_kafka_s;
struct rd_kafka_queue_s;
struct rd_kafka_topic_partition_list_s;

namespace floe::stream {

struct SourceOptions {
  std::string brokers;
  std::string topic;
  // Instead of `topic`: every topic whose whole name matches (POSIX extended, as librdkafka
  // matches regex subscriptions), including topics created later (seen within the metadata
  // refresh interval, 2 s).
  std::string topic_regex;
  // How partitions are numbered in batches and offsets (topic_partitions.h). Null: `topic`'s
  // partition numbers.
  std::shared_ptr<TopicPartitionIds> ids;
  std::string group;
  std::map<std::string, std::string> config;  // Extra librdkafka settings.
};

class KafkaSource {
 public:
  // Where each partition starts: the table's committed offsets (partitions missing from the
  // result start at the earliest retained offset). Partitions are numbered by `ids`, as are
  // the batch's records and every partition argument below.
  using OffsetProvider = std::function<Result<SourceOffsets>()>;

  static Result<std::unique_ptr<KafkaSource>> Create(SourceOptions options, OffsetProvider provider);
  ~KafkaSource();
  KafkaSource(const KafkaSource&) = delete;
  KafkaSource& operator=(const KafkaSource&) = delete;

  // Adds up to `max_records` records to `batch`, waiting at most `timeout_ms` for the first.
  // Returns how many were added. The batch holds librdkafka's messages rather than copies of
  // their values. When the assignment changed during the call, `batch` is cleared (its records
  // may belong to partitions another worker now owns), every assigned partition is moved back
  // to the table's offsets, and *rebalanced is set. Stops early once the batch holds
  // `max_bytes` of record values.
  Result<size_t> Poll(MicroBatch& batch, int timeout_ms, size_t max_records, size_t max_bytes, bool* rebalanced);

  // Moves every assigned partition back to the provider's offsets (after a lost commit race).
  Status Reseek();

  // Records progress in the consumer group (asynchronously) so lag tools see it.
  void CommitGroupOffsets(const SourceOffsets& offsets);

  // The log end offset of `partition` now (asks the broker). The consumer reads committed
  // data only (isolation.level=read_committed), so this is the last stable offset: the end of
  // what it can read while a producer's transaction is open.
  Result<int64_t> HighWatermark(int32_t partition);
  // The log end offset of `partition` as the last fetch response reported it (no round trip,
  // so it can be read after every batch for the lag gauge); -1 while none has arrived.
  int64_t CachedHighWatermark(int32_t partition) const;
  // The end offset at which the consumer last reported reaching the end of `partition` since
  // it was (re)assigned, or -1. Transaction markers and aborted records never reach a batch,
  // so a partition ending in a marker is caught up at this offset, not at its last record.
  int64_t EndReached(int32_t partition) const;

  // The partitions this worker owns now.
  std::vector<int32_t> AssignedPartitions() const;

  // Leaves the group cleanly so the others take over at once.
  void Close();

 private:
  KafkaSource() = default;
  static void OnRebalance(rd_kafka_s* kafka, int error, rd_kafka_topic_partition_list_s* partitions, void* opaque);
  Status AssignFromProvider(rd_kafka_topic_partition_list_s* partitions);
  // What the source reads, for logs: the topic or /regex/.
  std::string Subscription() const;

  SourceOptions options_;
  OffsetProvider provider_;
  rd_kafka_s* kafka_ = nullptr;
  rd_kafka_queue_s* consumer_queue_ = nullptr;  // Polled in batches; owned reference.
  bool rebalanced_ = false;
  bool closed_ = false;
  bool close_finished_ = true;  // Whether Close left the group; destroy skips it otherwise.
  std::vector<int32_t> assigned_;
  std::map<int32_t, int64_t> end_reached_;  // Partition -> offset of its last PARTITION_EOF.
  // The partition of the last message polled, and its number.
  std::string run_topic_;
  int32_t run_partition_ = -1;
  int32_t run_id_ = -1;
  Status last_error_;
  // Partitions the group gave this member while the table's offsets could not be read (the
  // catalog was down): held unassigned until Reseek reads the offsets. Owned; null when none.
  rd_kafka_topic_partition_list_s* pending_assignment_ = nullptr;
};

}  // namespace floe::stream
