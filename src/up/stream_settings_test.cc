// The playground's stream settings: what a patch may change, what it may not, and what reaches
// the job (in process) and the `floe stream` child (with --processes).
#include "up/stream_settings.h"

#include <gtest/gtest.h>

namespace floe::up {
namespace {

using nlohmann::json;

TEST(StreamSettingsTest, APatchChangesOnlyTheKeysItGives) {
  StreamSettings current;
  auto next = ApplyStreamSettingsPatch(current, json{{"trigger_ms", 1000}, {"compaction", false}});
  ASSERT_TRUE(next) << next.error().ToString();
  EXPECT_EQ(next->trigger_millis, 1000);
  EXPECT_FALSE(next->compaction);
  EXPECT_EQ(next->target_file_size_mb, current.target_file_size_mb);
  EXPECT_EQ(next->compaction_target_mb, current.compaction_target_mb);
  EXPECT_EQ(next->maintenance_interval_millis, current.maintenance_interval_millis);
  EXPECT_EQ(next->workers, 1);
  auto two = ApplyStreamSettingsPatch(current, json{{"workers", 2}});
  ASSERT_TRUE(two) << two.error().ToString();
  EXPECT_EQ(two->workers, 2);
  EXPECT_EQ(StreamSettingsJson(*two)["workers"], 2);
  // Whole numbers written as floats (what a browser's JSON.stringify may send) are whole numbers.
  auto floats = ApplyStreamSettingsPatch(current, json::parse(R"({"target_file_size_mb": 64.0})"));
  ASSERT_TRUE(floats) << floats.error().ToString();
  EXPECT_EQ(floats->target_file_size_mb, 64);
}

TEST(StreamSettingsTest, RefusesUnknownKeysWrongTypesAndValuesOutOfBounds) {
  StreamSettings current;
  for (const char* bad :
       {R"({})", R"([])", R"({"trigger": 1000})", R"({"trigger_ms": "1s"})", R"({"trigger_ms": 1.5})",
        R"({"trigger_ms": 99})", R"({"trigger_ms": 600001})", R"({"compaction": "on"})", R"({"compaction": 1})",
        R"({"target_file_size_mb": 0})", R"({"target_file_size_mb": 1025})", R"({"compaction_target_mb": -1})",
        R"({"maintenance_interval_ms": 999})", R"({"maintenance_interval_ms": 1e300})",
        R"({"trigger_ms": 1000, "files": 3})", R"({"workers": 0})", R"({"workers": 5})", R"({"workers": "2"})"}) {
    auto next = ApplyStreamSettingsPatch(current, json::parse(bad));
    ASSERT_FALSE(next) << bad;
    EXPECT_EQ(next.error().kind(), ErrorKind::kInvalidArgument) << bad;
  }
  auto out_of_bounds = ApplyStreamSettingsPatch(current, json{{"trigger_ms", 50}});
  ASSERT_FALSE(out_of_bounds);
  EXPECT_NE(out_of_bounds.error().message().find("trigger_ms must be between 100 and 600000, not 50"),
            std::string::npos)
      << out_of_bounds.error().message();
}

TEST(StreamSettingsTest, APartitionSpecIsCheckedAgainstTheOrdersColumns) {
  StreamSettings current;
  auto daily = ApplyStreamSettingsPatch(current, json{{"partition", {"day(ts)", "region"}}});
  ASSERT_TRUE(daily) << daily.error().ToString();
  EXPECT_EQ(daily->partition, (std::vector<std::string>{"day(ts)", "region"}));
  auto none = ApplyStreamSettingsPatch(current, json{{"partition", json::array()}});
  ASSERT_TRUE(none) << none.error().ToString();
  EXPECT_TRUE(none->partition.empty());
  EXPECT_EQ(PartitionText(*none), "nothing");
  for (const char* bad :
       {R"j({"partition": "day(ts)"})j", R"j({"partition": [1]})j", R"j({"partition": ["hour(nope)"]})j",
        R"j({"partition": ["fortnight(ts)"]})j", R"j({"partition": ["hour(ts)", "hour(ts)"]})j",
        R"j({"partition": ["region", "type", "currency", "day(ts)", "bucket(4, order_id)"]})j"}) {
    auto next = ApplyStreamSettingsPatch(current, json::parse(bad));
    ASSERT_FALSE(next) << bad;
    EXPECT_EQ(next.error().kind(), ErrorKind::kInvalidArgument) << bad << ": " << next.error().ToString();
  }
}

TEST(StreamSettingsTest, TheBoundsThemselvesAreAccepted) {
  StreamSettings low{.trigger_millis = kMinTriggerMillis,
                     .target_file_size_mb = kMinFileSizeMb,
                     .compaction = false,
                     .compaction_target_mb = kMinFileSizeMb,
                     .maintenance_interval_millis = kMinMaintenanceIntervalMillis,
                     .workers = 1};
  StreamSettings high{.trigger_millis = kMaxTriggerMillis,
                      .target_file_size_mb = kMaxFileSizeMb,
                      .compaction = true,
                      .compaction_target_mb = kMaxFileSizeMb,
                      .maintenance_interval_millis = kMaxMaintenanceIntervalMillis,
                      .partition = {"hour(ts)"},
                      .workers = kMaxStreamWorkers};
  EXPECT_TRUE(ValidateStreamSettings(low));
  EXPECT_TRUE(ValidateStreamSettings(high));
  EXPECT_TRUE(ValidateStreamSettings(StreamSettings{}));  // floe up's defaults.
}

TEST(StreamSettingsTest, ReachTheJobAndTheChildAlike) {
  StreamSettings settings{.trigger_millis = 1500,
                          .target_file_size_mb = 8,
                          .compaction = false,
                          .compaction_target_mb = 32,
                          .maintenance_interval_millis = 20'000};
  stream::StreamConfig config;
  ApplyStreamSettings(settings, &config);
  EXPECT_EQ(config.trigger.interval_millis, 1500);
  EXPECT_EQ(config.target_file_size_bytes, int64_t{8} << 20);
  EXPECT_EQ(config.compaction_target_file_size_bytes, int64_t{32} << 20);
  EXPECT_FALSE(config.maintenance.compact);
  EXPECT_EQ(config.maintenance.interval_ms, 20'000);
  EXPECT_EQ(config.partition, (std::vector<std::string>{"hour(ts)"}));
  EXPECT_TRUE(config.evolve_partition_spec);

  std::vector<std::pair<std::string, std::string>> expected = {{"--trigger", "1500ms"},
                                                               {"--target-file-size-mb", "8"},
                                                               {"--compaction", "off"},
                                                               {"--compaction-target-mb", "32"},
                                                               {"--maintenance-interval", "20000ms"}};
  EXPECT_EQ(StreamSettingsArguments(settings), expected);
  EXPECT_EQ(StreamSettingsJson(settings), (json{{"trigger_ms", 1500},
                                                {"target_file_size_mb", 8},
                                                {"compaction", false},
                                                {"compaction_target_mb", 32},
                                                {"maintenance_interval_ms", 20'000},
                                                {"workers", 1},
                                                {"partition", json::array({"hour(ts)"})}}));
}

}  // namespace
}  // namespace floe::up
