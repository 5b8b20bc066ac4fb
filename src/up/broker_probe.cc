#include "up/broker_probe.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <tuple>

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

Result<GroupDescription> BrokerProbe::DescribeGroup(const std::string& group, std::chrono::milliseconds timeout) {
  FLOE_RETURN_IF_ERROR(Connect());
  char error[512];
  rd_kafka_AdminOptions_t* options = rd_kafka_AdminOptions_new(kafka_, RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS);
  rd_kafka_AdminOptions_set_request_timeout(options, static_cast<int>(timeout.count()), error, sizeof(error));
  rd_kafka_queue_t* queue = rd_kafka_queue_new(kafka_);
  const char* groups[] = {group.c_str()};
  rd_kafka_DescribeConsumerGroups(kafka_, groups, 1, options, queue);
  rd_kafka_AdminOptions_destroy(options);
  // A little past the request's own timeout, so librdkafka reports it rather than us.
  rd_kafka_event_t* event = rd_kafka_queue_poll(queue, static_cast<int>(timeout.count()) + 500);
  rd_kafka_queue_destroy(queue);
  if (event == nullptr) return Unavailable("broker {} did not describe group {} in time", bootstrap_, group);
  Result<GroupDescription> out = Unavailable("broker {} gave no description of group {}", bootstrap_, group);
  if (rd_kafka_event_error(event) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    out = Unavailable("broker {}: describing group {}: {}", bootstrap_, group, rd_kafka_event_error_string(event));
  } else if (const auto* result = rd_kafka_event_DescribeConsumerGroups_result(event)) {
    size_t count = 0;
    const rd_kafka_ConsumerGroupDescription_t** descriptions =
        rd_kafka_DescribeConsumerGroups_result_groups(result, &count);
    if (count == 1) {
      const rd_kafka_ConsumerGroupDescription_t* description = descriptions[0];
      if (const rd_kafka_error_t* failed = rd_kafka_ConsumerGroupDescription_error(description)) {
        out = Unavailable("broker {}: describing group {}: {}", bootstrap_, group, rd_kafka_error_string(failed));
      } else {
        GroupDescription described;
        described.state = rd_kafka_consumer_group_state_name(rd_kafka_ConsumerGroupDescription_state(description));
        for (size_t m = 0; m < rd_kafka_ConsumerGroupDescription_member_count(description); ++m) {
          const rd_kafka_MemberDescription_t* member = rd_kafka_ConsumerGroupDescription_member(description, m);
          auto text = [](const char* value) { return std::string(value == nullptr ? "" : value); };
          GroupMember entry{.client_id = text(rd_kafka_MemberDescription_client_id(member)),
                            .member_id = text(rd_kafka_MemberDescription_consumer_id(member)),
                            .host = text(rd_kafka_MemberDescription_host(member)),
                            .partitions = {}};
          const rd_kafka_MemberAssignment_t* assignment = rd_kafka_MemberDescription_assignment(member);
          const rd_kafka_topic_partition_list_t* list =
              assignment == nullptr ? nullptr : rd_kafka_MemberAssignment_partitions(assignment);
          for (int p = 0; list != nullptr && p < list->cnt; ++p) {
            entry.partitions.emplace_back(list->elems[p].topic, list->elems[p].partition);
          }
          std::sort(entry.partitions.begin(), entry.partitions.end());
          described.members.push_back(std::move(entry));
        }
        std::sort(described.members.begin(), described.members.end(), [](const auto& a, const auto& b) {
          return std::tie(a.client_id, a.member_id) < std::tie(b.client_id, b.member_id);
        });
        out = std::move(described);
      }
    }
  }
  rd_kafka_event_destroy(event);
  return out;
}

}  // namespace floe::up
