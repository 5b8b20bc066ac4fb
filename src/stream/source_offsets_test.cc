#include "stream/source_offsets.h"

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

}  // namespace
}  // namespace floe::stream
