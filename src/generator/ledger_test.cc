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
  a.RecordAcked(0, "v1", true, "id1");
  a.RecordAcked(0, "v2", false, "");
  a.RecordAcked(1, "v3", true, "id3");
  b.RecordAcked(1, "v3", true, "id3");
  b.RecordAcked(0, "v2", false, "");
  b.RecordAcked(0, "v1", true, "id1");
  EXPECT_EQ(a.Snapshot(), b.Snapshot());
  PartitionLedger total = a.Total();
  EXPECT_EQ(total.acked, 3u);
  EXPECT_EQ(total.acked_valid, 2u);
  EXPECT_EQ(total.acked_malformed, 1u);
  EXPECT_EQ(total.event_id_hash_sum, EventIdHash("id1") + EventIdHash("id3"));
}

TEST(Ledger, DifferentContentGivesDifferentSums) {
  Ledger a, b;
  a.RecordAcked(0, "v1", true, "id1");
  b.RecordAcked(0, "v1", true, "id2");
  EXPECT_NE(a.Total().event_id_hash_sum, b.Total().event_id_hash_sum);
}

TEST(Ledger, WritesParsableJsonAtomically) {
  Ledger ledger;
  ledger.RecordAcked(2, "value", true, "abc");
  ledger.RecordFailed(2);
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
  first.RecordAcked(0, "v1", true, "id1");
  first.RecordAcked(3, "v2", false, "");
  first.RecordFailed(3);
  std::string path = ::testing::TempDir() + "/resume.json";
  ASSERT_TRUE(first.WriteFile(path, "orders"));

  Ledger second;
  ASSERT_TRUE(second.Resume(path, "orders"));
  EXPECT_EQ(second.Snapshot(), first.Snapshot());
  second.RecordAcked(0, "v3", true, "id3");
  first.RecordAcked(0, "v3", true, "id3");
  EXPECT_EQ(second.Total(), first.Total());

  Ledger fresh;
  EXPECT_TRUE(fresh.Resume(::testing::TempDir() + "/no-such-ledger.json", "orders"));
  EXPECT_EQ(fresh.Total(), PartitionLedger{});
  EXPECT_EQ(fresh.Resume(path, "payments").error().kind(), ErrorKind::kInvalidArgument);
}

TEST(Ledger, RefusesGarbageTruncationAndOversize) {
  Ledger good;
  good.RecordAcked(1, "v", true, "id");
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
    EXPECT_EQ(ledger.Total(), PartitionLedger{});
  }
  Ledger ledger;
  auto oversize = ledger.Resume(WriteText("huge-ledger.json", std::string(17u << 20, ' ')), "orders");
  ASSERT_FALSE(oversize);
  EXPECT_EQ(oversize.error().kind(), ErrorKind::kCorruption);
}

}  // namespace
}  // namespace floe::generator
