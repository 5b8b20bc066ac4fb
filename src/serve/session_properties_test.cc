#include "serve/session_properties.h"

#include <gtest/gtest.h>

namespace floe::serve {
namespace {

TEST(SessionProperties, FreshnessIsCheckedWhenSetAndReachesTheEngine) {
  EXPECT_TRUE(CheckSessionProperty("freshness", "snapshot").has_value());
  EXPECT_TRUE(CheckSessionProperty("FLOE.FRESHNESS", "LIVE").has_value());
  auto bad = CheckSessionProperty("freshness", "recent");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("'live' or 'snapshot'"), std::string::npos) << bad.error().message();
  EXPECT_FALSE(CheckSessionProperty("floe.live_tail_max_bytes", "lots").has_value());
  EXPECT_TRUE(CheckSessionProperty("application_name", "anything at all").has_value());

  SessionState session;
  sql::QueryOptions defaults = QueryOptionsFor(session, nullptr);
  EXPECT_EQ(defaults.freshness, sql::Freshness::kLive);
  session.properties["floe.freshness"] = "snapshot";
  session.properties["live_tail_max_bytes"] = "1MB";
  std::atomic<bool> cancel{false};
  sql::QueryOptions options = QueryOptionsFor(session, &cancel);
  EXPECT_EQ(options.freshness, sql::Freshness::kSnapshot);
  EXPECT_EQ(options.live_tail_max_bytes, 1 << 20);
  EXPECT_EQ(options.cancel, &cancel);
}

}  // namespace
}  // namespace floe::serve
