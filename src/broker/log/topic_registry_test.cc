#include "broker/log/topic_registry.h"

#include <unistd.h>

#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/clock.h"

namespace floe::broker {
namespace {

// CreatePartitions: a topic grows, never shrinks, and a restart sees the new count.
TEST(TopicRegistryTest, AddPartitionsGrowsATopicDurably) {
  auto dir = std::filesystem::temp_directory_path() / fmt::format("floe-topics-test-{}", ::getpid());
  std::filesystem::remove_all(dir);
  ManualClock clock{1'000'000};
  {
    auto topics = TopicRegistry::Open(dir.string(), LogConfig{}, clock, nullptr);
    ASSERT_TRUE(topics.has_value()) << topics.error().ToString();
    ASSERT_TRUE((*topics)->Create("orders", 2, {}).has_value());
    EXPECT_EQ((*topics)->AddPartitions("orders", 2).error().kind(), ErrorKind::kInvalidArgument);
    EXPECT_EQ((*topics)->AddPartitions("orders", 1).error().kind(), ErrorKind::kInvalidArgument);
    EXPECT_EQ((*topics)->AddPartitions("missing", 3).error().kind(), ErrorKind::kNotFound);
    ASSERT_TRUE((*topics)->AddPartitions("orders", 5).has_value());
    EXPECT_EQ((*topics)->Find("orders")->partitions.size(), 5u);
  }
  auto reopened = TopicRegistry::Open(dir.string(), LogConfig{}, clock, nullptr);
  ASSERT_TRUE(reopened.has_value());
  EXPECT_EQ((*reopened)->Find("orders")->partitions.size(), 5u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace floe::broker
