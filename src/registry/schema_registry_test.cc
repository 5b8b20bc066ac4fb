#include "registry/schema_registry.h"

#include <gtest/gtest.h>

#include "registry/registry_request.h"

namespace floe::registry {
namespace {

// The records written, in order: what the _schemas topic would hold.
class MemoryLog : public RecordLog {
 public:
  Status Append(const std::string& key, const std::optional<std::string>& value) override {
    if (fail) return Unavailable("broker down");
    records.emplace_back(key, value);
    return OkStatus();
  }
  std::vector<std::pair<std::string, std::optional<std::string>>> records;
  bool fail = false;
};

SchemaContent Avro(std::string schema) { return {"AVRO", std::move(schema), {}}; }

constexpr std::string_view kOrderV1 = R"({"type":"record","name":"Order","fields":[{"name":"id","type":"long"}]})";
constexpr std::string_view kV2 =
    R"({"type":"record","name":"Order","fields":[{"name":"id","type":"long"},{"name":"note","type":"string","default":""}]})";
constexpr std::string_view kBreaking =
    R"({"type":"record","name":"Order","fields":[{"name":"id","type":"string"}]})";

TEST(SchemaRegistry, RegisterIsIdempotentAndIdsAreGlobal) {
  MemoryLog log;
  SchemaRegistry registry(log);
  EXPECT_EQ(registry.Register("a", Avro(std::string(kOrderV1))).value()["id"], 1);
  EXPECT_EQ(registry.Register("a", Avro(std::string(kOrderV1))).value()["id"], 1);
  EXPECT_EQ(registry.Register("b", Avro(std::string(kOrderV1))).value()["id"], 1);  // Same content, same id.
  EXPECT_EQ(registry.Register("a", Avro(std::string(kV2))).value()["id"], 2);
  EXPECT_EQ(registry.Versions("a", false).value(), nlohmann::json::array({1, 2}));
  EXPECT_EQ(log.records.size(), 3u);

  auto incompatible = registry.Register("a", Avro(std::string(kBreaking)));
  ASSERT_FALSE(incompatible.has_value());
  EXPECT_EQ(incompatible.error().code, RegistryErrorCode::kIncompatibleSchema);
  EXPECT_FALSE(registry.TestCompatibility("a", kLatestVersion, Avro(std::string(kBreaking)), false)
                   .value()["is_compatible"]
                   .get<bool>());
  ASSERT_TRUE(registry.SetConfig("a", CompatibilityLevel::kNone).has_value());
  EXPECT_EQ(registry.Register("a", Avro(std::string(kBreaking))).value()["id"], 3);
}

TEST(SchemaRegistry, DeletesAndErrorCodes) {
  MemoryLog log;
  SchemaRegistry registry(log);
  ASSERT_TRUE(registry.Register("a", Avro(std::string(kOrderV1))).has_value());
  EXPECT_EQ(registry.Version("x", 1, false).error().code, RegistryErrorCode::kSubjectNotFound);
  EXPECT_EQ(registry.Version("a", 7, false).error().code, RegistryErrorCode::kVersionNotFound);
  EXPECT_EQ(registry.SchemaById(99).error().code, RegistryErrorCode::kSchemaNotFound);
  EXPECT_EQ(registry.DeleteSubject("a", true).error().code, RegistryErrorCode::kSubjectNotSoftDeleted);
  EXPECT_EQ(registry.DeleteSubject("a", false).value(), nlohmann::json::array({1}));
  EXPECT_EQ(registry.DeleteSubject("a", false).error().code, RegistryErrorCode::kSubjectSoftDeleted);
  EXPECT_TRUE(registry.SchemaById(1).has_value());  // Soft-deleted schemas still read by id.
  EXPECT_EQ(registry.Subjects(false), nlohmann::json::array());
  EXPECT_EQ(registry.DeleteSubject("a", true).value(), nlohmann::json::array({1}));
  EXPECT_EQ(registry.SchemaById(1).error().code, RegistryErrorCode::kSchemaNotFound);
  // A failed write changes nothing.
  log.fail = true;
  EXPECT_EQ(registry.Register("a", Avro(std::string(kOrderV1))).error().code, RegistryErrorCode::kStoreError);
  EXPECT_EQ(registry.Subjects(true), nlohmann::json::array());
}

TEST(SchemaRegistry, ReplayRebuildsTheSameState) {
  MemoryLog log;
  SchemaRegistry registry(log);
  ASSERT_TRUE(registry.Register("a", Avro(std::string(kOrderV1))).has_value());
  ASSERT_TRUE(registry.Register("a", Avro(std::string(kV2))).has_value());
  ASSERT_TRUE(registry.Register("j", {"JSON", R"({"type":"object"})", {}}).has_value());
  ASSERT_TRUE(registry.DeleteVersion("a", 1, false).has_value());
  ASSERT_TRUE(registry.SetConfig("", CompatibilityLevel::kFull).has_value());
  ASSERT_TRUE(registry.SetMode("", "READONLY").has_value());

  MemoryLog unused;
  SchemaRegistry restarted(unused);
  for (const auto& [key, value] : log.records) restarted.ApplyReplayed(key, value);
  restarted.ApplyReplayed("not json", std::string("{}"));  // Skipped, not fatal.
  EXPECT_EQ(restarted.Versions("a", false).value(), nlohmann::json::array({2}));
  EXPECT_EQ(restarted.Version("a", 2, false).value()["id"], 2);
  EXPECT_EQ(restarted.SchemaById(3).value()["schemaType"], "JSON");
  EXPECT_EQ(restarted.Config("", true).value()["compatibilityLevel"], "FULL");
  EXPECT_EQ(restarted.Register("a", Avro(std::string(kOrderV1))).error().code,
            RegistryErrorCode::kOperationNotPermitted);
  ASSERT_TRUE(restarted.SetMode("", "READWRITE").has_value());
  // The next id continues after the highest replayed one.
  EXPECT_EQ(restarted.Register("z", Avro(R"("string")")).value()["id"], 4);
}

TEST(SchemaRegistry, References) {
  MemoryLog log;
  SchemaRegistry registry(log);
  ASSERT_TRUE(registry.Register("base", {"PROTOBUF", "syntax = \"proto3\"; message B {}", {}}).has_value());
  SchemaContent user{"PROTOBUF", "syntax = \"proto3\"; import \"b.proto\"; message U { B b = 1; }", {{"b.proto", "base", 1}}};
  EXPECT_EQ(registry.Register("user", user).value()["id"], 2);
  EXPECT_EQ(registry.ReferencedBy("base", 1).value(), nlohmann::json::array({2}));
  EXPECT_EQ(registry.DeleteSubject("base", false).error().code, RegistryErrorCode::kReferenceExists);
  SchemaContent dangling{"PROTOBUF", "message X {}", {{"x.proto", "nowhere", 1}}};
  EXPECT_EQ(registry.Register("x", dangling).error().code, RegistryErrorCode::kInvalidSchema);
}

TEST(SchemaRegistry, AvroReferencesAreParsedAndCheckedWithTheTypesTheyName) {
  MemoryLog log;
  SchemaRegistry registry(log);
  ASSERT_TRUE(registry.Register("currency", Avro(R"({"type":"enum","name":"Currency","symbols":["EUR","USD"]})")));
  SchemaContent money{"AVRO",
                      R"({"type":"record","name":"Money","fields":[{"name":"units","type":"long"},)"
                      R"({"name":"currency","type":"Currency"}]})",
                      {{"Currency", "currency", 1}}};
  ASSERT_EQ(registry.Register("money", money).value()["id"], 2);
  SchemaContent v1{
      "AVRO", R"({"type":"record","name":"Pay","fields":[{"name":"amount","type":"Money"}]})", {{"Money", "money", 1}}};
  ASSERT_EQ(registry.Register("pay", v1).value()["id"], 3);
  // The text is kept as sent (in canonical JSON), not with the referenced types written in.
  EXPECT_EQ(registry.SchemaById(3).value()["schema"], nlohmann::json::parse(v1.schema).dump());
  // A compatible change (a new field with a default) passes; a breaking one (amount no longer
  // a Money record) is refused under BACKWARD, as it would be without references.
  SchemaContent v2 = v1;
  v2.schema = R"({"type":"record","name":"Pay","fields":[{"name":"amount","type":"Money"},)"
              R"({"name":"tip","type":["null","Money"],"default":null}]})";
  ASSERT_EQ(registry.Register("pay", v2).value()["id"], 4);
  SchemaContent breaking{"AVRO", R"({"type":"record","name":"Pay","fields":[{"name":"amount","type":"string"}]})", {}};
  EXPECT_EQ(registry.Register("pay", breaking).error().code, RegistryErrorCode::kIncompatibleSchema);
  // A type no reference defines, or a reference to a non-Avro schema: invalid.
  SchemaContent unknown{
      "AVRO", R"({"type":"record","name":"Q","fields":[{"name":"a","type":"Nope"}]})", {{"Currency", "currency", 1}}};
  auto refused = registry.Register("q", unknown);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, RegistryErrorCode::kInvalidSchema);
  EXPECT_NE(refused.error().message.find("unknown type 'Nope'"), std::string::npos) << refused.error().message;
  ASSERT_TRUE(registry.Register("j", {"JSON", R"({"type":"object"})", {}}));
  SchemaContent to_json{"AVRO", R"("long")", {{"J", "j", 1}}};
  refused = registry.Register("q", to_json);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("is JSON, not AVRO"), std::string::npos) << refused.error().message;
}

TEST(SchemaRegistry, ProtobufReferencesAreParsedAndCheckedAsImportedFiles) {
  MemoryLog log;
  SchemaRegistry registry(log);
  const std::string money =
      "syntax = \"proto3\"; package money; message Money { string currency = 1; int64 units = 2; }";
  ASSERT_EQ(registry.Register("money.proto", {"PROTOBUF", money, {}}).value()["id"], 1);
  SchemaContent v1{"PROTOBUF",
                   "syntax = \"proto3\"; package shop; import \"money.proto\"; message Pay { money.Money amount = 1; }",
                   {{"money.proto", "money.proto", 1}}};
  ASSERT_EQ(registry.Register("pay", v1).value()["id"], 2);
  // Compatibility sees through the import: a compatible change passes, a field number whose
  // wire type changes (a message to an int64) is refused under BACKWARD.
  SchemaContent v2 = v1;
  v2.schema =
      "syntax = \"proto3\"; package shop; import \"money.proto\"; "
      "message Pay { money.Money amount = 1; money.Money tip = 2; }";
  ASSERT_EQ(registry.Register("pay", v2).value()["id"], 3);
  SchemaContent breaking = v1;
  breaking.schema = "syntax = \"proto3\"; package shop; import \"money.proto\"; message Pay { int64 amount = 1; }";
  EXPECT_EQ(registry.Register("pay", breaking).error().code, RegistryErrorCode::kIncompatibleSchema);
  // An import no reference names, a type the imported file lacks, an imported file of another
  // type: invalid (42201) with why.
  struct Case {
    SchemaContent content;
    std::string expect;
  };
  ASSERT_TRUE(registry.Register("j", {"JSON", R"({"type":"object"})", {}}));
  const std::vector<Case> cases = {
      {{"PROTOBUF",
        "syntax = \"proto3\"; import \"tax.proto\"; message T { int32 a = 1; }",
        {{"money.proto", "money.proto", 1}}},
       "import \"tax.proto\": no schema reference"},
      {{"PROTOBUF",
        "syntax = \"proto3\"; import \"money.proto\"; message T { money.Euro a = 1; }",
        {{"money.proto", "money.proto", 1}}},
       "type \"money.Euro\" is not defined"},
      {{"PROTOBUF", "syntax = \"proto3\"; import \"j.proto\"; message T { int32 a = 1; }", {{"j.proto", "j", 1}}},
       "is JSON, not PROTOBUF"},
      {{"PROTOBUF",
        "syntax = \"proto3\"; import \"money.proto\"; message T { int32 a = 1; }",
        {{"money.proto", "nowhere", 1}}},
       "reference 'money.proto' to nowhere version 1 not found"},
  };
  for (const Case& c : cases) {
    auto refused = registry.Register("t", c.content);
    ASSERT_FALSE(refused) << c.expect;
    EXPECT_EQ(refused.error().code, RegistryErrorCode::kInvalidSchema) << refused.error().message;
    EXPECT_NE(refused.error().message.find(c.expect), std::string::npos) << refused.error().message;
  }
  // What floe parses but does not read (another well-known import) is kept unchecked.
  SchemaContent duration{"PROTOBUF",
                         "syntax = \"proto3\"; import \"google/protobuf/duration.proto\"; import \"money.proto\"; "
                         "message D { google.protobuf.Duration d = 1; }",
                         {{"money.proto", "money.proto", 1}}};
  EXPECT_TRUE(registry.Register("d", duration).has_value());
}

TEST(SchemaRegistry, JsonSchemasAreValidatedRefsResolvedAndCompatibilityChecked) {
  MemoryLog log;
  SchemaRegistry registry(log);
  auto json = [](std::string schema, std::vector<SchemaReference> references = {}) {
    return SchemaContent{"JSON", std::move(schema), std::move(references)};
  };
  // Invalid: a keyword of the wrong shape, or a $ref that resolves nowhere, under every level.
  ASSERT_TRUE(registry.SetConfig("", CompatibilityLevel::kNone).has_value());
  auto bad_type = registry.Register("o", json(R"({"properties":{"id":{"type":"int"}}})"));
  ASSERT_FALSE(bad_type.has_value());
  EXPECT_EQ(bad_type.error().code, RegistryErrorCode::kInvalidSchema);
  EXPECT_NE(bad_type.error().message.find("#/properties/id/type: \"int\" is not a JSON Schema type"), std::string::npos)
      << bad_type.error().message;
  auto dangling = registry.Register("o", json(R"({"properties":{"a":{"$ref":"address.json"}}})"));
  ASSERT_FALSE(dangling.has_value());
  EXPECT_EQ(dangling.error().code, RegistryErrorCode::kInvalidSchema);
  EXPECT_NE(dangling.error().message.find("\"address.json\" at /properties/a/$ref names no schema reference"),
            std::string::npos)
      << dangling.error().message;
  // The compatibility route checks the schema too.
  EXPECT_EQ(registry.TestCompatibility("o", kLatestVersion, json(R"({"$ref":"#/definitions/x"})"), false).error().code,
            RegistryErrorCode::kInvalidSchema);
  ASSERT_TRUE(registry.SetConfig("", CompatibilityLevel::kBackward).has_value());

  // A reference whose document the $ref points into.
  constexpr char kAddress[] =
      R"({"type":"object","properties":{"zip":{"type":"integer"}},"additionalProperties":false})";
  ASSERT_EQ(registry.Register("address", json(kAddress)).value()["id"], 1);
  constexpr char kOrder[] =
      R"({"type":"object","properties":{"id":{"type":"integer"},"ship_to":{"$ref":"address.json"}},"additionalProperties":false})";
  ASSERT_EQ(registry.Register("order", json(kOrder, {{"address.json", "address", 1}})).value()["id"], 2);
  auto pointer_miss =
      registry.Register("order", json(R"({"$ref":"address.json#/properties/city"})", {{"address.json", "address", 1}}));
  ASSERT_FALSE(pointer_miss.has_value());
  EXPECT_EQ(pointer_miss.error().code, RegistryErrorCode::kInvalidSchema);

  // BACKWARD: an optional property added to the closed model is compatible.
  constexpr char kOrderWithNote[] =
      R"({"type":"object","properties":{"id":{"type":"integer"},"ship_to":{"$ref":"address.json"},"note":{"type":"string"}},"additionalProperties":false})";
  EXPECT_EQ(registry.Register("order", json(kOrderWithNote, {{"address.json", "address", 1}})).value()["id"], 3);
  // Narrowing id to a maximum is not; the verbose answer names where.
  constexpr char kNarrowed[] =
      R"({"type":"object","properties":{"id":{"type":"integer","maximum":10},"ship_to":{"$ref":"address.json"},"note":{"type":"string"}},"additionalProperties":false})";
  auto verdict =
      registry.TestCompatibility("order", kLatestVersion, json(kNarrowed, {{"address.json", "address", 1}}), true);
  ASSERT_TRUE(verdict.has_value());
  EXPECT_FALSE((*verdict)["is_compatible"].get<bool>());
  ASSERT_EQ((*verdict)["messages"].size(), 1u);
  EXPECT_EQ((*verdict)["messages"][0],
            "new schema cannot read data written with (existing schema 2 of 2, BACKWARD): #/properties/id/maximum: the "
            "reader adds the bound <= 10 the writer lacks");
  auto refused = registry.Register("order", json(kNarrowed, {{"address.json", "address", 1}}));
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, RegistryErrorCode::kIncompatibleSchema);
  // A change inside the referenced document, through a new version of the reference.
  constexpr char kStringZip[] =
      R"({"type":"object","properties":{"zip":{"type":"string"}},"additionalProperties":false})";
  ASSERT_TRUE(registry.SetConfig("address", CompatibilityLevel::kNone).has_value());
  ASSERT_EQ(registry.Register("address", json(kStringZip)).value()["id"], 4);
  verdict =
      registry.TestCompatibility("order", kLatestVersion, json(kOrderWithNote, {{"address.json", "address", 2}}), true);
  ASSERT_TRUE(verdict.has_value());
  EXPECT_FALSE((*verdict)["is_compatible"].get<bool>());
  EXPECT_NE((*verdict)["messages"][0].get<std::string>().find(
                "#/properties/ship_to/properties/zip/type: the writer's type 'integer' is not among the reader's "
                "['string']"),
            std::string::npos)
      << (*verdict)["messages"].dump();
  // FORWARD: the old schema must read the new one's data; removing from the closed model is fine.
  ASSERT_TRUE(registry.SetConfig("order", CompatibilityLevel::kForward).has_value());
  EXPECT_TRUE(registry.TestCompatibility("order", kLatestVersion, json(kOrder, {{"address.json", "address", 1}}), false)
                  .value()["is_compatible"]
                  .get<bool>());
  // A JSON reference to an Avro schema is invalid.
  ASSERT_TRUE(registry.Register("avro", Avro(std::string(kOrderV1))).has_value());
  auto cross = registry.Register("order", json(kOrder, {{"address.json", "avro", 1}}));
  ASSERT_FALSE(cross.has_value());
  EXPECT_EQ(cross.error().code, RegistryErrorCode::kInvalidSchema);
}

}  // namespace
}  // namespace floe::registry
