// librdkafka's admin API (Debian's librdkafka 2.0.2, nobody here wrote it) against a `floe
// broker` on a loopback port: AlterConfigs (read back with DescribeConfigs; a bad value is
// INVALID_CONFIG), DeleteRecords (the low watermark moves) and offsetsForTimes (ListOffsets by
// timestamp, record granularity). Prints the request versions librdkafka negotiated.
#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>

#include <map>
#include <mutex>
#include <regex>
#include <set>

#include "broker/testing/running_broker.h"

namespace floe::broker {
namespace {

// librdkafka's "Sent XRequest (vN, ...)" protocol debug lines, collected.
std::mutex sent_mutex;
std::set<std::string> sent_requests;

void CollectSent(const rd_kafka_t*, int, const char*, const char* line) {
  static const std::regex sent(R"(Sent (\w+Request) \(v(\d+))");
  std::cmatch m;
  if (std::regex_search(line, m, sent)) {
    std::lock_guard lock(sent_mutex);
    sent_requests.insert(fmt::format("{} v{}", m[1].str(), m[2].str()));
  }
}

class LibrdkafkaAdminTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(broker_.running()); }

  rd_kafka_t* Client(rd_kafka_type_t type, std::vector<std::pair<std::string, std::string>> settings = {}) {
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    char error[512];
    settings.emplace_back("bootstrap.servers", broker_.bootstrap());
    settings.emplace_back("debug", "protocol");
    for (const auto& [key, value] : settings) {
      EXPECT_EQ(rd_kafka_conf_set(conf, key.c_str(), value.c_str(), error, sizeof(error)), RD_KAFKA_CONF_OK) << error;
    }
    rd_kafka_conf_set_log_cb(conf, CollectSent);
    rd_kafka_t* client = rd_kafka_new(type, conf, error, sizeof(error));
    EXPECT_NE(client, nullptr) << error;
    return client;
  }

  // Waits for the one result event of an admin call on `queue`.
  static rd_kafka_event_t* Await(rd_kafka_queue_t* queue) {
    rd_kafka_event_t* event = rd_kafka_queue_poll(queue, 20000);
    EXPECT_NE(event, nullptr);
    if (event) {
      EXPECT_EQ(rd_kafka_event_error(event), RD_KAFKA_RESP_ERR_NO_ERROR) << rd_kafka_event_error_string(event);
    }
    return event;
  }

  // AlterConfigs of topic `topic`; returns the resource's error.
  rd_kafka_resp_err_t Alter(rd_kafka_t* admin, rd_kafka_queue_t* queue, const std::string& topic,
                            const std::vector<std::pair<std::string, std::string>>& configs) {
    rd_kafka_ConfigResource_t* resource = rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.c_str());
    for (const auto& [name, value] : configs) rd_kafka_ConfigResource_set_config(resource, name.c_str(), value.c_str());
    rd_kafka_AlterConfigs(admin, &resource, 1, nullptr, queue);
    rd_kafka_ConfigResource_destroy(resource);
    rd_kafka_event_t* event = Await(queue);
    size_t n = 0;
    const rd_kafka_ConfigResource_t** results =
        rd_kafka_AlterConfigs_result_resources(rd_kafka_event_AlterConfigs_result(event), &n);
    EXPECT_EQ(n, 1u);
    rd_kafka_resp_err_t error = n == 1 ? rd_kafka_ConfigResource_error(results[0]) : RD_KAFKA_RESP_ERR__FAIL;
    rd_kafka_event_destroy(event);
    return error;
  }

  std::map<std::string, std::string> Describe(rd_kafka_t* admin, rd_kafka_queue_t* queue, const std::string& topic) {
    rd_kafka_ConfigResource_t* resource = rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.c_str());
    rd_kafka_DescribeConfigs(admin, &resource, 1, nullptr, queue);
    rd_kafka_ConfigResource_destroy(resource);
    rd_kafka_event_t* event = Await(queue);
    size_t n = 0;
    const rd_kafka_ConfigResource_t** results =
        rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(event), &n);
    std::map<std::string, std::string> out;
    for (size_t i = 0; i < n; ++i) {
      size_t entries = 0;
      const rd_kafka_ConfigEntry_t** configs = rd_kafka_ConfigResource_configs(results[i], &entries);
      for (size_t e = 0; e < entries; ++e) {
        const char* value = rd_kafka_ConfigEntry_value(configs[e]);
        out[rd_kafka_ConfigEntry_name(configs[e])] = value ? value : "";
      }
    }
    rd_kafka_event_destroy(event);
    return out;
  }

  testing::RunningBroker broker_{"rdk-admin"};
};

TEST_F(LibrdkafkaAdminTest, AlterConfigsDeleteRecordsAndOffsetsForTimes) {
  rd_kafka_t* producer = Client(RD_KAFKA_PRODUCER, {{"linger.ms", "100"}});
  rd_kafka_queue_t* queue = rd_kafka_queue_new(producer);

  rd_kafka_NewTopic_t* topic = rd_kafka_NewTopic_new("configured", 1, 1, nullptr, 0);
  rd_kafka_CreateTopics(producer, &topic, 1, nullptr, queue);
  rd_kafka_NewTopic_destroy(topic);
  rd_kafka_event_destroy(Await(queue));

  EXPECT_EQ(Alter(producer, queue, "configured", {{"cleanup.policy", "compact,delete"}, {"retention.ms", "3600000"}}),
            RD_KAFKA_RESP_ERR_NO_ERROR);
  auto configs = Describe(producer, queue, "configured");
  EXPECT_EQ(configs["cleanup.policy"], "compact,delete");
  EXPECT_EQ(configs["retention.ms"], "3600000");
  EXPECT_EQ(Alter(producer, queue, "configured", {{"segment.bytes", "huge"}}), RD_KAFKA_RESP_ERR_INVALID_CONFIG);
  EXPECT_EQ(Alter(producer, queue, "configured", {{"min.cleanable.dirty.ratio", "1.5"}}),
            RD_KAFKA_RESP_ERR_INVALID_CONFIG);
  EXPECT_EQ(Describe(producer, queue, "configured")["retention.ms"], "3600000");

  // 100 records with timestamps 1000, 1010, ...: one or a few batches.
  for (int i = 0; i < 100; ++i) {
    std::string value = fmt::format("v{}", i);
    ASSERT_EQ(rd_kafka_producev(producer, RD_KAFKA_V_TOPIC("configured"), RD_KAFKA_V_PARTITION(0),
                                RD_KAFKA_V_KEY(value.data(), value.size()),
                                RD_KAFKA_V_VALUE(value.data(), value.size()), RD_KAFKA_V_TIMESTAMP(1000 + 10 * i),
                                RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END),
              RD_KAFKA_RESP_ERR_NO_ERROR);
  }
  ASSERT_EQ(rd_kafka_flush(producer, 20000), RD_KAFKA_RESP_ERR_NO_ERROR);

  rd_kafka_topic_partition_list_t* times = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(times, "configured", 0)->offset = 1455;
  ASSERT_EQ(rd_kafka_offsets_for_times(producer, times, 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
  EXPECT_EQ(times->elems[0].err, RD_KAFKA_RESP_ERR_NO_ERROR);
  EXPECT_EQ(times->elems[0].offset, 46);
  rd_kafka_topic_partition_list_destroy(times);

  rd_kafka_topic_partition_list_t* cut = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(cut, "configured", 0)->offset = 30;
  rd_kafka_DeleteRecords_t* request = rd_kafka_DeleteRecords_new(cut);
  rd_kafka_topic_partition_list_destroy(cut);
  rd_kafka_DeleteRecords(producer, &request, 1, nullptr, queue);
  rd_kafka_DeleteRecords_destroy(request);
  rd_kafka_event_t* event = Await(queue);
  const rd_kafka_topic_partition_list_t* result =
      rd_kafka_DeleteRecords_result_offsets(rd_kafka_event_DeleteRecords_result(event));
  ASSERT_EQ(result->cnt, 1);
  EXPECT_EQ(result->elems[0].err, RD_KAFKA_RESP_ERR_NO_ERROR);
  EXPECT_EQ(result->elems[0].offset, 30);
  rd_kafka_event_destroy(event);
  int64_t low = -1, high = -1;
  ASSERT_EQ(rd_kafka_query_watermark_offsets(producer, "configured", 0, &low, &high, 10000),
            RD_KAFKA_RESP_ERR_NO_ERROR);
  EXPECT_EQ(low, 30);
  EXPECT_EQ(high, 100);

  rd_kafka_queue_destroy(queue);
  rd_kafka_destroy(producer);
  std::lock_guard lock(sent_mutex);
  std::string versions;
  for (const std::string& s : sent_requests) versions += s + "; ";
  std::printf("librdkafka sent: %s\n", versions.c_str());
  for (const char* api : {"AlterConfigsRequest", "DeleteRecordsRequest", "ListOffsetsRequest"}) {
    EXPECT_NE(versions.find(api), std::string::npos) << api;
  }
}

// What DeleteConsumerGroupOffsets (OffsetDelete v0) answered: the request's error (a group-level
// one fails it whole) and each partition's.
struct OffsetDeleteOutcome {
  rd_kafka_resp_err_t request = RD_KAFKA_RESP_ERR_NO_ERROR;
  std::map<int32_t, rd_kafka_resp_err_t> partitions;
};

TEST_F(LibrdkafkaAdminTest, DeleteConsumerGroupOffsets) {
  rd_kafka_t* admin = Client(RD_KAFKA_PRODUCER);
  rd_kafka_queue_t* queue = rd_kafka_queue_new(admin);
  rd_kafka_NewTopic_t* topic = rd_kafka_NewTopic_new("tracked", 2, 1, nullptr, 0);
  rd_kafka_CreateTopics(admin, &topic, 1, nullptr, queue);
  rd_kafka_NewTopic_destroy(topic);
  rd_kafka_event_destroy(Await(queue));

  auto delete_offsets = [&](const std::string& group, std::vector<int32_t> partitions) {
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(static_cast<int>(partitions.size()));
    for (int32_t p : partitions) rd_kafka_topic_partition_list_add(list, "tracked", p);
    rd_kafka_DeleteConsumerGroupOffsets_t* request = rd_kafka_DeleteConsumerGroupOffsets_new(group.c_str(), list);
    rd_kafka_topic_partition_list_destroy(list);
    rd_kafka_DeleteConsumerGroupOffsets(admin, &request, 1, nullptr, queue);
    rd_kafka_DeleteConsumerGroupOffsets_destroy(request);
    rd_kafka_event_t* event = rd_kafka_queue_poll(queue, 20000);
    OffsetDeleteOutcome outcome;
    if (event == nullptr) {
      ADD_FAILURE() << "no answer";
      outcome.request = RD_KAFKA_RESP_ERR__TIMED_OUT;
      return outcome;
    }
    outcome.request = rd_kafka_event_error(event);
    if (outcome.request == RD_KAFKA_RESP_ERR_NO_ERROR) {
      size_t n = 0;
      const rd_kafka_group_result_t** groups = rd_kafka_DeleteConsumerGroupOffsets_result_groups(
          rd_kafka_event_DeleteConsumerGroupOffsets_result(event), &n);
      EXPECT_EQ(n, 1u);
      if (n == 1) {
        if (const rd_kafka_error_t* error = rd_kafka_group_result_error(groups[0])) {
          outcome.request = rd_kafka_error_code(error);
        }
        if (const rd_kafka_topic_partition_list_t* results = rd_kafka_group_result_partitions(groups[0])) {
          for (int i = 0; i < results->cnt; ++i)
            outcome.partitions[results->elems[i].partition] = results->elems[i].err;
        }
      }
    }
    rd_kafka_event_destroy(event);
    return outcome;
  };
  auto committed = [&](rd_kafka_t* consumer) {
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(2);
    rd_kafka_topic_partition_list_add(list, "tracked", 0);
    rd_kafka_topic_partition_list_add(list, "tracked", 1);
    EXPECT_EQ(rd_kafka_committed(consumer, list, 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
    std::vector<int64_t> offsets{list->elems[0].offset, list->elems[1].offset};
    rd_kafka_topic_partition_list_destroy(list);
    return offsets;
  };
  auto commit = [&](rd_kafka_t* consumer, int64_t first, int64_t second) {
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(2);
    rd_kafka_topic_partition_list_add(list, "tracked", 0)->offset = first;
    rd_kafka_topic_partition_list_add(list, "tracked", 1)->offset = second;
    EXPECT_EQ(rd_kafka_commit(consumer, list, 0), RD_KAFKA_RESP_ERR_NO_ERROR);
    rd_kafka_topic_partition_list_destroy(list);
  };

  // A group with offsets and no members: the named partition's offset is forgotten, durably
  // from the client's view, and the other stays.
  rd_kafka_t* standalone = Client(RD_KAFKA_CONSUMER, {{"group.id", "keeper"}, {"enable.auto.commit", "false"}});
  commit(standalone, 5, 7);
  EXPECT_EQ(committed(standalone), (std::vector<int64_t>{5, 7}));
  OffsetDeleteOutcome deleted = delete_offsets("keeper", {0});
  EXPECT_EQ(deleted.request, RD_KAFKA_RESP_ERR_NO_ERROR);
  EXPECT_EQ(deleted.partitions, (std::map<int32_t, rd_kafka_resp_err_t>{{0, RD_KAFKA_RESP_ERR_NO_ERROR}}));
  EXPECT_EQ(committed(standalone), (std::vector<int64_t>{RD_KAFKA_OFFSET_INVALID, 7}));
  // A partition the topic does not have.
  EXPECT_EQ(delete_offsets("keeper", {9}).partitions[9], RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART);
  rd_kafka_consumer_close(standalone);
  rd_kafka_destroy(standalone);

  // A group nobody knows.
  EXPECT_EQ(delete_offsets("nobody", {0}).request, RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND);

  // A live consumer subscribed to the topic keeps its offsets.
  rd_kafka_t* live = Client(RD_KAFKA_CONSUMER, {{"group.id", "live"}, {"enable.auto.commit", "false"}});
  rd_kafka_poll_set_consumer(live);
  rd_kafka_topic_partition_list_t* subscription = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(subscription, "tracked", RD_KAFKA_PARTITION_UA);
  ASSERT_EQ(rd_kafka_subscribe(live, subscription), RD_KAFKA_RESP_ERR_NO_ERROR);
  rd_kafka_topic_partition_list_destroy(subscription);
  bool assigned = false;
  for (int i = 0; i < 100 && !assigned; ++i) {
    if (rd_kafka_message_t* message = rd_kafka_consumer_poll(live, 100)) rd_kafka_message_destroy(message);
    rd_kafka_topic_partition_list_t* assignment = nullptr;
    if (rd_kafka_assignment(live, &assignment) == RD_KAFKA_RESP_ERR_NO_ERROR) {
      assigned = assignment->cnt == 2;
      rd_kafka_topic_partition_list_destroy(assignment);
    }
  }
  ASSERT_TRUE(assigned);
  commit(live, 3, 4);
  EXPECT_EQ(delete_offsets("live", {0, 1}).partitions,
            (std::map<int32_t, rd_kafka_resp_err_t>{{0, RD_KAFKA_RESP_ERR_GROUP_SUBSCRIBED_TO_TOPIC},
                                                    {1, RD_KAFKA_RESP_ERR_GROUP_SUBSCRIBED_TO_TOPIC}}));
  EXPECT_EQ(committed(live), (std::vector<int64_t>{3, 4}));
  rd_kafka_consumer_close(live);
  rd_kafka_destroy(live);

  rd_kafka_queue_destroy(queue);
  rd_kafka_destroy(admin);
  std::lock_guard lock(sent_mutex);
  std::string versions;
  for (const std::string& sent : sent_requests) versions += sent + "; ";
  // librdkafka 2.0.2 names the request "OffsetDeleteRequest", so it logs "OffsetDeleteRequestRequest".
  EXPECT_NE(versions.find("OffsetDeleteRequestRequest v0"), std::string::npos) << versions;
}

}  // namespace
}  // namespace floe::broker
