#include "iceberg/table_metadata_builder.h"

#include <gtest/gtest.h>

#include "iceberg/table_metadata.h"
#include "iceberg/table_update.h"

namespace floe::iceberg {
namespace {

using Json = nlohmann::json;

const char* kBuilderSchema = R"({"type":"struct","schema-id":0,"fields":[
  {"id":1,"name":"id","required":true,"type":"long"},
  {"id":2,"name":"ts","required":false,"type":"timestamptz"},
  {"id":3,"name":"tags","required":false,"type":{"type":"list","element-id":4,"element":"string","element-required":false}}]})";

TableUpdatePtr Parse(const Json& json) {
  auto update = TableUpdate::FromJson(json);
  EXPECT_TRUE(update) << json.dump();
  return update ? *update : nullptr;
}

Status Apply(TableMetadataBuilder& builder, std::initializer_list<Json> updates) {
  for (const Json& json : updates) {
    TableUpdatePtr update = Parse(json);
    if (!update) return InvalidArgument("unparsable");
    FLOE_RETURN_IF_ERROR(update->Apply(builder));
  }
  return OkStatus();
}

// A new table as a create request makes it: v2, one schema, a day partition, unsorted.
Json NewTable() {
  TableMetadataBuilder builder(1000);
  Status applied =
      Apply(builder, {
                         {{"action", "upgrade-format-version"}, {"format-version", 2}},
                         {{"action", "add-schema"}, {"schema", Json::parse(kBuilderSchema)}},
                         {{"action", "set-current-schema"}, {"schema-id", -1}},
                         {{"action", "add-spec"},
                          {"spec", Json::parse(R"({"fields":[{"source-id":2,"name":"ts_day","transform":"day"}]})")}},
                         {{"action", "set-default-spec"}, {"spec-id", -1}},
                         {{"action", "add-sort-order"}, {"sort-order", {{"order-id", 0}, {"fields", Json::array()}}}},
                         {{"action", "set-default-sort-order"}, {"sort-order-id", -1}},
                         {{"action", "set-location"}, {"location", "file:///w/db/t"}},
                         {{"action", "set-properties"}, {"updates", {{"owner", "ana"}}}},
                     });
  EXPECT_TRUE(applied) << applied.error().ToString();
  auto built = builder.Build();
  EXPECT_TRUE(built) << built.error().ToString();
  return built.value_or(Json());
}

Json SnapshotJson(int64_t id, int64_t sequence, std::optional<int64_t> parent, int64_t millis) {
  Json s = {{"snapshot-id", id},
            {"sequence-number", sequence},
            {"timestamp-ms", millis},
            {"manifest-list", fmt::format("file:///w/db/t/metadata/snap-{}.avro", id)},
            {"summary", {{"operation", "append"}}},
            {"schema-id", 0}};
  if (parent) s["parent-snapshot-id"] = *parent;
  return s;
}

Json AddSnapshotJson(Json snapshot) { return {{"action", "add-snapshot"}, {"snapshot", std::move(snapshot)}}; }
Json MainAt(int64_t id) {
  return {{"action", "set-snapshot-ref"}, {"ref-name", "main"}, {"snapshot-id", id}, {"type", "branch"}};
}

TEST(TableMetadataBuilderTest, NewTableHasEverythingTheSpecRequires) {
  Json m = NewTable();
  EXPECT_EQ(m["format-version"], 2);
  EXPECT_EQ(m["location"], "file:///w/db/t");
  EXPECT_EQ(m["last-column-id"], 4);  // The list element's id counts.
  EXPECT_EQ(m["current-schema-id"], 0);
  EXPECT_EQ(m["default-spec-id"], 0);
  EXPECT_EQ(m["partition-specs"][0]["fields"][0]["field-id"], 1000);
  EXPECT_EQ(m["last-partition-id"], 1000);
  EXPECT_EQ(m["default-sort-order-id"], 0);
  EXPECT_EQ(m["properties"]["owner"], "ana");
  EXPECT_EQ(m["table-uuid"].get<std::string>().size(), 36u);
  EXPECT_EQ(m["last-updated-ms"], 1000);
  EXPECT_TRUE(m["metadata-log"].empty());
  EXPECT_TRUE(TableMetadataFromJsonValue(m));
}

TEST(TableMetadataBuilderTest, AppendsSnapshotsMovesMainAndLogs) {
  Json base = NewTable();
  TableMetadataBuilder builder(base, "file:///w/db/t/metadata/00000-a.metadata.json", 2000);
  ASSERT_TRUE(Apply(builder, {AddSnapshotJson(SnapshotJson(11, 1, std::nullopt, 1500)), MainAt(11)}));
  auto next = builder.Build();
  ASSERT_TRUE(next) << next.error().ToString();
  EXPECT_EQ((*next)["current-snapshot-id"], 11);
  EXPECT_EQ((*next)["refs"]["main"]["snapshot-id"], 11);
  EXPECT_EQ((*next)["last-sequence-number"], 1);
  ASSERT_EQ((*next)["snapshot-log"].size(), 1u);
  EXPECT_EQ((*next)["snapshot-log"][0]["timestamp-ms"], 1500);  // When the snapshot was made.
  ASSERT_EQ((*next)["metadata-log"].size(), 1u);
  EXPECT_EQ((*next)["metadata-log"][0]["metadata-file"], "file:///w/db/t/metadata/00000-a.metadata.json");
  EXPECT_EQ((*next)["last-updated-ms"], 2000);

  // A second writer that computed sequence number 1 from the same base is stale: Conflict.
  TableMetadataBuilder stale(*next, "v2", 3000);
  EXPECT_EQ(stale.AddSnapshot(SnapshotJson(12, 1, 11, 2500)).error().kind(), ErrorKind::kConflict);
  EXPECT_EQ(stale.AddSnapshot(SnapshotJson(11, 2, 11, 2500)).error().kind(), ErrorKind::kConflict);  // Id taken.
  // A v2 snapshot needs a sequence number at all.
  Json no_sequence = SnapshotJson(13, 2, 11, 2500);
  no_sequence.erase("sequence-number");
  EXPECT_EQ(stale.AddSnapshot(no_sequence).error().kind(), ErrorKind::kInvalidArgument);
}

TEST(TableMetadataBuilderTest, SettingMainToWhereItIsLogsNothing) {
  Json base = NewTable();
  TableMetadataBuilder first(base, "v1", 2000);
  ASSERT_TRUE(Apply(first, {AddSnapshotJson(SnapshotJson(11, 1, std::nullopt, 1500)), MainAt(11)}));
  Json one = *first.Build();
  TableMetadataBuilder again(one, "v2", 3000);
  ASSERT_TRUE(Apply(again, {MainAt(11)}));
  EXPECT_EQ((*again.Build())["snapshot-log"].size(), 1u);
}

TEST(TableMetadataBuilderTest, RemovingSnapshotsDropsTheirRefsStatisticsAndOlderLog) {
  Json base = NewTable();
  TableMetadataBuilder builder(base, "v1", 2000);
  ASSERT_TRUE(
      Apply(builder, {AddSnapshotJson(SnapshotJson(1, 1, std::nullopt, 1100)),
                      MainAt(1),
                      AddSnapshotJson(SnapshotJson(2, 2, 1, 1200)),
                      MainAt(2),
                      {{"action", "set-snapshot-ref"}, {"ref-name", "old"}, {"snapshot-id", 1}, {"type", "tag"}},
                      {{"action", "set-statistics"},
                       {"statistics",
                        {{"snapshot-id", 1},
                         {"statistics-path", "s1"},
                         {"file-size-in-bytes", 1},
                         {"file-footer-size-in-bytes", 1},
                         {"blob-metadata", Json::array()}}}},
                      {{"action", "remove-snapshots"}, {"snapshot-ids", {1}}}}));
  Json m = *builder.Build();
  EXPECT_EQ(m["snapshots"].size(), 1u);
  EXPECT_FALSE(m["refs"].contains("old"));
  EXPECT_TRUE(m["statistics"].empty());
  ASSERT_EQ(m["snapshot-log"].size(), 1u);
  EXPECT_EQ(m["snapshot-log"][0]["snapshot-id"], 2);
  EXPECT_TRUE(TableMetadataFromJsonValue(m));
}

TEST(TableMetadataBuilderTest, SemanticErrorsAreInvalidArgument) {
  Json base = NewTable();
  TableMetadataBuilder builder(base, "v1", 2000);
  EXPECT_EQ(builder.SetCurrentSchema(9).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.SetCurrentSchema(-1).error().kind(), ErrorKind::kInvalidArgument);  // Nothing added.
  EXPECT_EQ(builder.SetDefaultPartitionSpec(4).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.SetDefaultSortOrder(4).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.SetSnapshotRef("main", 99, "branch", {}).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.RemoveSchemas({0}).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.RemovePartitionSpecs({0}).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.UpgradeFormatVersion(1).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.UpgradeFormatVersion(4).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.AssignUuid("another").error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.SetLocation("").error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.AddSchema(Json{{"type", "struct"}, {"fields", {{{"id", 1}, {"name", "x"}}}}}, std::nullopt)
                .error()
                .kind(),
            ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.AddPartitionSpec(Json{{"fields", {{{"name", "x"}}}}}).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.AddSortOrder(Json{{"fields", {{{"source-id", 1}}}}}).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.AddSnapshot(Json{{"snapshot-id", "1"}}).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.AddSnapshot(Json::array()).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.SetStatistics(Json{{"statistics-path", "x"}}).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.AddEncryptionKey(Json{{"encrypted-key-metadata", "x"}}).error().kind(),
            ErrorKind::kInvalidArgument);
  ASSERT_TRUE(builder.AddSnapshot(SnapshotJson(5, 1, std::nullopt, 1500)));
  EXPECT_EQ(builder.SetSnapshotRef("main", 5, "tag", {}).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(builder.SetSnapshotRef("b", 5, "leaf", {}).error().kind(), ErrorKind::kInvalidArgument);
}

TEST(TableMetadataBuilderTest, EvolvesSchemaAndReusesIdenticalOnes) {
  Json base = NewTable();
  Json wider = Json::parse(kBuilderSchema);
  wider["fields"].push_back({{"id", 5}, {"name", "note"}, {"required", false}, {"type", "string"}});
  TableMetadataBuilder builder(base, "v1", 2000);
  ASSERT_TRUE(Apply(builder, {{{"action", "add-schema"}, {"schema", wider}},
                              {{"action", "set-current-schema"}, {"schema-id", -1}},
                              {{"action", "add-schema"}, {"schema", Json::parse(kBuilderSchema)}},
                              {{"action", "set-properties"}, {"updates", {{"k", "v"}}}},
                              {{"action", "remove-properties"}, {"removals", {"owner"}}}}));
  Json next = *builder.Build();
  EXPECT_EQ(next["schemas"].size(), 2u);
  EXPECT_EQ(next["current-schema-id"], 1);
  EXPECT_EQ(next["last-column-id"], 5);
  EXPECT_EQ(next["properties"], (Json{{"k", "v"}}));
  // The deprecated last-column-id of add-schema only raises the table's.
  TableMetadataBuilder raised(next, "v2", 3000);
  Json narrower = Json::parse(kBuilderSchema);
  narrower["fields"].erase(2);
  ASSERT_TRUE(raised.AddSchema(narrower, 9));
  EXPECT_EQ((*raised.Build())["last-column-id"], 9);
}

TEST(TableMetadataBuilderTest, PartitionSpecsAndSortOrdersGetIds) {
  Json base = NewTable();
  TableMetadataBuilder builder(base, "v1", 2000);
  ASSERT_TRUE(builder.AddPartitionSpec(Json::parse(
      R"({"fields":[{"source-id":2,"name":"ts_day","transform":"day","field-id":1000},{"source-id":1,"name":"b","transform":"bucket[4]"}]})")));
  ASSERT_TRUE(builder.SetDefaultPartitionSpec(-1));
  ASSERT_TRUE(builder.AddSortOrder(Json::parse(
      R"({"fields":[{"source-id":1,"transform":"identity","direction":"asc","null-order":"nulls-first"}]})")));
  ASSERT_TRUE(builder.SetDefaultSortOrder(-1));
  // The same spec again is the existing one.
  ASSERT_TRUE(builder.AddPartitionSpec(
      Json::parse(R"({"fields":[{"source-id":2,"name":"ts_day","transform":"day","field-id":1000}]})")));
  Json m = *builder.Build();
  EXPECT_EQ(m["partition-specs"].size(), 2u);
  EXPECT_EQ(m["default-spec-id"], 1);
  EXPECT_EQ(m["partition-specs"][1]["fields"][1]["field-id"], 1001);
  EXPECT_EQ(m["last-partition-id"], 1001);
  EXPECT_EQ(m["default-sort-order-id"], 1);  // 0 is the unsorted order.
  EXPECT_TRUE(TableMetadataFromJsonValue(m));
}

TEST(TableMetadataBuilderTest, KeepsFieldsItDoesNotKnow) {
  Json base = NewTable();
  base["x-newer-writer"] = {{"nested", {1, 2, 3}}};
  TableMetadataBuilder builder(base, "v1", 2000);
  Json snapshot = SnapshotJson(1, 1, std::nullopt, 1500);
  snapshot["x-snapshot-extra"] = "kept";
  ASSERT_TRUE(Apply(builder, {AddSnapshotJson(snapshot),
                              MainAt(1),
                              {{"action", "add-encryption-key"},
                               {"encryption-key", {{"key-id", "k1"}, {"encrypted-key-metadata", "AA=="}}}}}));
  Json m = *builder.Build();
  EXPECT_EQ(m["x-newer-writer"], base["x-newer-writer"]);
  EXPECT_EQ(m["snapshots"][0]["x-snapshot-extra"], "kept");
  EXPECT_EQ(m["encryption-keys"].size(), 1u);
  TableMetadataBuilder removal(m, "v2", 3000);
  ASSERT_TRUE(removal.RemoveEncryptionKey("k1"));
  EXPECT_TRUE((*removal.Build())["encryption-keys"].empty());
}

TEST(TableMetadataBuilderTest, V3AssignsRowIds) {
  Json base = NewTable();
  TableMetadataBuilder builder(base, "v1", 2000);
  ASSERT_TRUE(builder.UpgradeFormatVersion(3));
  Json first = SnapshotJson(1, 1, std::nullopt, 1500);
  first["added-rows"] = 10;
  ASSERT_TRUE(builder.AddSnapshot(first));
  Json second = SnapshotJson(2, 2, 1, 1600);
  second["first-row-id"] = 5;  // Below next-row-id 10: stale.
  EXPECT_EQ(builder.AddSnapshot(second).error().kind(), ErrorKind::kConflict);
  Json m = *builder.Build();
  EXPECT_EQ(m["snapshots"][0]["first-row-id"], 0);
  EXPECT_EQ(m["next-row-id"], 10);
}

TEST(TableMetadataBuilderTest, MetadataLogIsTrimmed) {
  Json m = NewTable();
  m["properties"]["write.metadata.previous-versions-max"] = "2";
  for (int i = 0; i < 4; ++i) {
    TableMetadataBuilder builder(m, fmt::format("v{}", i), 2000 + i);
    m = *builder.Build();
  }
  ASSERT_EQ(m["metadata-log"].size(), 2u);
  EXPECT_EQ(m["metadata-log"][1]["metadata-file"], "v3");
}

TEST(TableMetadataBuilderTest, BuildsATableFromAStagedCreateCommit) {
  // What a client sends after a staged create: every field arrives as an update.
  TableMetadataBuilder builder(5000);
  Json updates = Json::parse(std::string(R"([
    {"action":"assign-uuid","uuid":"2cc52516-5e73-41f2-b139-545d41a4e151"},
    {"action":"upgrade-format-version","format-version":2},
    {"action":"add-schema","schema":)") +
                             kBuilderSchema + R"(,"last-column-id":4},
    {"action":"set-current-schema","schema-id":-1},
    {"action":"add-spec","spec":{"spec-id":0,"fields":[]}},
    {"action":"set-default-spec","spec-id":-1},
    {"action":"add-sort-order","sort-order":{"order-id":0,"fields":[]}},
    {"action":"set-default-sort-order","sort-order-id":-1},
    {"action":"set-location","location":"file:///w/db/s"},
    {"action":"set-properties","updates":{"a":"b"}}])");
  for (const auto& json : updates) {
    TableUpdatePtr update = Parse(json);
    ASSERT_TRUE(update);
    ASSERT_TRUE(update->Apply(builder)) << json.dump();
  }
  auto m = builder.Build();
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ((*m)["table-uuid"], "2cc52516-5e73-41f2-b139-545d41a4e151");
  EXPECT_EQ((*m)["current-schema-id"], 0);
  EXPECT_EQ((*m)["location"], "file:///w/db/s");
  TableMetadataBuilder empty(5000);
  EXPECT_EQ(empty.Build().error().kind(), ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace floe::iceberg
