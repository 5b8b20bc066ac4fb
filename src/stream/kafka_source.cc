#include "stream/kafka_source.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include <librdkafka/rdkafka.h>

#include "base/logging.h"
#include "broker/client/kafka_client_config.h"

namespace floe::stream {

Result<std::unique_ptr<KafkaSource>> KafkaSource::Create(SourceOptions options, OffsetProvider provider) {
  std::unique_ptr<KafkaSource> source(new KafkaSource());
  source->options_ = std::move(options);
  source->provider_ = std::move(provider);
  if (!source->options_.ids) source->options_.ids = TopicPartitionIds::ForTopic(source->options_.topic);
  broker::KafkaSettings defaults = {
      {"group.id", source->options_.group},
      {"enable.auto.commit", "false"},
      {"enable.auto.offset.store", "false"},
      {"auto.offset.reset", "earliest"},
      {"log_level", "3"},
      {"fetch.wait.max.ms", "100"},
      // Notice a topic created after the job started (the generator creates it) within seconds.
      {"topic.metadata.refresh.interval.ms", "2000"},
      // A killed worker's partitions move to the others within ~10 s rather than 45 s.
      {"session.timeout.ms", "10000"},
      {"heartbeat.interval.ms", "1000"},
      // A transactional producer's records reach a table only once committed; aborted ones
      // never (KIP-98). librdkafka's default too, stated because tables depend on it.
      {"isolation.level", "read_committed"},
      // Where each partition ends is reported (EndReached), so --available-now can tell that
      // a partition ending in a transaction marker is drained.
      {"enable.partition.eof", "true"},
  };
  broker::KafkaSettings overrides(source->options_.config.begin(), source->options_.config.end());
  overrides.emplace_back("bootstrap.servers", source->options_.brokers);
  FLOE_ASSIGN_OR_RETURN(rd_kafka_conf_t * conf, broker::MakeKafkaConf(defaults, overrides, "the stream job's consumer"));
  char error[512];
  rd_kafka_conf_set_opaque(conf, source.get());
  rd_kafka_conf_set_rebalance_cb(conf, [](rd_kafka_t* kafka, rd_kafka_resp_err_t err,
                                          rd_kafka_topic_partition_list_t* partitions, void* opaque) {
    OnRebalance(kafka, err, partitions, opaque);
  });
  source->kafka_ = rd_kafka_new(RD_KAFKA_CONSUMER, conf, error, sizeof(error));
  if (source->kafka_ == nullptr) {
    rd_kafka_conf_destroy(conf);
    return InvalidArgument("creating Kafka consumer for {}: {}", source->options_.brokers, error);
  }
  rd_kafka_poll_set_consumer(source->kafka_);
  source->consumer_queue_ = rd_kafka_queue_get_consumer(source->kafka_);
  rd_kafka_topic_partition_list_t* topics = rd_kafka_topic_partition_list_new(1);
  // A subscription starting with '^' is a regex to librdkafka; anchored at both ends so the
  // whole name must match, as Kafka's Java consumer matches a Pattern subscription.
  const std::string subscription =
      source->options_.topic_regex.empty() ? source->options_.topic : "^(" + source->options_.topic_regex + ")$";
  rd_kafka_topic_partition_list_add(topics, subscription.c_str(), RD_KAFKA_PARTITION_UA);
  rd_kafka_resp_err_t err = rd_kafka_subscribe(source->kafka_, topics);
  rd_kafka_topic_partition_list_destroy(topics);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Unavailable("subscribing to {}: {}", source->Subscription(), rd_kafka_err2str(err));
  }
  return source;
}

KafkaSource::~KafkaSource() {
  Close();
  if (pending_assignment_ != nullptr) rd_kafka_topic_partition_list_destroy(pending_assignment_);
  if (consumer_queue_ != nullptr) rd_kafka_queue_destroy(consumer_queue_);
  if (kafka_ != nullptr) {
    rd_kafka_destroy_flags(kafka_, close_finished_ ? 0 : RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
  }
}

void KafkaSource::OnRebalance(rd_kafka_s* kafka, int error, rd_kafka_topic_partition_list_s* partitions,
                              void* opaque) {
  auto* self = static_cast<KafkaSource*>(opaque);
  self->rebalanced_ = true;
  if (self->pending_assignment_ != nullptr) {
    rd_kafka_topic_partition_list_destroy(self->pending_assignment_);
    self->pending_assignment_ = nullptr;
  }
  if (error == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
    if (auto status = self->AssignFromProvider(partitions); !status) {
      // Without the table's offsets the source must not read: it would not know where to start.
      // The partitions wait in pending_assignment_ until Reseek can read the offsets.
      Logger("stream")->error("{}", status.error().ToString());
      self->last_error_ = status;
      self->pending_assignment_ = rd_kafka_topic_partition_list_copy(partitions);
      rd_kafka_assign(kafka, nullptr);
      self->assigned_.clear();
    }
  } else {
    rd_kafka_assign(kafka, nullptr);
    self->assigned_.clear();
    self->end_reached_.clear();
  }
}

Status KafkaSource::AssignFromProvider(rd_kafka_topic_partition_list_s* partitions) {
  FLOE_ASSIGN_OR_RETURN_CTX(SourceOffsets offsets, provider_(), "loading the table's offsets");
  assigned_.clear();
  end_reached_.clear();
  for (int i = 0; i < partitions->cnt; ++i) {
    rd_kafka_topic_partition_t& p = partitions->elems[i];
    const int32_t id = options_.ids->Id(p.topic, p.partition);
    auto it = offsets.find(id);
    p.offset = it != offsets.end() ? it->second : RD_KAFKA_OFFSET_BEGINNING;
    assigned_.push_back(id);
  }
  rd_kafka_resp_err_t err = rd_kafka_assign(kafka_, partitions);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return Unavailable("assigning partitions: {}", rd_kafka_err2str(err));
  if (options_.ids->single_topic()) {
    Logger("stream")->info("assigned {} partition(s) of {} at the table's offsets {}", partitions->cnt, options_.topic,
                           OffsetsToJson(offsets));
  } else {
    std::string where;
    for (const auto& [topic, by_partition] : options_.ids->Split(offsets)) {
      where += fmt::format("{}{} {}", where.empty() ? "" : ", ", topic, OffsetsToJson(by_partition));
    }
    Logger("stream")->info("assigned {} partition(s) of {} at the job's offsets {}", partitions->cnt, Subscription(),
                           where.empty() ? "(none yet)" : where);
  }
  return OkStatus();
}

Status KafkaSource::Reseek() {
  if (pending_assignment_ != nullptr) {
    FLOE_RETURN_IF_ERROR(AssignFromProvider(pending_assignment_));
    rd_kafka_topic_partition_list_destroy(pending_assignment_);
    pending_assignment_ = nullptr;
    return OkStatus();
  }
  rd_kafka_topic_partition_list_t* current = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_assignment(kafka_, &current);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return Unavailable("reading the assignment: {}", rd_kafka_err2str(err));
  Status status = AssignFromProvider(current);
  rd_kafka_topic_partition_list_destroy(current);
  return status;
}

Result<size_t> KafkaSource::Poll(MicroBatch& batch, int timeout_ms, size_t max_records, size_t max_bytes,
                                 bool* rebalanced) {
  // Messages are taken a few thousand at a time (one call rather than one per message) and
  // kept in the batch until it is committed, so their values are never copied.
  constexpr size_t kTake = 4096;
  rd_kafka_message_t* messages[kTake];
  auto release = [](void* handle) { rd_kafka_message_destroy(static_cast<rd_kafka_message_t*>(handle)); };
  *rebalanced = false;
  size_t added = 0;
  int wait = timeout_ms;
  while (added < max_records && batch.value_bytes() < max_bytes) {
    ssize_t taken = rd_kafka_consume_batch_queue(consumer_queue_, wait, messages, std::min(kTake, max_records - added));
    if (taken < 0) return Unavailable("polling {}: {}", Subscription(), rd_kafka_err2str(rd_kafka_last_error()));
    const auto count = static_cast<size_t>(taken);
    if (!last_error_) {
      // The rebalance callback could not read the table's offsets: the caller re-reads from
      // the table (Reseek assigns the partitions held back), so the rebalance is dealt with.
      rebalanced_ = false;
      Status error = std::exchange(last_error_, OkStatus());
      for (size_t i = 0; i < count; ++i) rd_kafka_message_destroy(messages[i]);
      return std::unexpected(error.error());
    }
    if (rebalanced_) {
      // The callback ran inside this call: records before it (in `batch` or in `messages`)
      // may belong to partitions now owned elsewhere, and nothing tells which of `messages`
      // came after it. All are dropped and every owned partition goes back to the table's
      // offsets, so that dropping them leaves no gap.
      rebalanced_ = false;
      *rebalanced = true;
      for (size_t i = 0; i < count; ++i) rd_kafka_message_destroy(messages[i]);
      batch.Clear();
      added = 0;
      FLOE_RETURN_IF_ERROR(Reseek());
      continue;
    }
    if (count == 0) break;
    wait = 0;  // Take what is already buffered, but do not wait again.
    for (size_t i = 0; i < count; ++i) {
      rd_kafka_message_t* message = messages[i];
      // Runs of one partition are the rule: its number is looked up once per run.
      int32_t id = message->partition;
      if (!options_.ids->single_topic() && message->rkt != nullptr) {
        const char* topic = rd_kafka_topic_name(message->rkt);
        if (message->partition != run_partition_ || run_topic_ != topic) {
          run_topic_ = topic;
          run_partition_ = message->partition;
          run_id_ = options_.ids->Id(run_topic_, run_partition_);
        }
        id = run_id_;
      }
      if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
          end_reached_[id] = message->offset;
        } else {
          Logger("stream")->warn("consumer: {}", rd_kafka_message_errstr(message));
        }
        rd_kafka_message_destroy(message);
        continue;
      }
      rd_kafka_timestamp_type_t type;
      int64_t timestamp = rd_kafka_message_timestamp(message, &type);
      batch.AddHeld(id, message->offset, timestamp, message->payload, message->len, message, release, message->key,
                    message->key_len);
      ++added;
    }
  }
  return added;
}

void KafkaSource::CommitGroupOffsets(const SourceOffsets& offsets) {
  if (offsets.empty()) return;
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(static_cast<int>(offsets.size()));
  for (const auto& [id, offset] : offsets) {
    TopicPartition p = options_.ids->Lookup(id);
    rd_kafka_topic_partition_list_add(list, p.topic.c_str(), p.partition)->offset = offset;
  }
  rd_kafka_commit(kafka_, list, /*async=*/1);
  rd_kafka_topic_partition_list_destroy(list);
}

Result<int64_t> KafkaSource::HighWatermark(int32_t id) {
  int64_t low = 0, high = 0;
  TopicPartition p = options_.ids->Lookup(id);
  rd_kafka_resp_err_t err = rd_kafka_query_watermark_offsets(kafka_, p.topic.c_str(), p.partition, &low, &high, 10'000);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Unavailable("end offset of {}[{}]: {}", p.topic, p.partition, rd_kafka_err2str(err));
  }
  return high;
}

int64_t KafkaSource::CachedHighWatermark(int32_t id) const {
  int64_t low = -1, high = -1;
  TopicPartition p = options_.ids->Lookup(id);
  if (rd_kafka_get_watermark_offsets(kafka_, p.topic.c_str(), p.partition, &low, &high) != RD_KAFKA_RESP_ERR_NO_ERROR ||
      high < 0) {
    return -1;  // RD_KAFKA_OFFSET_INVALID until a fetch response carried it.
  }
  return high;
}

int64_t KafkaSource::EndReached(int32_t partition) const {
  auto it = end_reached_.find(partition);
  return it == end_reached_.end() ? -1 : it->second;
}

std::vector<int32_t> KafkaSource::AssignedPartitions() const { return assigned_; }

std::string KafkaSource::Subscription() const {
  return options_.topic_regex.empty() ? options_.topic : "/" + options_.topic_regex + "/";
}

void KafkaSource::Close() {
  if (closed_ || kafka_ == nullptr) return;
  closed_ = true;
  // Leave the group (so the others rebalance at once), but never wait on it for ever: a close
  // while a JoinGroup is pending waits for that rebalance to finish, which a coordinator may
  // hold for max.poll.interval.ms. Past the deadline the handle is destroyed without it.
  rd_kafka_queue_t* queue = rd_kafka_queue_new(kafka_);
  if (rd_kafka_error_t* error = rd_kafka_consumer_close_queue(kafka_, queue)) {
    rd_kafka_error_destroy(error);
    rd_kafka_queue_destroy(queue);
    close_finished_ = false;
    return;
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!rd_kafka_consumer_closed(kafka_) && std::chrono::steady_clock::now() < deadline) {
    rd_kafka_event_t* event = rd_kafka_queue_poll(queue, 100);
    if (event == nullptr) continue;
    // Partitions revoked by the close: give them up.
    if (rd_kafka_event_type(event) == RD_KAFKA_EVENT_REBALANCE) rd_kafka_assign(kafka_, nullptr);
    rd_kafka_event_destroy(event);
  }
  close_finished_ = rd_kafka_consumer_closed(kafka_) != 0;
  rd_kafka_queue_destroy(queue);
}

}  // namespace floe::stream
