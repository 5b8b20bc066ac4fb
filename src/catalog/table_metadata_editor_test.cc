#include "catalog/table_metadata_editor.h"

#include <gtest/gtest.h>

namespace floe::catalog {
namespace {

const char* kSchema = R"({"type":"struct","schema-id":0,"fields":[
  {"id":1,"name":"id","required":true,"type":"long"},
  {"id":2,"name":"ts","required":false,"type":"timestamptz"},
  {"id":3,"name":"tags","required":false,"type":{"type":"list","element-id":4,"element":"string","element-required":false}}]})";

nlohmann::json NewTable() {
  TableCreation creation;
  creation.location = "file:///w/db/t";
  creation.schema = nlohmann::json::parse(kSchema);
  creation.partition_spec = nlohmann::json::parse(R"({"fields":[{"source-id":2,"name":"ts_day","transform":"day"}]})");
  creation.properties = {{"owner", "ana"}};
  auto metadata = NewTableMetadata(creation, 1000);
  EXPECT_TRUE(metadata) << metadata.error().ToString();
  return metadata.value_or(nlohmann::json());
}

nlohmann::json Snapshot(int64_t id, int64_t sequence, std::optional<int64_t> parent, int64_t millis) {
  nlohmann::json s = {{"snapshot-id", id},
                      {"sequence-number", sequence},
                      {"timestamp-ms", millis},
                      {"manifest-list", fmt::format("file:///w/db/t/metadata/snap-{}.avro", id)},
                      {"summary", {{"operation", "append"}}},
                      {"schema-id", 0}};
  if (parent) {
    s["parent-snapshot-id"] = *parent;
  }
  return s;
}

Status ApplyAll(TableMetadataEditor& editor, std::initializer_list<TableUpdate> updates) {
  for (const TableUpdate& update : updates) {
    FLOE_RETURN_IF_ERROR(editor.Apply(update));
  }
  return OkStatus();
}

TEST(TableMetadataEditorTest, NewTableHasEverythingTheSpecRequires) {
  nlohmann::json m = NewTable();
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
}

TEST(TableMetadataEditorTest, AppendsSnapshotsAndMovesMain) {
  nlohmann::json base = NewTable();
  TableMetadataEditor editor(&base, "file:///w/db/t/metadata/00000-a.metadata.json", 2000);
  ASSERT_TRUE(ApplyAll(editor, {TableUpdate::AddSnapshot(Snapshot(11, 1, std::nullopt, 1500)),
                                TableUpdate::SetSnapshotRef("main", 11)}));
  auto next = editor.Finish();
  ASSERT_TRUE(next) << next.error().ToString();
  EXPECT_EQ((*next)["current-snapshot-id"], 11);
  EXPECT_EQ((*next)["refs"]["main"]["snapshot-id"], 11);
  EXPECT_EQ((*next)["last-sequence-number"], 1);
  EXPECT_EQ((*next)["snapshot-log"].size(), 1u);
  ASSERT_EQ((*next)["metadata-log"].size(), 1u);
  EXPECT_EQ((*next)["metadata-log"][0]["metadata-file"], "file:///w/db/t/metadata/00000-a.metadata.json");

  // A second writer that computed sequence number 1 from the same base is stale: Conflict.
  TableMetadataEditor stale(&*next, "v2", 3000);
  auto conflict = stale.Apply(TableUpdate::AddSnapshot(Snapshot(12, 1, 11, 2500)));
  ASSERT_FALSE(conflict);
  EXPECT_EQ(conflict.error().kind(), ErrorKind::kConflict);
  EXPECT_EQ(stale.Apply(TableUpdate::AddSnapshot(Snapshot(11, 2, 11, 2500))).error().kind(), ErrorKind::kConflict);
}

TEST(TableMetadataEditorTest, SemanticErrorsAreInvalidArgument) {
  nlohmann::json base = NewTable();
  TableMetadataEditor editor(&base, "v1", 2000);
  EXPECT_EQ(editor.Apply({"set-current-schema", {{"action", "set-current-schema"}, {"schema-id", 9}}}).error().kind(),
            ErrorKind::kInvalidArgument);
  EXPECT_EQ(editor.Apply(TableUpdate::SetSnapshotRef("main", 99)).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(editor.Apply({"remove-schemas", {{"action", "remove-schemas"}, {"schema-ids", {0}}}}).error().kind(),
            ErrorKind::kInvalidArgument);
  EXPECT_EQ(editor.Apply({"upgrade-format-version", {{"action", "upgrade-format-version"}, {"format-version", 1}}})
                .error()
                .kind(),
            ErrorKind::kInvalidArgument);
  nlohmann::json bad_schema = {{"type", "struct"}, {"fields", {{{"id", 1}, {"name", "x"}}}}};
  EXPECT_EQ(editor.Apply({"add-schema", {{"action", "add-schema"}, {"schema", bad_schema}}}).error().kind(),
            ErrorKind::kInvalidArgument);
}

TEST(TableMetadataEditorTest, EvolvesSchemaAndReusesIdenticalOnes) {
  nlohmann::json base = NewTable();
  nlohmann::json wider = nlohmann::json::parse(kSchema);
  wider["fields"].push_back({{"id", 5}, {"name", "note"}, {"required", false}, {"type", "string"}});
  TableMetadataEditor editor(&base, "v1", 2000);
  ASSERT_TRUE(ApplyAll(editor, {{"add-schema", {{"action", "add-schema"}, {"schema", wider}}},
                                {"set-current-schema", {{"action", "set-current-schema"}, {"schema-id", -1}}},
                                {"add-schema", {{"action", "add-schema"}, {"schema", nlohmann::json::parse(kSchema)}}},
                                TableUpdate::SetProperties({{"k", "v"}}), TableUpdate::RemoveProperties({"owner"})}));
  auto next = editor.Finish();
  ASSERT_TRUE(next);
  EXPECT_EQ((*next)["schemas"].size(), 2u);
  EXPECT_EQ((*next)["current-schema-id"], 1);
  EXPECT_EQ((*next)["last-column-id"], 5);
  EXPECT_EQ((*next)["properties"], (nlohmann::json{{"k", "v"}}));
}

TEST(TableMetadataEditorTest, BuildsATableFromAStagedCreateCommit) {
  // What a client sends after a staged create: every field arrives as an update.
  TableMetadataEditor editor(nullptr, "", 5000);
  nlohmann::json updates = nlohmann::json::parse(std::string(R"([
    {"action":"assign-uuid","uuid":"2cc52516-5e73-41f2-b139-545d41a4e151"},
    {"action":"upgrade-format-version","format-version":2},
    {"action":"add-schema","schema":)") + kSchema + R"(,"last-column-id":4},
    {"action":"set-current-schema","schema-id":-1},
    {"action":"add-spec","spec":{"spec-id":0,"fields":[]}},
    {"action":"set-default-spec","spec-id":-1},
    {"action":"add-sort-order","sort-order":{"order-id":0,"fields":[]}},
    {"action":"set-default-sort-order","sort-order-id":-1},
    {"action":"set-location","location":"file:///w/db/s"},
    {"action":"set-properties","updates":{"a":"b"}}])");
  for (const auto& json : updates) {
    auto update = TableUpdate::FromJson(json);
    ASSERT_TRUE(update) << json.dump();
    ASSERT_TRUE(editor.Apply(*update)) << json.dump();
  }
  auto m = editor.Finish();
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ((*m)["table-uuid"], "2cc52516-5e73-41f2-b139-545d41a4e151");
  EXPECT_EQ((*m)["current-schema-id"], 0);
  EXPECT_EQ((*m)["location"], "file:///w/db/s");
  TableMetadataEditor empty(nullptr, "", 5000);
  EXPECT_EQ(empty.Finish().error().kind(), ErrorKind::kInvalidArgument);
}

TEST(TableMetadataEditorTest, RandomUuidsAreVersion4AndDistinct) {
  std::string a = RandomUuid();
  std::string b = RandomUuid();
  EXPECT_NE(a, b);
  EXPECT_EQ(a[14], '4');
  EXPECT_TRUE(a[19] == '8' || a[19] == '9' || a[19] == 'a' || a[19] == 'b') << a;
}

}  // namespace
}  // namespace floe::catalog
