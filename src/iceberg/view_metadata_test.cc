#include "iceberg/view_metadata.h"

#include <gtest/gtest.h>

#include "iceberg/table_metadata.h"
#include "iceberg/view_update.h"

namespace floe::iceberg {
namespace {

using Json = nlohmann::json;

// The example of format/view-spec.md's appendix, with members the spec does not define added
// at every level to check they survive.
constexpr std::string_view kSpecExample = R"({
  "view-uuid": "fa6506c3-7681-40c8-86dc-e36561f83385",
  "format-version": 1,
  "location": "s3://bucket/warehouse/default.db/event_agg",
  "current-version-id": 1,
  "properties": {"comment": "Daily event counts"},
  "versions": [{
    "version-id": 1,
    "timestamp-ms": 1573518431292,
    "schema-id": 1,
    "default-catalog": "prod",
    "default-namespace": ["default"],
    "summary": {"engine-name": "Spark", "engine-version": "3.3.2"},
    "representations": [{
      "type": "sql",
      "sql": "SELECT\n    COUNT(1), CAST(event_ts AS DATE)\nFROM events\nGROUP BY 2",
      "dialect": "spark",
      "x-rep": 1
    }, {"type": "substrait", "plan": "AAAA"}],
    "x-version": [1, 2]
  }],
  "version-log": [{"timestamp-ms": 1573518431292, "version-id": 1}],
  "schemas": [{
    "schema-id": 1,
    "type": "struct",
    "fields": [
      {"id": 1, "name": "event_count", "required": false, "type": "int", "doc": "Count of events"},
      {"id": 2, "name": "event_date", "required": false, "type": "date"}]
  }],
  "x-top": {"kept": true}
})";

TEST(ViewMetadataTest, ReadsTheSpecExampleAndKeepsUnknownMembers) {
  auto metadata = ViewMetadataFromJson(kSpecExample);
  ASSERT_TRUE(metadata) << metadata.error().message();
  EXPECT_EQ(metadata->view_uuid, "fa6506c3-7681-40c8-86dc-e36561f83385");
  EXPECT_EQ(metadata->current_version_id, 1);
  const ViewVersion& version = metadata->CurrentVersion();
  EXPECT_EQ(version.default_namespace, std::vector<std::string>{"default"});
  EXPECT_EQ(version.default_catalog, "prod");
  ASSERT_NE(version.SqlFor("SPARK"), nullptr);
  EXPECT_EQ(version.SqlFor("trino"), nullptr);
  EXPECT_EQ(metadata->CurrentSchema().fields().size(), 2u);

  Json written = ViewMetadataToJsonValue(*metadata);
  Json original = Json::parse(kSpecExample);
  EXPECT_EQ(written["x-top"], original["x-top"]);
  EXPECT_EQ(written["versions"][0]["x-version"], original["versions"][0]["x-version"]);
  EXPECT_EQ(written["versions"][0]["representations"][0]["x-rep"], 1);
  EXPECT_EQ(written["versions"][0]["representations"][1], original["versions"][0]["representations"][1]);
  EXPECT_EQ(written["properties"], original["properties"]);
  // A second round trip changes nothing.
  auto again = ViewMetadataFromJson(ViewMetadataToJson(*metadata));
  ASSERT_TRUE(again) << again.error().message();
  EXPECT_EQ(ViewMetadataToJsonValue(*again), written);
}

TEST(ViewMetadataTest, ReadsGzip) {
  auto compressed = GzipCompress(kSpecExample);
  ASSERT_TRUE(compressed);
  auto metadata = ViewMetadataFromJson(*compressed);
  ASSERT_TRUE(metadata) << metadata.error().message();
  EXPECT_EQ(metadata->location, "s3://bucket/warehouse/default.db/event_agg");
}

TEST(ViewMetadataTest, RefusesMalformedInput) {
  auto message = [](std::string_view text) {
    auto r = ViewMetadataFromJson(text, "v.metadata.json");
    EXPECT_FALSE(r) << text.substr(0, 40);
    return r ? std::string() : r.error().message();
  };
  EXPECT_NE(message("garbage").find("v.metadata.json: invalid JSON"), std::string::npos);
  EXPECT_NE(message(kSpecExample.substr(0, kSpecExample.size() / 2)).find("invalid JSON"), std::string::npos);
  EXPECT_NE(message(std::string(100000, '[') + std::string(100000, ']')).find("nest"), std::string::npos);
  std::string huge = "{\"x\":\"" + std::string(kMaxViewMetadataBytes, 'a') + "\"}";
  EXPECT_NE(message(huge).find("more than"), std::string::npos);
  EXPECT_NE(message("[]").find("expected a JSON object"), std::string::npos);

  Json spec = Json::parse(kSpecExample);
  Json bad = spec;
  bad.erase("view-uuid");
  EXPECT_NE(message(bad.dump()).find("'view-uuid'"), std::string::npos);
  bad = spec;
  bad["format-version"] = 2;
  EXPECT_NE(message(bad.dump()).find("format-version 2"), std::string::npos);
  bad = spec;
  bad["current-version-id"] = 7;
  EXPECT_NE(message(bad.dump()).find("current-version-id 7"), std::string::npos);
  bad = spec;
  bad["versions"][0]["schema-id"] = 9;
  EXPECT_NE(message(bad.dump()).find("schema 9"), std::string::npos);
  bad = spec;
  bad["versions"][0]["representations"][1] = bad["versions"][0]["representations"][0];
  EXPECT_NE(message(bad.dump()).find("two SQL representations"), std::string::npos);
  bad = spec;
  bad["versions"][0]["default-namespace"] = "default";
  EXPECT_NE(message(bad.dump()).find("default-namespace"), std::string::npos);
  bad = spec;
  bad["versions"][0]["representations"][0].erase("sql");
  EXPECT_NE(message(bad.dump()).find("'sql'"), std::string::npos);
}

ViewVersion TrinoVersion(std::string sql) {
  ViewVersion version;
  version.version_id = 1;
  version.timestamp_ms = 1000;
  version.schema_id = 0;
  version.summary = {{"engine-name", "floe"}};
  version.representations.push_back({"sql", std::move(sql), "trino"});
  version.default_namespace = {"db"};
  return version;
}

Schema OneColumn(std::string name, TypeId type) {
  return Schema(0, {NestedField{1, std::move(name), false, Type::Primitive(type)}});
}

TEST(ViewUpdateTest, CreatesReplacesAndReusesVersions) {
  auto created = ApplyViewUpdates(std::nullopt,
                                  ViewCreationUpdates("u-1", "file:///w/db/v", OneColumn("a", TypeId::kInt),
                                                      TrinoVersion("SELECT 1 AS a"), {{"comment", "c"}}),
                                  5000);
  ASSERT_TRUE(created) << created.error().message();
  EXPECT_EQ(created->view_uuid, "u-1");
  EXPECT_EQ(created->current_version_id, 1);
  ASSERT_EQ(created->version_log.size(), 1u);
  EXPECT_EQ(created->version_log[0].timestamp_ms, 1000);
  EXPECT_EQ(created->properties.at("comment"), "c");

  ViewVersion second = TrinoVersion("SELECT 'x' AS b");
  second.timestamp_ms = 2000;
  auto replaced = ApplyViewUpdates(*created, ViewReplaceUpdates(OneColumn("b", TypeId::kString), second), 6000);
  ASSERT_TRUE(replaced) << replaced.error().message();
  EXPECT_EQ(replaced->current_version_id, 2);
  EXPECT_EQ(replaced->CurrentSchema().schema_id(), 1);
  EXPECT_EQ(replaced->CurrentVersion().SqlFor("trino")->sql, "SELECT 'x' AS b");
  EXPECT_EQ(replaced->version_log.size(), 2u);

  // Going back to the first query reuses version 1 and schema 0 and logs the switch now.
  auto back = ApplyViewUpdates(*replaced,
                               ViewReplaceUpdates(OneColumn("a", TypeId::kInt), TrinoVersion("SELECT 1 AS a")), 7000);
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(back->current_version_id, 1);
  EXPECT_EQ(back->versions.size(), 2u);
  EXPECT_EQ(back->schemas.size(), 2u);
  EXPECT_EQ(back->version_log.back().timestamp_ms, 7000);

  // The uuid requirement and the update checks.
  EXPECT_TRUE(CheckViewRequirement(*back, {"u-1"}));
  auto stale = CheckViewRequirement(*back, {"u-2"});
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind(), ErrorKind::kConflict);
  EXPECT_FALSE(ApplyViewUpdates(*back, {{"assign-uuid", {{"action", "assign-uuid"}, {"uuid", "u-9"}}}}, 0));
  EXPECT_FALSE(ViewUpdateFromJson(Json{{"action", "add-snapshot"}}));
  EXPECT_FALSE(ViewUpdateFromJson(Json{{"action", "set-properties"}, {"updates", {{"a", 1}}}}));
  auto unknown_version = ApplyViewUpdates(
      *back, {*ViewUpdateFromJson(Json{{"action", "set-current-view-version"}, {"view-version-id", 42}})}, 0);
  ASSERT_FALSE(unknown_version);
  EXPECT_NE(unknown_version.error().message().find("version 42 does not exist"), std::string::npos);
  auto upgraded = ApplyViewUpdates(
      *back, {*ViewUpdateFromJson(Json{{"action", "upgrade-format-version"}, {"format-version", 2}})}, 0);
  EXPECT_FALSE(upgraded);
}

TEST(ViewUpdateTest, ExpiresOldVersionsButNeverTheCurrent) {
  auto metadata =
      ApplyViewUpdates(std::nullopt,
                       ViewCreationUpdates("u", "file:///w/v", OneColumn("a", TypeId::kInt),
                                           TrinoVersion("SELECT 0 AS a"), {{"version.history.num-entries", "3"}}),
                       0);
  ASSERT_TRUE(metadata) << metadata.error().message();
  for (int i = 1; i <= 5; ++i) {
    metadata = ApplyViewUpdates(
        *metadata, ViewReplaceUpdates(OneColumn("a", TypeId::kInt), TrinoVersion(fmt::format("SELECT {} AS a", i))), i);
    ASSERT_TRUE(metadata) << metadata.error().message();
  }
  EXPECT_EQ(metadata->versions.size(), 3u);
  EXPECT_EQ(metadata->current_version_id, 6);
  EXPECT_EQ(metadata->CurrentVersion().SqlFor("trino")->sql, "SELECT 5 AS a");
  for (const ViewVersionLogEntry& entry : metadata->version_log) {
    EXPECT_NE(metadata->VersionById(entry.version_id), nullptr);
  }
}

}  // namespace
}  // namespace floe::iceberg
