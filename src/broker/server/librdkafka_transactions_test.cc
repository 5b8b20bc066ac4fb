// librdkafka's transactional producer (Debian's librdkafka 2.0.2, nobody here wrote it) against
// a `floe broker` on a loopback port: it negotiates the flexible versions of InitProducerId,
// AddPartitionsToTxn, EndTxn and TxnOffsetCommit (v3, with consumer-group metadata) that
// kafkajs never uses. A commit, an abort and send_offsets_to_transaction are read back by
// librdkafka consumers in both isolation levels and through OffsetFetch; a second producer
// with the same transactional.id fences the first. Plain offset commits carry metadata up to
// Kafka's 4096-byte bound and get OFFSET_METADATA_TOO_LARGE beyond it.
#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>

#include <cstring>
#include <set>

#include "broker/testing/running_broker.h"

namespace floe::broker {
namespace {

class LibrdkafkaTransactionsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(broker_.running()); }

  rd_kafka_t* Client(rd_kafka_type_t type, std::vector<std::pair<std::string, std::string>> settings) {
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    char error[512];
    settings.emplace_back("bootstrap.servers", broker_.bootstrap());
    settings.emplace_back("log_level", "2");
    for (const auto& [key, value] : settings) {
      EXPECT_EQ(rd_kafka_conf_set(conf, key.c_str(), value.c_str(), error, sizeof(error)), RD_KAFKA_CONF_OK) << error;
    }
    rd_kafka_t* client = rd_kafka_new(type, conf, error, sizeof(error));
    EXPECT_NE(client, nullptr) << error;
    return client;
  }
  rd_kafka_t* Producer(const std::string& transactional_id) {
    return Client(RD_KAFKA_PRODUCER, {{"transactional.id", transactional_id}, {"transaction.timeout.ms", "30000"}});
  }

  static void Produce(rd_kafka_t* producer, const std::string& topic, int32_t partition, const std::string& key) {
    ASSERT_EQ(rd_kafka_producev(producer, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(partition),
                                RD_KAFKA_V_KEY(key.data(), key.size()), RD_KAFKA_V_VALUE(const_cast<char*>(key.data()), key.size()),
                                RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END),
              RD_KAFKA_RESP_ERR_NO_ERROR);
  }
  // Expects a transactional call to succeed, printing librdkafka's error otherwise.
  static void Ok(rd_kafka_error_t* error, const char* what) {
    if (error != nullptr) {
      ADD_FAILURE() << what << ": " << rd_kafka_error_string(error);
      rd_kafka_error_destroy(error);
    }
  }

  // Every key in `topic`'s partitions 0..partitions-1 up to their end, with `isolation`.
  std::multiset<std::string> ReadKeys(const std::string& topic, int partitions, const std::string& isolation) {
    rd_kafka_t* consumer = Client(RD_KAFKA_CONSUMER, {{"group.id", "reader"}, {"enable.partition.eof", "true"},
                                                      {"isolation.level", isolation}, {"enable.auto.commit", "false"}});
    rd_kafka_topic_partition_list_t* assignment = rd_kafka_topic_partition_list_new(partitions);
    for (int p = 0; p < partitions; ++p) {
      rd_kafka_topic_partition_list_add(assignment, topic.c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
    }
    EXPECT_EQ(rd_kafka_assign(consumer, assignment), RD_KAFKA_RESP_ERR_NO_ERROR);
    rd_kafka_topic_partition_list_destroy(assignment);
    std::multiset<std::string> keys;
    int ended = 0;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (ended < partitions && std::chrono::steady_clock::now() < deadline) {
      rd_kafka_message_t* m = rd_kafka_consumer_poll(consumer, 100);
      if (m == nullptr) continue;
      if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        ++ended;
      } else if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
        keys.insert(std::string(static_cast<const char*>(m->key), m->key_len));
      } else {
        ADD_FAILURE() << rd_kafka_message_errstr(m);
      }
      rd_kafka_message_destroy(m);
    }
    EXPECT_EQ(ended, partitions) << "did not reach the end of " << topic;
    rd_kafka_consumer_close(consumer);
    rd_kafka_destroy(consumer);
    return keys;
  }

  int64_t CommittedOffset(const std::string& group, const std::string& topic) {
    rd_kafka_t* consumer = Client(RD_KAFKA_CONSUMER, {{"group.id", group}});
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(list, topic.c_str(), 0);
    EXPECT_EQ(rd_kafka_committed(consumer, list, 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
    int64_t offset = list->elems[0].offset;
    rd_kafka_topic_partition_list_destroy(list);
    rd_kafka_destroy(consumer);
    return offset;
  }

  testing::RunningBroker broker_{"rdk-txn"};
};

TEST_F(LibrdkafkaTransactionsTest, CommitAbortSendOffsetsAndFencing) {
  rd_kafka_t* producer = Producer("rdk-writer");
  Ok(rd_kafka_init_transactions(producer, 20000), "init_transactions");

  Ok(rd_kafka_begin_transaction(producer), "begin");
  Produce(producer, "events", 0, "c1");  // Auto-created with one partition.
  Produce(producer, "events", 0, "c2");
  rd_kafka_topic_partition_list_t* offsets = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(offsets, "events", 0)->offset = 7;
  rd_kafka_consumer_group_metadata_t* group = rd_kafka_consumer_group_metadata_new("eos-group");
  Ok(rd_kafka_send_offsets_to_transaction(producer, offsets, group, 20000), "send_offsets_to_transaction");
  Ok(rd_kafka_commit_transaction(producer, 20000), "commit");

  Ok(rd_kafka_begin_transaction(producer), "begin");
  Produce(producer, "events", 0, "a1");
  rd_kafka_topic_partition_list_destroy(offsets);
  offsets = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(offsets, "events", 0)->offset = 42;
  Ok(rd_kafka_send_offsets_to_transaction(producer, offsets, group, 20000), "send_offsets_to_transaction");
  ASSERT_EQ(rd_kafka_flush(producer, 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
  Ok(rd_kafka_abort_transaction(producer, 20000), "abort");
  rd_kafka_topic_partition_list_destroy(offsets);
  rd_kafka_consumer_group_metadata_destroy(group);

  EXPECT_EQ(ReadKeys("events", 1, "read_committed"), (std::multiset<std::string>{"c1", "c2"}));
  EXPECT_EQ(ReadKeys("events", 1, "read_uncommitted"), (std::multiset<std::string>{"a1", "c1", "c2"}));
  EXPECT_EQ(CommittedOffset("eos-group", "events"), 7);  // The aborted transaction's 42 never landed.

  // A second producer with the same transactional.id fences the first.
  rd_kafka_t* successor = Producer("rdk-writer");
  Ok(rd_kafka_init_transactions(successor, 20000), "successor init_transactions");
  Ok(rd_kafka_begin_transaction(producer), "zombie begin");
  Produce(producer, "events", 0, "zombie");
  rd_kafka_error_t* fenced = rd_kafka_commit_transaction(producer, 20000);
  ASSERT_NE(fenced, nullptr);
  EXPECT_TRUE(rd_kafka_error_is_fatal(fenced)) << rd_kafka_error_string(fenced);
  EXPECT_EQ(rd_kafka_error_code(fenced), RD_KAFKA_RESP_ERR__FENCED) << rd_kafka_error_string(fenced);
  rd_kafka_error_destroy(fenced);
  Ok(rd_kafka_begin_transaction(successor), "successor begin");
  Produce(successor, "events", 0, "c3");
  Ok(rd_kafka_commit_transaction(successor, 20000), "successor commit");
  EXPECT_EQ(ReadKeys("events", 1, "read_committed"), (std::multiset<std::string>{"c1", "c2", "c3"}));
  rd_kafka_destroy(producer);
  rd_kafka_destroy(successor);
}

// A group's committed metadata comes back as written; an oversize one is refused without
// replacing it (and without poisoning the offsets file for the commits after it).
TEST_F(LibrdkafkaTransactionsTest, OffsetCommitMetadataIsKeptAndBounded) {
  rd_kafka_t* producer = Client(RD_KAFKA_PRODUCER, {});
  Produce(producer, "meta-topic", 0, "k");  // Auto-created with one partition.
  ASSERT_EQ(rd_kafka_flush(producer, 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
  rd_kafka_destroy(producer);
  rd_kafka_t* consumer = Client(RD_KAFKA_CONSUMER, {{"group.id", "meta-group"}, {"enable.auto.commit", "false"}});
  auto commit = [&](int64_t offset, const std::string& metadata) {
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_t* p = rd_kafka_topic_partition_list_add(list, "meta-topic", 0);
    p->offset = offset;
    p->metadata = rd_kafka_mem_malloc(consumer, metadata.size());
    memcpy(p->metadata, metadata.data(), metadata.size());
    p->metadata_size = metadata.size();
    rd_kafka_resp_err_t overall = rd_kafka_commit(consumer, list, 0);
    rd_kafka_resp_err_t partition = list->elems[0].err;
    rd_kafka_topic_partition_list_destroy(list);
    return overall != RD_KAFKA_RESP_ERR_NO_ERROR ? overall : partition;
  };
  auto committed = [&] {
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(list, "meta-topic", 0);
    EXPECT_EQ(rd_kafka_committed(consumer, list, 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
    const rd_kafka_topic_partition_t& p = list->elems[0];
    auto out = std::pair{p.offset, std::string(static_cast<const char*>(p.metadata), p.metadata_size)};
    rd_kafka_topic_partition_list_destroy(list);
    return out;
  };
  const std::string at_bound(4096, 'm');
  EXPECT_EQ(commit(3, at_bound), RD_KAFKA_RESP_ERR_NO_ERROR);
  EXPECT_EQ(committed(), std::pair(int64_t{3}, at_bound));
  EXPECT_EQ(commit(5, std::string(4097, 'x')), RD_KAFKA_RESP_ERR_OFFSET_METADATA_TOO_LARGE);
  EXPECT_EQ(committed(), std::pair(int64_t{3}, at_bound));
  EXPECT_EQ(commit(6, "small"), RD_KAFKA_RESP_ERR_NO_ERROR);
  EXPECT_EQ(committed(), std::pair(int64_t{6}, std::string("small")));
  rd_kafka_destroy(consumer);
}

}  // namespace
}  // namespace floe::broker
