#include "registry/schema_topic_log.h"

#include <librdkafka/rdkafka.h>

#include "base/logging.h"
#include "broker/admin/topic_admin.h"
#include "broker/client/kafka_client_config.h"

namespace floe::registry {
namespace {

constexpr int kTimeoutMs = 15000;

// One produce's outcome, filled by the delivery report callback on the flushing thread.
struct Delivery {
  bool done = false;
  rd_kafka_resp_err_t error = RD_KAFKA_RESP_ERR_NO_ERROR;
};

void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void*) {
  auto* delivery = static_cast<Delivery*>(message->_private);
  if (delivery == nullptr) return;
  delivery->done = true;
  delivery->error = message->err;
}

}  // namespace

struct SchemaTopicLog::Impl {
  std::string brokers;
  std::string topic;
  rd_kafka_t* producer = nullptr;

  ~Impl() {
    if (producer != nullptr) {
      rd_kafka_flush(producer, 5000);
      rd_kafka_destroy(producer);
    }
  }
};

SchemaTopicLog::SchemaTopicLog(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SchemaTopicLog::~SchemaTopicLog() = default;

Result<std::unique_ptr<SchemaTopicLog>> SchemaTopicLog::Open(const std::string& brokers, const std::string& topic) {
  // Compacted: each key's last record is its state, so old versions of a key may go.
  Status created = broker::CreateTopic(brokers, topic, 1, {{"cleanup.policy", "compact"}});
  if (!created && created.error().kind() != ErrorKind::kAlreadyExists) {
    return std::unexpected(created.error().WithContext(fmt::format("creating the schemas topic '{}'", topic)));
  }
  auto impl = std::make_unique<Impl>();
  impl->brokers = brokers;
  impl->topic = topic;
  // acks=all and idempotence: an acknowledged registration is on every in-sync replica, once.
  FLOE_ASSIGN_OR_RETURN(rd_kafka_conf_t * conf,
                        broker::MakeKafkaConf({{"client.id", "floe-registry"},
                                               {"acks", "all"},
                                               {"enable.idempotence", "true"},
                                               {"linger.ms", "0"},
                                               {"message.timeout.ms", std::to_string(kTimeoutMs)},
                                               {"log_level", "3"}},
                                              {{"bootstrap.servers", brokers}}, "the schema registry's producer"));
  rd_kafka_conf_set_dr_msg_cb(conf, OnDelivery);
  char errstr[512];
  impl->producer = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  if (impl->producer == nullptr) {
    rd_kafka_conf_destroy(conf);
    return Unavailable("schema registry producer for {}: {}", brokers, errstr);
  }
  return std::unique_ptr<SchemaTopicLog>(new SchemaTopicLog(std::move(impl)));
}

Status SchemaTopicLog::Append(const std::string& key, const std::optional<std::string>& value) {
  // On the heap: should the acknowledgement not come in time, the delivery callback may still
  // write it later, so it is then left allocated rather than freed under the callback.
  auto delivery = std::make_unique<Delivery>();
  // A null payload is a tombstone (the key's deletion, for compaction).
  void* payload = value ? const_cast<char*>(value->data()) : nullptr;
  size_t payload_size = value ? value->size() : 0;
  rd_kafka_resp_err_t err = rd_kafka_producev(
      impl_->producer, RD_KAFKA_V_TOPIC(impl_->topic.c_str()), RD_KAFKA_V_PARTITION(0),
      RD_KAFKA_V_KEY(const_cast<char*>(key.data()), key.size()), RD_KAFKA_V_VALUE(payload, payload_size),
      RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_OPAQUE(delivery.get()), RD_KAFKA_V_END);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Unavailable("writing to topic '{}': {}", impl_->topic, rd_kafka_err2str(err));
  }
  // Flush serves the delivery callback; message.timeout.ms bounds how long it can take.
  rd_kafka_flush(impl_->producer, kTimeoutMs + 5000);
  if (!delivery->done) {
    (void)delivery.release();
    // The record may still be delivered later; the registry's state does not count it.
    return Unavailable("writing to topic '{}': no acknowledgement within {} ms", impl_->topic, kTimeoutMs);
  }
  if (delivery->error != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Unavailable("writing to topic '{}': {}", impl_->topic, rd_kafka_err2str(delivery->error));
  }
  return OkStatus();
}

Status SchemaTopicLog::Replay(
    const std::function<void(const std::string& key, const std::optional<std::string>& value)>& apply) {
  FLOE_ASSIGN_OR_RETURN(rd_kafka_conf_t * conf,
                        broker::MakeKafkaConf({{"client.id", "floe-registry-replay"},
                                               {"enable.auto.commit", "false"},
                                               {"enable.auto.offset.store", "false"},
                                               {"log_level", "3"}},
                                              {{"bootstrap.servers", impl_->brokers}},
                                              "the schema registry's replay consumer"));
  char errstr[512];
  rd_kafka_t* consumer = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof errstr);
  if (consumer == nullptr) {
    rd_kafka_conf_destroy(conf);
    return Unavailable("schema registry consumer for {}: {}", impl_->brokers, errstr);
  }
  // The simple (legacy) consumer reads one partition from an offset without a group.
  rd_kafka_topic_t* topic = rd_kafka_topic_new(consumer, impl_->topic.c_str(), nullptr);
  struct Closer {
    rd_kafka_t* consumer;
    rd_kafka_topic_t* topic;
    bool started = false;
    ~Closer() {
      if (started) rd_kafka_consume_stop(topic, 0);
      if (topic != nullptr) rd_kafka_topic_destroy(topic);
      rd_kafka_destroy(consumer);
    }
  } closer{consumer, topic};
  if (topic == nullptr) {
    return Unavailable("topic '{}': {}", impl_->topic, rd_kafka_err2str(rd_kafka_last_error()));
  }
  int64_t low = 0;
  int64_t high = 0;
  rd_kafka_resp_err_t err =
      rd_kafka_query_watermark_offsets(consumer, impl_->topic.c_str(), 0, &low, &high, kTimeoutMs);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Unavailable("topic '{}' at {}: watermarks: {}", impl_->topic, impl_->brokers, rd_kafka_err2str(err));
  }
  if (high <= low) return OkStatus();
  if (rd_kafka_consume_start(topic, 0, low) != 0) {
    return Unavailable("topic '{}': consume: {}", impl_->topic, rd_kafka_err2str(rd_kafka_last_error()));
  }
  closer.started = true;
  int64_t next = low;
  int idle_polls = 0;
  while (next < high) {
    rd_kafka_message_t* message = rd_kafka_consume(topic, 0, 500);
    if (message == nullptr) {
      // Each empty poll waited 500 ms: give up on a broker that stops answering.
      if (++idle_polls * 500 > kTimeoutMs) {
        return Unavailable("topic '{}': replay stalled at offset {} of {}", impl_->topic, next, high);
      }
      continue;
    }
    idle_polls = 0;
    if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      rd_kafka_message_destroy(message);
      break;
    }
    if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      std::string error = rd_kafka_message_errstr(message);
      rd_kafka_message_destroy(message);
      return Unavailable("topic '{}': replay: {}", impl_->topic, error);
    }
    std::string key(static_cast<const char*>(message->key), message->key_len);
    std::optional<std::string> value;
    if (message->payload != nullptr) value.emplace(static_cast<const char*>(message->payload), message->len);
    next = message->offset + 1;
    rd_kafka_message_destroy(message);
    apply(key, value);
  }
  Logger("registry")->info("replayed {} record offsets of topic '{}'", high - low, impl_->topic);
  return OkStatus();
}

}  // namespace floe::registry
