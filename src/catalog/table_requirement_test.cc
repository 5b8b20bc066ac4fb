#include "catalog/table_requirement.h"

#include <gtest/gtest.h>

#include "catalog/table_update.h"

namespace floe::catalog {
namespace {

nlohmann::json Metadata() {
  return nlohmann::json::parse(R"({"table-uuid":"9C12D441-03FE-4693-9A96-A0705DDF69C1","current-schema-id":1,
    "last-column-id":7,"last-partition-id":1000,"default-spec-id":0,"default-sort-order-id":0,
    "current-snapshot-id":5,"refs":{"main":{"snapshot-id":5,"type":"branch"},"tag1":{"snapshot-id":3,"type":"tag"}}})");
}

Status CheckJson(const char* json, const nlohmann::json* metadata) {
  FLOE_ASSIGN_OR_RETURN(auto requirement, TableRequirement::FromJson(nlohmann::json::parse(json)));
  return requirement.Check(metadata);
}

TEST(TableRequirementTest, HoldsOrConflicts) {
  nlohmann::json m = Metadata();
  EXPECT_TRUE(CheckJson(R"({"type":"assert-table-uuid","uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1"})", &m));
  EXPECT_EQ(CheckJson(R"({"type":"assert-table-uuid","uuid":"x"})", &m).error().kind(), ErrorKind::kConflict);
  EXPECT_TRUE(CheckJson(R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":5})", &m));
  EXPECT_FALSE(CheckJson(R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":4})", &m));
  // A null snapshot id means the ref must not exist (the Nessie data-loss case).
  EXPECT_FALSE(CheckJson(R"({"type":"assert-ref-snapshot-id","ref":"tag1","snapshot-id":null})", &m));
  EXPECT_TRUE(CheckJson(R"({"type":"assert-ref-snapshot-id","ref":"b2","snapshot-id":null})", &m));
  EXPECT_TRUE(CheckJson(R"({"type":"assert-current-schema-id","current-schema-id":1})", &m));
  EXPECT_FALSE(CheckJson(R"({"type":"assert-current-schema-id","current-schema-id":0})", &m));
  EXPECT_TRUE(CheckJson(R"({"type":"assert-last-assigned-field-id","last-assigned-field-id":7})", &m));
  EXPECT_TRUE(CheckJson(R"({"type":"assert-last-assigned-partition-id","last-assigned-partition-id":1000})", &m));
  EXPECT_TRUE(CheckJson(R"({"type":"assert-default-spec-id","default-spec-id":0})", &m));
  EXPECT_FALSE(CheckJson(R"({"type":"assert-default-sort-order-id","default-sort-order-id":1})", &m));
  EXPECT_FALSE(CheckJson(R"({"type":"assert-create"})", &m));
  EXPECT_TRUE(CheckJson(R"({"type":"assert-create"})", nullptr));
  EXPECT_EQ(CheckJson(R"({"type":"assert-current-schema-id","current-schema-id":1})", nullptr).error().kind(),
            ErrorKind::kConflict);
}

TEST(TableRequirementTest, MalformedIsInvalidArgument) {
  for (const char* json : {R"([])", R"({})", R"({"type":7})", R"({"type":"assert-everything"})",
                           R"({"type":"assert-table-uuid"})", R"({"type":"assert-ref-snapshot-id","ref":"main"})",
                           R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":"5"})",
                           R"({"type":"assert-current-schema-id","current-schema-id":1.5})"}) {
    auto parsed = TableRequirement::FromJson(nlohmann::json::parse(json));
    ASSERT_FALSE(parsed) << json;
    EXPECT_EQ(parsed.error().kind(), ErrorKind::kInvalidArgument) << json;
  }
}

TEST(TableRequirementTest, RoundTripsThroughJson) {
  for (const char* json : {R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":null})",
                           R"({"type":"assert-default-spec-id","default-spec-id":3})",
                           R"({"type":"assert-table-uuid","uuid":"u"})"}) {
    auto parsed = TableRequirement::FromJson(nlohmann::json::parse(json));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->ToJson(), nlohmann::json::parse(json));
  }
}

TEST(TableUpdateTest, UnknownOrMistypedIsInvalidArgument) {
  for (const char* json : {R"("add-snapshot")", R"({"action":"drop-everything"})", R"({"action":"add-snapshot"})",
                           R"({"action":"set-properties","updates":{"a":1}})",
                           R"({"action":"remove-properties","removals":"a"})",
                           R"({"action":"set-snapshot-ref","ref-name":"main"})",
                           R"({"action":"remove-snapshots","snapshot-ids":[1,"2"]})"}) {
    auto parsed = TableUpdate::FromJson(nlohmann::json::parse(json));
    ASSERT_FALSE(parsed) << json;
    EXPECT_EQ(parsed.error().kind(), ErrorKind::kInvalidArgument) << json;
  }
  EXPECT_TRUE(TableUpdate::FromJson(nlohmann::json::parse(R"({"action":"set-properties","updates":{"a":"1"}})")));
}

}  // namespace
}  // namespace floe::catalog
