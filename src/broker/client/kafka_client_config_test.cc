#include "broker/client/kafka_client_config.h"

#include <librdkafka/rdkafka.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace floe::broker {
namespace {

std::string Get(rd_kafka_conf_t* conf, const char* key) {
  char value[512];
  size_t size = sizeof(value);
  if (rd_kafka_conf_get(conf, key, value, &size) != RD_KAFKA_CONF_OK) return "<unset>";
  return value;
}

TEST(KafkaProperties, ParsesKeyValueLinesWithCommentsAndBlanks) {
  auto settings = ParseKafkaProperties(
      "# the pipeline's client\n\nsecurity.protocol = SASL_SSL\r\nsasl.password=a=b c\n  sasl.mechanism=SCRAM-SHA-256",
      "client.properties");
  ASSERT_TRUE(settings) << settings.error().ToString();
  KafkaSettings expected = {{"security.protocol", "SASL_SSL"}, {"sasl.password", "a=b c"},
                            {"sasl.mechanism", "SCRAM-SHA-256"}};
  EXPECT_EQ(*settings, expected);
}

TEST(KafkaProperties, RefusesGarbageNamingTheLine) {
  auto no_equals = ParseKafkaProperties("a=1\nthis is not a setting\n", "f.properties");
  ASSERT_FALSE(no_equals);
  EXPECT_NE(no_equals.error().message().find("f.properties:2"), std::string::npos) << no_equals.error().ToString();
  EXPECT_FALSE(ParseKafkaProperties("=value\n", "f"));
  EXPECT_FALSE(ParseKafkaProperties(std::string("a=\0b\n", 5), "f"));
  // Truncated mid-line is still a line: the key keeps what was there.
  auto truncated = ParseKafkaProperties("sasl.username=ali", "f");
  ASSERT_TRUE(truncated);
  EXPECT_EQ(truncated->at(0).second, "ali");
  EXPECT_FALSE(ParseKafkaProperties(std::string(2 << 20, 'x'), "f"));
}

class KafkaConfFromEnvironment : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() / fmt::format("floe-kafka-client-{}.properties", ::getpid());
  }
  void TearDown() override {
    ::unsetenv(std::string(kKafkaClientConfigVariable).c_str());
    std::filesystem::remove(path_);
  }
  void Use(const std::string& text) {
    std::ofstream(path_) << text;
    ::setenv(std::string(kKafkaClientConfigVariable).c_str(), path_.c_str(), 1);
  }
  std::filesystem::path path_;
};

TEST_F(KafkaConfFromEnvironment, TheFileSitsBetweenDefaultsAndOverrides) {
  Use("client.id=from-file\nsasl.username=alice\nfetch.wait.max.ms=7\n");
  auto conf = MakeKafkaConf({{"client.id", "default"}, {"fetch.wait.max.ms", "100"}, {"log_level", "3"}},
                            {{"fetch.wait.max.ms", "50"}}, "test consumer");
  ASSERT_TRUE(conf) << conf.error().ToString();
  EXPECT_EQ(Get(*conf, "client.id"), "from-file");
  EXPECT_EQ(Get(*conf, "sasl.username"), "alice");
  EXPECT_EQ(Get(*conf, "fetch.wait.max.ms"), "50");
  EXPECT_EQ(Get(*conf, "log_level"), "3");
  rd_kafka_conf_destroy(*conf);
}

TEST_F(KafkaConfFromEnvironment, AnUnknownSettingInTheFileIsNamedWithoutItsValue) {
  Use("sasl.password=hunter2\nno.such.setting=hunter2\n");
  auto conf = MakeKafkaConf({}, {}, "test producer");
  ASSERT_FALSE(conf);
  std::string message = conf.error().ToString();
  EXPECT_NE(message.find("no.such.setting"), std::string::npos) << message;
  EXPECT_NE(message.find("FLOE_KAFKA_CLIENT_CONFIG"), std::string::npos) << message;
  EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
}

TEST_F(KafkaConfFromEnvironment, AMissingFileIsAnError) {
  ::setenv(std::string(kKafkaClientConfigVariable).c_str(), "/nonexistent/client.properties", 1);
  auto conf = MakeKafkaConf({}, {}, "test");
  ASSERT_FALSE(conf);
  EXPECT_NE(conf.error().ToString().find("/nonexistent/client.properties"), std::string::npos);
}

TEST_F(KafkaConfFromEnvironment, UnsetMeansJustTheCallersSettings) {
  ::unsetenv(std::string(kKafkaClientConfigVariable).c_str());
  auto conf = MakeKafkaConf({{"client.id", "mine"}}, {}, "test");
  ASSERT_TRUE(conf);
  EXPECT_EQ(Get(*conf, "client.id"), "mine");
  rd_kafka_conf_destroy(*conf);
}

}  // namespace
}  // namespace floe::broker
