#include "up/broker_probe.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>

#include "broker/client/kafka_client_config.h"

namespace floe::up {

int64_t TopicOffsets::end_offset_sum() const {
  int64_t sum = 0;
  for (const auto& p : partitions) sum += p.end_offset;
  return sum;
}

BrokerProbe::~BrokerProbe() {
  if (kafka_ != nullptr) rd_kafka_destroy(kafka_);
}

Status BrokerProbe::Connect() {
  if (kafka_ != nullptr) return OkStatus();
  FLOE_ASSIGN_OR_RETURN(rd_kafka_conf_t * conf,
                        broker::MakeKafkaConf({{"client.id", "floe-console"}}, {{"bootstrap.servers", bootstrap_}},
                                              "the console's broker probe"));
  char error[512];
  // A broker the playground took down is expected: its connection errors are not news.
  rd_kafka_conf_set_log_cb(conf, [](const rd_kafka_t*, int, const char*, const char*) {});
  kafka_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof(error));  // Takes conf on success.
  if (kafka_ == nullptr) {
    rd_kafka_conf_destroy(conf);
    return Internal("broker probe: {}", error);
  }
  return OkStatus();
}

Result<std::vector<TopicOffsets>> BrokerProbe::Topics(std::chrono::milliseconds timeout) {
  FLOE_RETURN_IF_ERROR(Connect());
  const rd_kafka_metadata_t* metadata = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_metadata(kafka_, /*all_topics=*/1, nullptr, &metadata,
                                              static_cast<int>(timeout.count()));
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Unavailable("broker {} did not answer a metadata request: {}", bootstrap_, rd_kafka_err2str(err));
  }
  std::vector<TopicOffsets> topics;
  Status status = OkStatus();
  for (int t = 0; t < metadata->topic_cnt && status; ++t) {
    const rd_kafka_metadata_topic_t& topic = metadata->topics[t];
    if (topic.err != RD_KAFKA_RESP_ERR_NO_ERROR || std::string_view(topic.topic).starts_with("__")) continue;
    TopicOffsets offsets{.name = topic.topic, .partitions = {}};
    for (int p = 0; p < topic.partition_cnt; ++p) {
      int64_t low = 0, high = 0;
      int32_t id = topic.partitions[p].id;
      err = rd_kafka_query_watermark_offsets(kafka_, topic.topic, id, &low, &high, static_cast<int>(timeout.count()));
      if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        status = Unavailable("broker {}: offsets of {}/{}: {}", bootstrap_, topic.topic, id, rd_kafka_err2str(err));
        break;
      }
      offsets.partitions.push_back({.partition = id, .start_offset = low, .end_offset = high});
    }
    std::sort(offsets.partitions.begin(), offsets.partitions.end(),
              [](const auto& a, const auto& b) { return a.partition < b.partition; });
    topics.push_back(std::move(offsets));
  }
  rd_kafka_metadata_destroy(metadata);
  if (!status) return std::unexpected(status.error());
  std::sort(topics.begin(), topics.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return topics;
}

}  // namespace floe::up
