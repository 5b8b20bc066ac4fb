#include "base/config.h"

#include <cstdlib>

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(Config, EnvironmentOverridesFileAndSectionBeatsTopLevel) {
  auto config = Config::FromTomlText(R"(
data = "/top"
[broker]
listen = "127.0.0.1:9092"
log-level = "debug"
)",
                                     "floe.toml");
  ASSERT_TRUE(config.has_value()) << config.error().ToString();
  EXPECT_EQ(config->Get("broker", "listen"), "127.0.0.1:9092");
  EXPECT_EQ(config->Get("broker", "data"), "/top");
  EXPECT_EQ(config->Get("broker", "log-level"), "debug");
  EXPECT_EQ(config->Get("catalog", "listen"), std::nullopt);

  ::setenv("FLOE_BROKER_LISTEN", "0.0.0.0:1", 1);
  EXPECT_EQ(config->Get("broker", "listen"), "0.0.0.0:1");
  ::unsetenv("FLOE_BROKER_LISTEN");
  ::setenv("FLOE_DATA", "/env", 1);
  EXPECT_EQ(config->Get("broker", "data"), "/env");
  ::unsetenv("FLOE_DATA");
}

TEST(Config, EnvironmentNames) {
  EXPECT_EQ(Config::EnvironmentName("broker", "listen"), "FLOE_BROKER_LISTEN");
  EXPECT_EQ(Config::EnvironmentName("query", "pg-listen"), "FLOE_QUERY_PG_LISTEN");
  EXPECT_EQ(Config::EnvironmentName("", "data"), "FLOE_DATA");
}

TEST(Config, ValuesOfEveryScalarType) {
  auto config = Config::FromTomlText("[up]\ntraffic = 500\nratio = 0.5\nprocesses = true\n", "t.toml");
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->Get("up", "traffic"), "500");
  EXPECT_EQ(config->Get("up", "ratio"), "0.5");
  EXPECT_EQ(config->Get("up", "processes"), "true");
}

TEST(Config, SyntaxErrorsNameFileLineAndColumn) {
  auto config = Config::FromTomlText("[broker]\nlisten = \n", "floe.toml");
  ASSERT_FALSE(config.has_value());
  EXPECT_EQ(config.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(config.error().message().find("floe.toml:2:"), std::string::npos) << config.error().message();
}

TEST(Config, GarbageTruncationAndOversizeInput) {
  EXPECT_FALSE(Config::FromTomlText(std::string("\x00\xff\xfe garbage", 11), "g.toml").has_value());
  EXPECT_FALSE(Config::FromTomlText("[broker", "t.toml").has_value());
  std::string huge(1 << 20, '[');
  EXPECT_FALSE(Config::FromTomlText(huge, "big.toml").has_value());
}

TEST(Config, MissingFileIsAnErrorOnlyWhenRequired) {
  EXPECT_TRUE(Config::Load("/nonexistent/floe.toml", false).has_value());
  auto r = Config::Load("/nonexistent/floe.toml", true);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind(), ErrorKind::kNotFound);
}

}  // namespace
}  // namespace floe
