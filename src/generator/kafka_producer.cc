#include "generator/kafka_producer.h"

#include <librdkafka/rdkafka.h>

#include "broker/client/kafka_client_config.h"

namespace floe::generator {

void KafkaProducer::OnDeliveryReport(rd_kafka_s* kafka, const void* message, void* opaque) {
  const auto* m = static_cast<const rd_kafka_message_t*>(message);
  auto* self = static_cast<KafkaProducer*>(opaque);
  DeliveryReport report;
  report.topic = m->rkt != nullptr ? rd_kafka_topic_name(m->rkt) : "";
  report.partition = m->partition;
  report.offset = m->offset;
  report.key = std::string_view(static_cast<const char*>(m->key), m->key_len);
  report.value = std::string_view(static_cast<const char*>(m->payload), m->len);
  report.opaque = m->_private;
  report.delivered = m->err == RD_KAFKA_RESP_ERR_NO_ERROR;
  if (!report.delivered) report.error = rd_kafka_err2str(m->err);
  if (self->on_delivery_) self->on_delivery_(report);
}

Result<std::unique_ptr<KafkaProducer>> KafkaProducer::Create(const std::string& brokers,
                                                             const std::map<std::string, std::string>& config,
                                                             DeliveryCallback on_delivery) {
  std::unique_ptr<KafkaProducer> producer(new KafkaProducer());
  producer->on_delivery_ = std::move(on_delivery);
  broker::KafkaSettings defaults = {
      {"acks", "all"},     {"enable.idempotence", "true"}, {"linger.ms", "5"},
      {"partitioner", "murmur2_random"}, {"log_level", "3"},
  };
  broker::KafkaSettings overrides(config.begin(), config.end());
  overrides.emplace_back("bootstrap.servers", brokers);
  FLOE_ASSIGN_OR_RETURN(rd_kafka_conf_t * conf, broker::MakeKafkaConf(defaults, overrides, "the producer"));
  char error[512];
  rd_kafka_conf_set_opaque(conf, producer.get());
  rd_kafka_conf_set_dr_msg_cb(conf, [](rd_kafka_t* kafka, const rd_kafka_message_t* message, void* opaque) {
    OnDeliveryReport(kafka, message, opaque);
  });
  producer->kafka_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof(error));
  if (producer->kafka_ == nullptr) {
    rd_kafka_conf_destroy(conf);
    return InvalidArgument("creating Kafka producer for {}: {}", brokers, error);
  }
  return producer;
}

KafkaProducer::~KafkaProducer() {
  if (kafka_ != nullptr) rd_kafka_destroy(kafka_);
}

Status KafkaProducer::Produce(std::string_view topic, std::string_view key, std::string_view value, void* opaque) {
  while (true) {
    rd_kafka_resp_err_t err = rd_kafka_producev(
        kafka_, RD_KAFKA_V_TOPIC(std::string(topic).c_str()), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
        RD_KAFKA_V_KEY(const_cast<char*>(key.data()), key.size()),
        RD_KAFKA_V_VALUE(const_cast<char*>(value.data()), value.size()), RD_KAFKA_V_OPAQUE(opaque), RD_KAFKA_V_END);
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return OkStatus();
    if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      return Unavailable("producing to topic {}: {}", topic, rd_kafka_err2str(err));
    }
    rd_kafka_poll(kafka_, 10);  // Let deliveries drain the queue, then retry.
  }
}

void KafkaProducer::Poll(int timeout_ms) { rd_kafka_poll(kafka_, timeout_ms); }

Status KafkaProducer::Flush(int timeout_ms) {
  rd_kafka_resp_err_t err = rd_kafka_flush(kafka_, timeout_ms);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Unavailable("{} messages still unacknowledged after {} ms", rd_kafka_outq_len(kafka_), timeout_ms);
  }
  return OkStatus();
}

int KafkaProducer::InFlight() const { return rd_kafka_outq_len(kafka_); }

}  // namespace floe::generator
