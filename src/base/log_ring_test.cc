// The in-memory log ring: lines by component, newest last, bounded in count and length.
#include "base/log_ring.h"

#include <gtest/gtest.h>

#include <string>

#include "base/logging.h"

namespace floe {
namespace {

TEST(LogRingTest, KeepsEachComponentsLinesInOrder) {
  Logger("ring-a")->info("first {}", 1);
  Logger("ring-b")->warn("other");
  Logger("ring-a")->error("second");
  auto lines = RecentLogLines({"ring-a"}, 10);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].text, "first 1");
  EXPECT_EQ(lines[0].level, "info");
  EXPECT_EQ(lines[0].component, "ring-a");
  EXPECT_EQ(lines[1].text, "second");
  EXPECT_EQ(lines[1].level, "error");
  EXPECT_GT(lines[1].time_ms, 0);
  EXPECT_LE(lines[0].time_ms, lines[1].time_ms);
  auto both = RecentLogLines({"ring-a", "ring-b"}, 10);
  ASSERT_EQ(both.size(), 3u);
  EXPECT_EQ(both[1].text, "other");
  EXPECT_EQ(RecentLogLines({"ring-a", "ring-b"}, 1).back().text, "second");  // The newest.
  EXPECT_TRUE(RecentLogLines({"ring-nobody"}, 10).empty());
}

TEST(LogRingTest, BoundedInLinesAndLength) {
  Logger("ring-long")->info("{}", std::string(10 * kLogRingMaxTextBytes, 'x'));
  auto long_line = RecentLogLines({"ring-long"}, 1);
  ASSERT_EQ(long_line.size(), 1u);
  EXPECT_EQ(long_line[0].text.size(), kLogRingMaxTextBytes);
  auto many = Logger("ring-many");
  many->sinks().erase(many->sinks().begin());  // Not 4,106 lines on stderr: only the ring stays.
  ASSERT_EQ(many->sinks().size(), 1u);
  for (size_t i = 0; i < kLogRingLines + 10; ++i) many->info("line {}", i);
  auto lines = RecentLogLines({"ring-many", "ring-long"}, kLogRingLines * 2);
  ASSERT_EQ(lines.size(), kLogRingLines);  // The long line and the ten oldest went first.
  EXPECT_EQ(lines.front().text, "line 10");
  EXPECT_EQ(lines.back().text, fmt::format("line {}", kLogRingLines + 9));
}

}  // namespace
}  // namespace floe
