#include "base/units.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(Units, Durations) {
  EXPECT_EQ(*ParseDurationMillis("500ms"), 500);
  EXPECT_EQ(*ParseDurationMillis("10s"), 10'000);
  EXPECT_EQ(*ParseDurationMillis("1.5h"), 5'400'000);
  EXPECT_EQ(*ParseDurationMillis("7d"), 7 * 86'400'000LL);
  EXPECT_EQ(*ParseDurationMillis(" 2 m"), 120'000);
  EXPECT_EQ(*ParseDurationMillis("3"), 3000) << "a bare number is seconds by default";
  EXPECT_EQ(*ParseDurationMillis("3", 1), 3) << "or what the caller says";
  EXPECT_EQ(*ParseDurationMillis("0"), 0);
  for (const char* bad : {"", "s", "-1s", "10 parsecs", "1e300d", "ms10", "nan"}) {
    auto parsed = ParseDurationMillis(bad);
    EXPECT_FALSE(parsed.has_value()) << bad;
  }
}

TEST(Units, DataSizesInTrinosUnits) {
  EXPECT_EQ(*ParseDataSize("268435456"), 268435456);
  EXPECT_EQ(*ParseDataSize("256MB"), int64_t{256} << 20);
  EXPECT_EQ(*ParseDataSize(" 256 MiB "), int64_t{256} << 20);
  EXPECT_EQ(*ParseDataSize("1GB"), int64_t{1} << 30);
  EXPECT_EQ(*ParseDataSize("1.5GB"), int64_t{3} << 29);
  EXPECT_EQ(*ParseDataSize("64kB"), 64 << 10);
  EXPECT_EQ(*ParseDataSize("0"), 0);
  for (const char* bad : {"", "MB", "-1MB", "12 parsecs", "99999999999999999999", "8589934592TB"}) {
    auto parsed = ParseDataSize(bad);
    EXPECT_FALSE(parsed.has_value()) << bad;
    if (!parsed) {
      EXPECT_EQ(parsed.error().kind(), ErrorKind::kInvalidArgument) << bad;
    }
  }
}

}  // namespace
}  // namespace floe
