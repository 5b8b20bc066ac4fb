#include "stream/source/source_offsets.h"

#include <gtest/gtest.h>

namespace floe::stream {
namespace {

TEST(SourceOffsets, RoundTripsThroughJson) {
  SourceOffsets offsets = {{0, 1200}, {1, 0}, {17, 1LL << 40}};
  EXPECT_EQ(OffsetsToJson(offsets), R"({"0":1200,"1":0,"17":1099511627776})");
  auto parsed = OffsetsFromJson(OffsetsToJson(offsets));
  ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
  EXPECT_EQ(*parsed, offsets);
  EXPECT_EQ(OffsetsFromJson("{}")->size(), 0u);
  EXPECT_EQ(OffsetsSummaryKey("orders"), "floe.offsets.orders");
}

TEST(SourceOffsets, RejectsGarbageTruncationAndOversize) {
  for (const char* bad : {"", "{", "{\"0\":", "[1,2]", "{\"x\":1}", "{\"-1\":5}", "{\"0\":-5}", "{\"0\":1.5}",
                          "{\"0\":\"12\"}", "{\"0x1\":1}", "\xff\xfe", "{\"99999999999\":1}"}) {
    auto r = OffsetsFromJson(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().kind(), ErrorKind::kCorruption) << bad;
  }
  std::string huge = "{\"0\":" + std::string(2 << 20, '1') + "}";
  EXPECT_FALSE(OffsetsFromJson(huge).has_value());
}

TEST(SourceOffsets, MergeReplacesOnlyUpdatedPartitions) {
  EXPECT_EQ(MergeOffsets({{0, 5}, {1, 7}}, {{1, 9}, {2, 1}}), (SourceOffsets{{0, 5}, {1, 9}, {2, 1}}));
}

TEST(SourceOffsets, AncestryLooksPastSnapshotsWithoutOffsets) {
  iceberg::TableMetadata m;
  auto snapshot = [&](int64_t id, std::optional<int64_t> parent, std::map<std::string, std::string> summary) {
    iceberg::Snapshot s;
    s.snapshot_id = id;
    s.parent_snapshot_id = parent;
    s.summary = std::move(summary);
    m.snapshots.push_back(s);
  };
  snapshot(1, std::nullopt, {{"floe.offsets.orders", R"({"0":10})"}});
  snapshot(2, 1, {{"operation", "replace"}});
  snapshot(3, 2, {{"operation", "replace"}, {"floe.offsets.other", R"({"0":99})"}});
  snapshot(4, 99, {{"operation", "replace"}});  // Its parent expired.
  auto found = OffsetsInAncestryOf(m, m.SnapshotById(3), "orders");
  ASSERT_TRUE(found.has_value()) << found.error().ToString();
  EXPECT_EQ(*found, (SourceOffsets{{0, 10}}));
  EXPECT_TRUE(OffsetsInAncestryOf(m, m.SnapshotById(4), "orders")->empty());
  EXPECT_TRUE(OffsetsInAncestryOf(m, nullptr, "orders")->empty());
}

}  // namespace
}  // namespace floe::stream
