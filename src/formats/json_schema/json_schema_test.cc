#include "formats/json_schema/json_schema.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace floe::json_schema {
namespace {

std::string Message(std::string_view text, const std::vector<JsonSchemaDocument>& references = {}) {
  auto parsed = JsonSchema::Parse(text, references);
  return parsed ? "ok" : parsed.error().message();
}

TEST(JsonSchema, ParsesObjectsAndBooleansWithWellShapedKeywords) {
  EXPECT_EQ(Message("true"), "ok");
  EXPECT_EQ(Message("{}"), "ok");
  EXPECT_EQ(Message(R"({"type":["string","null"],"maxLength":3,"minimum":-1.5,"exclusiveMinimum":true,
    "properties":{"a":{"items":[{"type":"integer"},true],"additionalItems":false}},"required":["a"],
    "oneOf":[{"enum":[1,"x",null]},{"not":{"const":2}}],"x-vendor":{"type":7}})"),
            "ok");
}

TEST(JsonSchema, RefusesWhatIsNotASchemaNamingWhere) {
  EXPECT_EQ(Message("[]"), "the schema is not a JSON Schema: a schema is an object or a boolean");
  EXPECT_EQ(Message("12"), "the schema is not a JSON Schema: a schema is an object or a boolean");
  EXPECT_EQ(Message(R"({"properties":{"a":{"type":"strin"}}})"),
            "the schema: #/properties/a/type: \"strin\" is not a JSON Schema type (array, boolean, integer, null, "
            "number, object, string)");
  EXPECT_EQ(Message(R"({"properties":[]})"), "the schema: #/properties: \"properties\" must be an object of schemas");
  EXPECT_EQ(Message(R"({"properties":{"a/b":3}})"),
            "the schema: #/properties/a~1b: a schema must be an object or a boolean");
  EXPECT_EQ(Message(R"({"required":"a"})"), "the schema: #/required: \"required\" must be an array of property names");
  EXPECT_EQ(Message(R"({"maxLength":-1})"), "the schema: #/maxLength: \"maxLength\" must be a non-negative integer");
  EXPECT_EQ(Message(R"({"minItems":1.5})"), "the schema: #/minItems: \"minItems\" must be a non-negative integer");
  EXPECT_EQ(Message(R"({"oneOf":[]})"), "the schema: #/oneOf: \"oneOf\" must be a non-empty array of schemas");
  EXPECT_EQ(Message(R"({"items":{"additionalProperties":1}})"),
            "the schema: #/items/additionalProperties: \"additionalProperties\" must be a schema (an object or a "
            "boolean)");
  EXPECT_EQ(Message(R"({"multipleOf":0})"), "the schema: #/multipleOf: \"multipleOf\" must be a number greater than 0");
  EXPECT_EQ(Message(R"({"$ref":"#/definitions/nope"})"),
            "the schema: \"$ref\": \"#/definitions/nope\" at /$ref: the schema has nothing at #/definitions/nope");
  EXPECT_EQ(Message(R"({"$ref":"a.json"})", {{"a.json", R"({"type":"nope"})"}}),
            "reference 'a.json': #/type: \"nope\" is not a JSON Schema type (array, boolean, integer, null, number, "
            "object, string)");
}

TEST(JsonSchema, ResolvesRefsByNameIdAndPointer) {
  const std::vector<JsonSchemaDocument> references = {
      {"a.json", R"({"$id":"https://x.org/s/a.json","definitions":{"D":{"type":"string"}}})"}};
  auto parsed = JsonSchema::Parse(R"({"$ref":"a.json#/definitions/D"})", references);
  ASSERT_TRUE(parsed) << parsed.error().message();
  auto by_name = parsed->Resolve(0, "a.json#/definitions/D");
  ASSERT_TRUE(by_name);
  EXPECT_EQ(by_name->document, 1u);
  EXPECT_EQ(by_name->node->dump(), R"({"type":"string"})");
  auto by_id = parsed->Resolve(0, "https://x.org/s/a.json");
  ASSERT_TRUE(by_id);
  EXPECT_EQ(by_id->document, 1u);
  EXPECT_TRUE(parsed->Resolve(1, "#/definitions/D"));
  EXPECT_FALSE(parsed->Resolve(0, "#/definitions/D"));
  EXPECT_FALSE(parsed->Resolve(0, "a.json#anchor"));
  EXPECT_FALSE(parsed->Resolve(0, "b.json"));
}

TEST(JsonSchema, GarbageTruncationOversizeAndDeepNesting) {
  const std::string schema = R"({"type":"object","properties":{"a":{"type":"string","maxLength":3}},"required":["a"]})";
  ASSERT_EQ(Message(schema), "ok");
  for (size_t n = 0; n < schema.size(); ++n) EXPECT_NE(Message(schema.substr(0, n)), "ok") << n;
  EXPECT_EQ(Message("\xff\xfe{"), "the schema is not JSON");
  // 100,000 nested objects: checked with a stack of our own, a bad keyword at the bottom found.
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += R"({"not":)";
  deep += R"({"type":"nope"})";
  deep += std::string(100000, '}');
  const std::string message = Message(deep);
  EXPECT_NE(message.find("/not/not/type: \"nope\" is not a JSON Schema type"), std::string::npos)
      << message.substr(0, 200);
  // A wide schema: 100,000 properties.
  std::string wide = R"({"properties":{)";
  for (int i = 0; i < 100000; ++i) {
    if (i > 0) wide += ',';
    wide += fmt::format(R"("p{}":{{"type":"integer"}})", i);
  }
  wide += "}}";
  EXPECT_EQ(Message(wide), "ok");
}

}  // namespace
}  // namespace floe::json_schema
