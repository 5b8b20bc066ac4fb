#include "generator/ledger.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace floe::generator {
namespace {

TEST(Ledger, SumsAreIndependentOfOrder) {
  Ledger a, b;
  a.RecordAcked("orders", 0, "v1", true, "id1");
  a.RecordAcked("orders", 0, "v2", false, "");
  a.RecordAcked("orders", 1, "v3", true, "id3");
  b.RecordAcked("orders", 1, "v3", true, "id3");
  b.RecordAcked("orders", 0, "v2", false, "");
  b.RecordAcked("orders", 0, "v1", true, "id1");
  EXPECT_EQ(a.Snapshot("orders"), b.Snapshot("orders"));
  PartitionLedger total = a.Total("orders");
  EXPECT_EQ(total.acked, 3u);
  EXPECT_EQ(total.acked_valid, 2u);
  EXPECT_EQ(total.acked_malformed, 1u);
  EXPECT_EQ(total.event_id_hash_sum, EventIdHash("id1") + EventIdHash("id3"));
}

TEST(Ledger, DifferentContentGivesDifferentSums) {
  Ledger a, b;
  a.RecordAcked("orders", 0, "v1", true, "id1");
  b.RecordAcked("orders", 0, "v1", true, "id2");
  EXPECT_NE(a.Total("orders").event_id_hash_sum, b.Total("orders").event_id_hash_sum);
}

TEST(Ledger, WritesParsableJsonAtomically) {
  Ledger ledger;
  ledger.RecordAcked("orders", 2, "value", true, "abc");
  ledger.RecordFailed("orders", 2);
  std::string path = ::testing::TempDir() + "/ledger.json";
  ASSERT_TRUE(ledger.WriteFile(path, "orders").has_value());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto j = nlohmann::json::parse(text.str());
  EXPECT_EQ(j["topic"], "orders");
  EXPECT_EQ(j["partitions"]["2"]["acked"], 1);
  EXPECT_EQ(j["partitions"]["2"]["failed"], 1);
  EXPECT_EQ(j["total"]["acked_valid"], 1);
  EXPECT_FALSE(std::ifstream(path + ".tmp").good());
}

std::string WriteText(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(Ledger, ResumesWhatAPreviousRunWrote) {
  Ledger first;
  first.RecordAcked("orders", 0, "v1", true, "id1");
  first.RecordAcked("orders", 3, "v2", false, "");
  first.RecordFailed("orders", 3);
  std::string path = ::testing::TempDir() + "/resume.json";
  ASSERT_TRUE(first.WriteFile(path, "orders"));

  Ledger second;
  ASSERT_TRUE(second.Resume(path, "orders"));
  EXPECT_EQ(second.Snapshot("orders"), first.Snapshot("orders"));
  second.RecordAcked("orders", 0, "v3", true, "id3");
  first.RecordAcked("orders", 0, "v3", true, "id3");
  EXPECT_EQ(second.Total("orders"), first.Total("orders"));

  Ledger fresh;
  EXPECT_TRUE(fresh.Resume(::testing::TempDir() + "/no-such-ledger.json", "orders"));
  EXPECT_EQ(fresh.Total("orders"), PartitionLedger{});
  EXPECT_EQ(fresh.Resume(path, "payments").error().kind(), ErrorKind::kInvalidArgument);
}

TEST(Ledger, RefusesGarbageTruncationAndOversize) {
  Ledger good;
  good.RecordAcked("orders", 1, "v", true, "id");
  std::string text = good.ToJson("orders");
  std::vector<std::string> bad = {
      "", "not json", "[]", text.substr(0, text.size() / 2),
      R"({"topic":"orders"})",
      R"({"topic":"orders","partitions":{"x":{}}})",
      R"({"topic":"orders","partitions":{"-1":{}}})",
      R"({"topic":"orders","partitions":{"0":{"acked":1}}})",
      R"({"topic":"orders","partitions":{"0":{"acked":-1,"acked_valid":0,"acked_malformed":0,"failed":0,"value_hash_sum":"0000000000000000","event_id_hash_sum":"0000000000000000"}}})",
      R"({"topic":"orders","partitions":{"0":{"acked":1,"acked_valid":0,"acked_malformed":0,"failed":0,"value_hash_sum":"0000000000000000","event_id_hash_sum":"0000000000000000"}}})",
      R"({"topic":"orders","partitions":{"0":{"acked":0,"acked_valid":0,"acked_malformed":0,"failed":0,"value_hash_sum":"xyz","event_id_hash_sum":"0000000000000000"}}})",
  };
  for (size_t i = 0; i < bad.size(); ++i) {
    Ledger ledger;
    auto status = ledger.Resume(WriteText("bad-ledger.json", bad[i]), "orders");
    ASSERT_FALSE(status) << bad[i];
    EXPECT_EQ(status.error().kind(), ErrorKind::kCorruption) << bad[i];
    EXPECT_EQ(ledger.Total("orders"), PartitionLedger{});
  }
  Ledger ledger;
  auto oversize = ledger.Resume(WriteText("huge-ledger.json", std::string(17u << 20, ' ')), "orders");
  ASSERT_FALSE(oversize);
  EXPECT_EQ(oversize.error().kind(), ErrorKind::kCorruption);
}

TEST(Ledger, CountsEachTopicApartAndKeepsTheSingleTopicFormat) {
  Ledger single;
  single.RecordAcked("orders", 0, "v1", true, "id1");
  std::string single_json = single.ToJson("orders");
  EXPECT_FALSE(nlohmann::json::parse(single_json).contains("topics")) << single_json;

  Ledger ledger;
  ledger.RecordAcked("orders", 0, "v1", true, "id1");
  ledger.RecordAcked("payments", 0, "p1", true, "pay1");
  ledger.RecordAcked("payments", 2, "p2", true, "pay2");
  ledger.RecordFailed("shipments", 1);
  EXPECT_EQ(ledger.Total("orders"), single.Total("orders"));
  EXPECT_EQ(ledger.Total("payments").acked_valid, 2u);
  EXPECT_EQ(ledger.Total("payments").event_id_hash_sum, EventIdHash("pay1") + EventIdHash("pay2"));
  EXPECT_EQ(ledger.Total("shipments").failed, 1u);
  EXPECT_EQ(ledger.Topics(), (std::vector<std::string>{"orders", "payments", "shipments"}));

  // The main topic stays at the top level, where single-topic readers look for it.
  auto json = nlohmann::json::parse(ledger.ToJson("orders"));
  EXPECT_EQ(json["topic"], "orders");
  EXPECT_EQ(json["total"]["acked"], 1);
  EXPECT_EQ(json["topics"]["payments"]["total"]["acked"], 2);
  EXPECT_EQ(json["topics"]["payments"]["partitions"]["2"]["acked_valid"], 1);
  EXPECT_EQ(json["topics"]["shipments"]["partitions"]["1"]["failed"], 1);
  EXPECT_FALSE(json["topics"].contains("orders"));

  std::string path = ::testing::TempDir() + "/topics-ledger.json";
  ASSERT_TRUE(ledger.WriteFile(path, "orders"));
  Ledger resumed;
  ASSERT_TRUE(resumed.Resume(path, "orders"));
  for (const char* topic : {"orders", "payments", "shipments"}) {
    EXPECT_EQ(resumed.Snapshot(topic), ledger.Snapshot(topic)) << topic;
  }

  // A ledger written before there were more topics is continued, and gains them.
  std::string old_path = WriteText("old-ledger.json", single_json);
  Ledger continued;
  ASSERT_TRUE(continued.Resume(old_path, "orders"));
  EXPECT_EQ(continued.Total("orders"), single.Total("orders"));
  EXPECT_EQ(continued.Total("payments"), PartitionLedger{});
  continued.RecordAcked("payments", 0, "p1", true, "pay1");
  EXPECT_EQ(continued.Total("payments").acked, 1u);

  // A further topic's entry that is not one is refused, as a bad main entry is.
  std::string bad_topics[] = {
      R"({"topic":"orders","partitions":{},"topics":[]})",
      R"({"topic":"orders","partitions":{},"topics":{"payments":{}}})",
      R"({"topic":"orders","partitions":{},"topics":{"orders":{"partitions":{}}}})",
      R"({"topic":"orders","partitions":{},"topics":{"payments":{"partitions":{"0":{"acked":1}}}}})",
  };
  for (const std::string& text : bad_topics) {
    Ledger bad;
    auto status = bad.Resume(WriteText("bad-topics-ledger.json", text), "orders");
    ASSERT_FALSE(status) << text;
    EXPECT_EQ(status.error().kind(), ErrorKind::kCorruption) << text;
  }
}

}  // namespace
}  // namespace floe::generator
