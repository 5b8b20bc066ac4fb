#include "stream/first_record.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "broker/client/kafka_client_config.h"

namespace floe::stream {
namespace {

// The first record of the first partition whose low watermark is below its high one.
Result<std::optional<std::string>> TryOnce(rd_kafka_t* consumer, rd_kafka_topic_t* topic, const std::string& name) {
  const rd_kafka_metadata_t* metadata = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_metadata(consumer, 0, topic, &metadata, 5000);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return Unavailable("topic '{}': metadata: {}", name, rd_kafka_err2str(err));
  std::vector<int32_t> partitions;
  for (int t = 0; t < metadata->topic_cnt; ++t) {
    for (int p = 0; p < metadata->topics[t].partition_cnt; ++p) partitions.push_back(metadata->topics[t].partitions[p].id);
  }
  rd_kafka_metadata_destroy(metadata);
  std::sort(partitions.begin(), partitions.end());
  for (int32_t partition : partitions) {
    int64_t low = 0, high = 0;
    err = rd_kafka_query_watermark_offsets(consumer, name.c_str(), partition, &low, &high, 5000);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Unavailable("topic '{}' partition {}: watermarks: {}", name, partition, rd_kafka_err2str(err));
    }
    if (low >= high) continue;
    if (rd_kafka_consume_start(topic, partition, low) != 0) {
      return Unavailable("topic '{}' partition {}: {}", name, partition, rd_kafka_err2str(rd_kafka_last_error()));
    }
    Result<std::optional<std::string>> found = std::optional<std::string>();
    for (int attempt = 0; attempt < 50; ++attempt) {
      rd_kafka_message_t* m = rd_kafka_consume(topic, partition, 200);
      if (m == nullptr) continue;
      if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
        found = std::optional<std::string>(std::string(static_cast<const char*>(m->payload), m->len));
      } else if (m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        found = Unavailable("topic '{}' partition {} offset {}: {}", name, partition, low, rd_kafka_message_errstr(m));
      }
      rd_kafka_message_destroy(m);
      if (!found || found->has_value()) break;
    }
    rd_kafka_consume_stop(topic, partition);
    if (!found || found->has_value()) return found;
  }
  return std::optional<std::string>();
}

}  // namespace

Result<std::string> ReadFirstRecordValue(const std::string& brokers, const std::string& topic,
                                         const std::map<std::string, std::string>& consumer_config,
                                         std::chrono::milliseconds wait, const std::atomic<bool>* stop) {
  broker::KafkaSettings overrides(consumer_config.begin(), consumer_config.end());
  overrides.emplace_back("bootstrap.servers", brokers);
  FLOE_ASSIGN_OR_RETURN(rd_kafka_conf_t * conf,
                        broker::MakeKafkaConf({{"client.id", "floe-stream-schema-probe"},
                                               {"enable.auto.commit", "false"},
                                               {"log_level", "3"}},
                                              overrides, "the first-record reader"));
  char errstr[512];
  rd_kafka_t* consumer = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof(errstr));
  if (consumer == nullptr) {
    rd_kafka_conf_destroy(conf);
    return Unavailable("consumer for {}: {}", brokers, errstr);
  }
  rd_kafka_topic_t* handle = rd_kafka_topic_new(consumer, topic.c_str(), nullptr);
  if (handle == nullptr) {
    Error error(ErrorKind::kInvalidArgument,
                fmt::format("topic '{}': {}", topic, rd_kafka_err2str(rd_kafka_last_error())));
    rd_kafka_destroy(consumer);
    return std::unexpected(std::move(error));
  }
  const auto deadline = std::chrono::steady_clock::now() + wait;
  Result<std::string> result = NotFound("topic '{}' holds no record yet", topic);
  while (true) {
    auto once = TryOnce(consumer, handle, topic);
    if (!once) {
      result = std::unexpected(once.error());
    } else if (once->has_value()) {
      result = std::move(**once);
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline || (stop != nullptr && stop->load())) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  rd_kafka_topic_destroy(handle);
  rd_kafka_destroy(consumer);
  return result;
}

}  // namespace floe::stream
