#include "broker/admin/topic_admin.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <memory>

#include "broker/client/kafka_client_config.h"

namespace floe::broker {
namespace {

constexpr int kTimeoutMs = 15000;

struct KafkaDeleter {
  void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
};
using KafkaHandle = std::unique_ptr<rd_kafka_t, KafkaDeleter>;

Result<KafkaHandle> Connect(const std::string& brokers) {
  FLOE_ASSIGN_OR_RETURN(rd_kafka_conf_t * conf,
                        MakeKafkaConf({{"log_level", "3"}}, {{"bootstrap.servers", brokers}}, "floe topic"));
  char errstr[512];
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  if (!rk) return Unavailable("kafka client: {}", errstr);
  return KafkaHandle(rk);
}

// Waits for the admin result event of `type` on `queue`.
Result<rd_kafka_event_t*> WaitFor(rd_kafka_queue_t* queue, rd_kafka_event_type_t type) {
  rd_kafka_event_t* event = rd_kafka_queue_poll(queue, kTimeoutMs + 5000);
  if (!event) return Unavailable("no answer from the broker within {} ms", kTimeoutMs);
  if (rd_kafka_event_type(event) != type || rd_kafka_event_error(event)) {
    std::string message = rd_kafka_event_error_string(event) ? rd_kafka_event_error_string(event) : "unexpected event";
    rd_kafka_event_destroy(event);
    return Unavailable("{}", message);
  }
  return event;
}

Status TopicResultStatus(const rd_kafka_topic_result_t* result) {
  rd_kafka_resp_err_t err = rd_kafka_topic_result_error(result);
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return OkStatus();
  std::string name = rd_kafka_topic_result_name(result);
  const char* message = rd_kafka_topic_result_error_string(result);
  std::string text = fmt::format("topic '{}': {}", name, message ? message : rd_kafka_err2str(err));
  if (err == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) return AlreadyExists("{}", text);
  if (err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART) return NotFound("{}", text);
  return InvalidArgument("{}", text);
}

}  // namespace

Status CreateTopic(const std::string& brokers, const std::string& name, int32_t partitions,
                   const std::map<std::string, std::string>& configs) {
  FLOE_ASSIGN_OR_RETURN(KafkaHandle rk, Connect(brokers));
  char errstr[512];
  rd_kafka_NewTopic_t* topic = rd_kafka_NewTopic_new(name.c_str(), partitions, 1, errstr, sizeof errstr);
  if (!topic) return InvalidArgument("{}", errstr);
  for (const auto& [key, value] : configs) rd_kafka_NewTopic_set_config(topic, key.c_str(), value.c_str());
  rd_kafka_queue_t* queue = rd_kafka_queue_new(rk.get());
  rd_kafka_AdminOptions_t* options = rd_kafka_AdminOptions_new(rk.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS);
  rd_kafka_AdminOptions_set_operation_timeout(options, kTimeoutMs, errstr, sizeof errstr);
  rd_kafka_CreateTopics(rk.get(), &topic, 1, options, queue);
  auto event = WaitFor(queue, RD_KAFKA_EVENT_CREATETOPICS_RESULT);
  Status status = OkStatus();
  if (!event) {
    status = std::unexpected(event.error());
  } else {
    size_t count = 0;
    const rd_kafka_topic_result_t** results =
        rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(*event), &count);
    for (size_t i = 0; i < count && status; ++i) status = TopicResultStatus(results[i]);
    rd_kafka_event_destroy(*event);
  }
  rd_kafka_AdminOptions_destroy(options);
  rd_kafka_NewTopic_destroy(topic);
  rd_kafka_queue_destroy(queue);
  return status;
}

Status DeleteTopic(const std::string& brokers, const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(KafkaHandle rk, Connect(brokers));
  rd_kafka_DeleteTopic_t* topic = rd_kafka_DeleteTopic_new(name.c_str());
  rd_kafka_queue_t* queue = rd_kafka_queue_new(rk.get());
  rd_kafka_DeleteTopics(rk.get(), &topic, 1, nullptr, queue);
  auto event = WaitFor(queue, RD_KAFKA_EVENT_DELETETOPICS_RESULT);
  Status status = OkStatus();
  if (!event) {
    status = std::unexpected(event.error());
  } else {
    size_t count = 0;
    const rd_kafka_topic_result_t** results =
        rd_kafka_DeleteTopics_result_topics(rd_kafka_event_DeleteTopics_result(*event), &count);
    for (size_t i = 0; i < count && status; ++i) status = TopicResultStatus(results[i]);
    rd_kafka_event_destroy(*event);
  }
  rd_kafka_DeleteTopic_destroy(topic);
  rd_kafka_queue_destroy(queue);
  return status;
}

Result<std::vector<TopicInfo>> ListTopics(const std::string& brokers) {
  FLOE_ASSIGN_OR_RETURN(KafkaHandle rk, Connect(brokers));
  const rd_kafka_metadata_t* metadata = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_metadata(rk.get(), 1, nullptr, &metadata, kTimeoutMs);
  if (err) return Unavailable("metadata from {}: {}", brokers, rd_kafka_err2str(err));
  std::vector<TopicInfo> topics;
  for (int i = 0; i < metadata->topic_cnt; ++i) {
    const auto& t = metadata->topics[i];
    if (t.err) continue;
    topics.push_back({t.topic, t.partition_cnt, {}, {}});
  }
  rd_kafka_metadata_destroy(metadata);
  std::sort(topics.begin(), topics.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return topics;
}

Result<TopicInfo> DescribeTopic(const std::string& brokers, const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(auto all, ListTopics(brokers));
  auto it = std::find_if(all.begin(), all.end(), [&](const TopicInfo& t) { return t.name == name; });
  if (it == all.end()) return NotFound("topic '{}' does not exist", name);
  TopicInfo info = *it;
  FLOE_ASSIGN_OR_RETURN(KafkaHandle rk, Connect(brokers));
  for (int32_t p = 0; p < info.partitions; ++p) {
    int64_t low = 0, high = 0;
    rd_kafka_resp_err_t err = rd_kafka_query_watermark_offsets(rk.get(), name.c_str(), p, &low, &high, kTimeoutMs);
    info.high_watermarks.push_back(err ? -1 : high);
  }
  rd_kafka_ConfigResource_t* resource = rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, name.c_str());
  rd_kafka_queue_t* queue = rd_kafka_queue_new(rk.get());
  rd_kafka_DescribeConfigs(rk.get(), &resource, 1, nullptr, queue);
  auto event = WaitFor(queue, RD_KAFKA_EVENT_DESCRIBECONFIGS_RESULT);
  if (event) {
    size_t count = 0;
    const rd_kafka_ConfigResource_t** resources =
        rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(*event), &count);
    for (size_t r = 0; r < count; ++r) {
      size_t entries = 0;
      const rd_kafka_ConfigEntry_t** configs = rd_kafka_ConfigResource_configs(resources[r], &entries);
      for (size_t e = 0; e < entries; ++e) {
        const char* value = rd_kafka_ConfigEntry_value(configs[e]);
        info.configs[rd_kafka_ConfigEntry_name(configs[e])] = value ? value : "";
      }
    }
    rd_kafka_event_destroy(*event);
  }
  rd_kafka_ConfigResource_destroy(resource);
  rd_kafka_queue_destroy(queue);
  if (!event) return std::unexpected(event.error());
  return info;
}

}  // namespace floe::broker
