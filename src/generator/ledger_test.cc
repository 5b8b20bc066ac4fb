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

}  // namespace
}  // namespace floe::generator
