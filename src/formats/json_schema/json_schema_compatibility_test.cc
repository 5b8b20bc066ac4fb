#include "formats/json_schema/json_schema_compatibility.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

namespace floe::json_schema {
namespace {

JsonSchema Parse(std::string_view text, const std::vector<JsonSchemaDocument>& references = {}) {
  auto parsed = JsonSchema::Parse(text, references);
  EXPECT_TRUE(parsed) << parsed.error().message();
  return std::move(*parsed);
}

// The problems of `reader` reading what `writer` accepts, joined; "ok" when none.
std::string Read(std::string_view reader, std::string_view writer, const std::vector<JsonSchemaDocument>& refs = {}) {
  std::vector<std::string> problems = JsonSchemaReadProblems(Parse(reader, refs), Parse(writer, refs));
  if (problems.empty()) return "ok";
  std::string out;
  for (const std::string& p : problems) out += (out.empty() ? "" : " | ") + p;
  return out;
}

constexpr char kOpen[] = R"({"type":"object","properties":{"id":{"type":"integer"}}})";
constexpr char kOpenWithName[] = R"({"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}}})";
constexpr char kClosed[] = R"({"type":"object","properties":{"id":{"type":"integer"}},"additionalProperties":false})";
constexpr char kClosedWithName[] =
    R"({"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}},"additionalProperties":false})";

TEST(JsonSchemaCompatibility, SameSchemaAndTrivialCases) {
  EXPECT_EQ(Read(kOpenWithName, kOpenWithName), "ok");
  EXPECT_EQ(Read("true", kClosed), "ok");
  EXPECT_EQ(Read("{}", kClosed), "ok");
  EXPECT_EQ(Read(kClosed, "false"), "ok");
  EXPECT_EQ(Read("false", "true"), "#: the reader's schema is false (accepts nothing)");
  EXPECT_EQ(
      Read(kOpen, "true"),
      "#/type: the reader requires type ['object'] where the writer allows any type | #/properties/id: the reader "
      "constrains property 'id' where the writer's open content model allows any value under it");
}

TEST(JsonSchemaCompatibility, OpenContentModel) {
  // Adding a typed property to an open model: old data may hold anything under that name.
  EXPECT_EQ(Read(kOpenWithName, kOpen),
            "#/properties/name: the reader constrains property 'name' where the writer's open content model allows "
            "any value under it");
  // Adding one with an empty schema is fine; removing one from an open model is too.
  EXPECT_EQ(Read(R"({"type":"object","properties":{"id":{"type":"integer"},"name":{}}})", kOpen), "ok");
  EXPECT_EQ(Read(kOpen, kOpenWithName), "ok");
  // additionalProperties: true is the same as absent.
  EXPECT_EQ(Read(kOpen, R"({"type":"object","properties":{"id":{"type":"integer"}},"additionalProperties":true})"),
            "ok");
}

TEST(JsonSchemaCompatibility, ClosedContentModel) {
  // Adding to a closed model: old data never had it.
  EXPECT_EQ(Read(kClosedWithName, kClosed), "ok");
  // Removing from a closed model: old data may have it, the new model rejects it.
  EXPECT_EQ(Read(kClosed, kClosedWithName),
            "#/properties/name: the reader's closed content model rejects property 'name', which the writer allows");
  // Closing an open model breaks reading its data; opening a closed one does not.
  EXPECT_EQ(Read(kClosed, kOpen),
            "#/additionalProperties: the reader's content model is closed, the writer's is open: properties the "
            "writer allows are rejected");
  EXPECT_EQ(Read(kOpen, kClosed), "ok");
}

TEST(JsonSchemaCompatibility, PartiallyOpenContentModel) {
  constexpr char kStrings[] =
      R"({"type":"object","properties":{"id":{"type":"integer"}},"additionalProperties":{"type":"string"}})";
  // A string property added where the writer allowed strings under any other name.
  EXPECT_EQ(Read(R"({"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string","maxLength":9}},
                    "additionalProperties":{"type":"string"}})",
                 kStrings),
            "#/properties/name/maxLength: the reader adds maxLength 9 the writer lacks");
  EXPECT_EQ(Read(R"({"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}},
                    "additionalProperties":{"type":"string"}})",
                 kStrings),
            "ok");
  // A removed string property still read by the reader's additionalProperties.
  EXPECT_EQ(Read(kStrings, R"({"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}},
                    "additionalProperties":{"type":"string"}})"),
            "ok");
  EXPECT_EQ(Read(kStrings, R"({"type":"object","properties":{"id":{"type":"integer"},"n":{"type":"integer"}},
                    "additionalProperties":{"type":"string"}})"),
            "#/properties/n/type: the writer's type 'integer' is not among the reader's ['string']");
  // patternProperties cover names they match.
  constexpr char kPatterns[] =
      R"({"type":"object","properties":{"id":{"type":"integer"}},"patternProperties":{"^s_":{"type":"string"}},
          "additionalProperties":false})";
  EXPECT_EQ(Read(R"({"type":"object","properties":{"id":{"type":"integer"},"s_name":{"type":"string"}},
                    "patternProperties":{"^s_":{"type":"string"}},"additionalProperties":false})",
                 kPatterns),
            "ok");
  EXPECT_EQ(Read(R"({"type":"object","properties":{"id":{"type":"integer"},"s_name":{"type":"integer"}},
                    "patternProperties":{"^s_":{"type":"string"}},"additionalProperties":false})",
                 kPatterns),
            "#/properties/s_name/type: the writer's type 'string' is not among the reader's ['integer']");
  EXPECT_EQ(Read(kClosed, kPatterns),
            "#/patternProperties/^s_: properties matching \"^s_\" are allowed by the writer, rejected by the reader's "
            "closed content model");
  // A pattern std::regex cannot compile: floe cannot tell, so it is a problem.
  EXPECT_EQ(Read(R"({"properties":{"a":{}},"patternProperties":{"(":{"type":"string"}}})",
                 R"({"properties":{"a":{}},"patternProperties":{"(":{"type":"string"}}})"),
            "#/properties/a: floe cannot tell whether patternProperties \"(\" match 'a'");
}

TEST(JsonSchemaCompatibility, Required) {
  constexpr char kRequired[] = R"({"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]})";
  EXPECT_EQ(Read(kRequired, kOpen), "#/required: the reader requires 'id' (without a default), the writer does not");
  EXPECT_EQ(Read(kOpen, kRequired), "ok");
  EXPECT_EQ(Read(R"({"type":"object","properties":{"id":{"type":"integer","default":0}},"required":["id"]})", kOpen),
            "ok");
}

TEST(JsonSchemaCompatibility, Types) {
  EXPECT_EQ(Read(R"({"type":"number"})", R"({"type":"integer"})"), "ok");
  EXPECT_EQ(Read(R"({"type":"integer"})", R"({"type":"number"})"),
            "#/type: the writer's type 'number' is not among the reader's ['integer'] (number narrowed to integer)");
  EXPECT_EQ(Read(R"({"type":["string","null"]})", R"({"type":"string"})"), "ok");
  EXPECT_EQ(Read(R"({"type":"string"})", R"({"type":["string","null"]})"),
            "#/type: the writer's type 'null' is not among the reader's ['string']");
  EXPECT_EQ(Read(R"({"type":"string"})", R"({"type":"boolean"})"),
            "#/type: the writer's type 'boolean' is not among the reader's ['string']");
  // A writer's enum says what it writes.
  EXPECT_EQ(Read(R"({"type":"string"})", R"({"enum":["a","b"]})"), "ok");
}

TEST(JsonSchemaCompatibility, Enums) {
  EXPECT_EQ(Read(R"({"enum":["a","b","c"]})", R"({"enum":["a","b"]})"), "ok");
  EXPECT_EQ(Read(R"({"enum":["a"]})", R"({"enum":["a","b"]})"),
            "#/enum: the writer's value \"b\" is not among the reader's");
  EXPECT_EQ(Read(R"({"type":"string","enum":["a"]})", R"({"type":"string"})"),
            "#/enum: the reader allows only [\"a\"] where the writer has no enum");
  EXPECT_EQ(Read(R"({"const":1})", R"({"const":1})"), "ok");
  EXPECT_EQ(Read(R"({"const":1})", R"({"enum":[1,2]})"), "#/const: the writer's value 2 is not among the reader's");
}

TEST(JsonSchemaCompatibility, Bounds) {
  EXPECT_EQ(Read(R"({"type":"integer","minimum":0,"maximum":100})", R"({"type":"integer","minimum":1,"maximum":10})"),
            "ok");
  EXPECT_EQ(Read(R"({"type":"integer","minimum":5})", R"({"type":"integer","minimum":1})"),
            "#/minimum: the reader's bound >= 5 is narrower than the writer's >= 1");
  EXPECT_EQ(Read(R"({"type":"integer","maximum":5})", R"({"type":"integer"})"),
            "#/maximum: the reader adds the bound <= 5 the writer lacks");
  EXPECT_EQ(Read(R"({"exclusiveMaximum":5})", R"({"maximum":5})"),
            "#/exclusiveMaximum: the reader's bound < 5 is narrower than the writer's <= 5");
  EXPECT_EQ(Read(R"({"maximum":5})", R"({"exclusiveMaximum":5})"), "ok");
  // Draft 4's boolean exclusiveMinimum.
  EXPECT_EQ(Read(R"({"minimum":5,"exclusiveMinimum":true})", R"({"minimum":5})"),
            "#/exclusiveMinimum: the reader's bound > 5 is narrower than the writer's >= 5");
  EXPECT_EQ(Read(R"({"type":"string","maxLength":10})", R"({"type":"string","maxLength":5})"), "ok");
  EXPECT_EQ(Read(R"({"type":"string","maxLength":5})", R"({"type":"string","maxLength":10})"),
            "#/maxLength: the reader's maxLength 5 is below the writer's 10");
  EXPECT_EQ(Read(R"({"type":"string","minLength":2})", R"({"type":"string","minLength":1})"),
            "#/minLength: the reader's minLength 2 is above the writer's 1");
  EXPECT_EQ(Read(R"({"type":"string"})", R"({"type":"string","minLength":1,"maxLength":3})"), "ok");
  EXPECT_EQ(Read(R"({"type":"array","maxItems":3})", R"({"type":"array"})"),
            "#/maxItems: the reader adds maxItems 3 the writer lacks");
  EXPECT_EQ(Read(R"({"multipleOf":2})", R"({"multipleOf":4})"), "ok");
  EXPECT_EQ(Read(R"({"multipleOf":4})", R"({"multipleOf":2})"),
            "#/multipleOf: the reader's multipleOf 4 does not divide the writer's 2");
}

TEST(JsonSchemaCompatibility, KeywordsComparedForEquality) {
  EXPECT_EQ(Read(R"({"type":"string","pattern":"^a"})", R"({"type":"string","pattern":"^a"})"), "ok");
  EXPECT_EQ(Read(R"({"type":"string"})", R"({"type":"string","pattern":"^a"})"), "ok");
  EXPECT_EQ(Read(R"({"type":"string","pattern":"^a"})", R"({"type":"string"})"),
            "#/pattern: the reader's \"pattern\": \"^a\" is not the writer's (absent); floe compares it only for "
            "equality");
  EXPECT_EQ(
      Read(R"({"type":"string","format":"date"})", R"({"type":"string","format":"date-time"})"),
      "#/format: the reader's \"format\": \"date\" is not the writer's (\"date-time\"); floe compares it only for "
      "equality");
  EXPECT_EQ(Read(R"({"type":"array","uniqueItems":true})", R"({"type":"array"})"),
            "#/uniqueItems: the reader's \"uniqueItems\": true is not the writer's (absent); floe compares it only for "
            "equality");
  EXPECT_EQ(Read(R"({"type":"array","uniqueItems":false})", R"({"type":"array"})"), "ok");
  // Annotations change freely.
  EXPECT_EQ(
      Read(R"({"title":"A","description":"x","type":"string","connect.index":1})", R"({"title":"B","type":"string"})"),
      "ok");
}

TEST(JsonSchemaCompatibility, ArraysAndNestedObjects) {
  EXPECT_EQ(Read(R"({"type":"array","items":{"type":"number"}})", R"({"type":"array","items":{"type":"integer"}})"),
            "ok");
  EXPECT_EQ(Read(R"({"type":"array","items":{"type":"integer"}})", R"({"type":"array","items":{"type":"number"}})"),
            "#/items/type: the writer's type 'number' is not among the reader's ['integer'] (number narrowed to "
            "integer)");
  EXPECT_EQ(Read(R"({"type":"array","items":{"type":"integer"}})", R"({"type":"array"})"),
            "#/items: the reader constrains array items the writer allows with any value");
  // Tuples: by position, then additionalItems.
  EXPECT_EQ(Read(R"({"type":"array","items":[{"type":"string"},{"type":"number"}]})",
                 R"({"type":"array","items":[{"type":"string"},{"type":"integer"}],"additionalItems":false})"),
            "ok");
  EXPECT_EQ(
      Read(R"({"type":"array","items":[{"type":"string"}],"additionalItems":false})",
           R"({"type":"array","items":[{"type":"string"},{"type":"integer"}]})"),
      "#/items/1: the reader's schema is false (accepts nothing) | #/additionalItems: the reader constrains array "
      "items the writer allows with any value");
  // Nested objects, recursively, with the pointer of the change.
  EXPECT_EQ(Read(R"({"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"array",
                    "items":{"type":"object","properties":{"c":{"type":"integer"}},"additionalProperties":false}}}}}})",
                 R"({"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"array",
                    "items":{"type":"object","properties":{"c":{"type":"string"}},"additionalProperties":false}}}}}})"),
            "#/properties/a/properties/b/items/properties/c/type: the writer's type 'string' is not among the "
            "reader's ['integer']");
}

TEST(JsonSchemaCompatibility, Combinators) {
  // A member added to the reader's oneOf reads more; one removed reads less.
  EXPECT_EQ(Read(R"({"oneOf":[{"type":"string"},{"type":"null"}]})", R"({"oneOf":[{"type":"string"}]})"), "ok");
  EXPECT_EQ(Read(R"({"oneOf":[{"type":"string"}]})", R"({"oneOf":[{"type":"string"},{"type":"null"}]})"),
            "#/oneOf: the writer's oneOf member 1 is accepted by no member of the reader's oneOf");
  EXPECT_EQ(Read(R"({"anyOf":[{"type":"string"},{"type":"integer"}]})", R"({"type":"integer"})"), "ok");
  EXPECT_EQ(Read(R"({"type":["string","integer"]})", R"({"anyOf":[{"type":"string"},{"type":"integer"}]})"), "ok");
  EXPECT_EQ(Read(R"({"anyOf":[{"type":"string"},{"type":"integer"}]})", R"({"type":"boolean"})"),
            "#/anyOf: no member of the reader's anyOf accepts what the writer's schema allows");
  // A changed member is reported with what changed in it.
  EXPECT_EQ(Read(R"({"oneOf":[{"type":"string","maxLength":3},{"type":"null"}]})",
                 R"({"oneOf":[{"type":"string"},{"type":"null"}]})"),
            "#/oneOf/0/maxLength: the reader adds maxLength 3 the writer lacks | #/oneOf: the writer's oneOf member 0 "
            "is accepted by no member of the reader's oneOf");
  EXPECT_EQ(Read(R"({"allOf":[{"type":"object"},{"required":["a"]}]})", R"({"type":"object"})"),
            "#/allOf/1/required: the reader requires 'a' (without a default), the writer does not");
  EXPECT_EQ(Read(R"({"type":"object"})", R"({"allOf":[{"type":"object"},{"required":["a"]}]})"), "ok");
  // not: the other way round.
  EXPECT_EQ(Read(R"({"not":{"type":"string"}})", R"({"not":{"type":["string","null"]}})"), "ok");
  EXPECT_EQ(Read(R"({"not":{"type":["string","null"]}})", R"({"not":{"type":"string"}})"),
            "#/not/type: the writer's type 'null' is not among the reader's ['string']");
}

TEST(JsonSchemaCompatibility, RefsAreFollowedIntoReferencedDocuments) {
  const std::vector<JsonSchemaDocument> v1 = {
      {"address.json", R"({"type":"object","properties":{"zip":{"type":"integer"}},"additionalProperties":false})"}};
  const std::vector<JsonSchemaDocument> v2 = {
      {"address.json", R"({"type":"object","properties":{"zip":{"type":"string"}},"additionalProperties":false})"}};
  constexpr char kCustomer[] = R"({"type":"object","properties":{"address":{"$ref":"address.json"}}})";
  std::vector<std::string> problems = JsonSchemaReadProblems(Parse(kCustomer, v2), Parse(kCustomer, v1));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0],
            "#/properties/address/properties/zip/type: the writer's type 'integer' is not among the reader's "
            "['string']");
  EXPECT_TRUE(JsonSchemaReadProblems(Parse(kCustomer, v1), Parse(kCustomer, v1)).empty());
  // Local definitions, and a $ref on one side only.
  EXPECT_EQ(Read(R"({"properties":{"a":{"$ref":"#/definitions/N"}},"definitions":{"N":{"type":"number"}}})",
                 R"({"properties":{"a":{"type":"integer"}}})"),
            "ok");
  // Recursive schemas end: a pair already being compared is assumed compatible.
  constexpr char kTree[] =
      R"({"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#"}}}})";
  constexpr char kWiderTree[] =
      R"({"type":"object","properties":{"v":{"type":"number"},"kids":{"type":"array","items":{"$ref":"#"}}}})";
  EXPECT_EQ(Read(kWiderTree, kTree), "ok");
  EXPECT_EQ(Read(kTree, kWiderTree),
            "#/properties/v/type: the writer's type 'number' is not among the reader's ['integer'] (number narrowed to "
            "integer)");
  // A $ref chain longer than 32 hops is reported, not followed forever.
  std::string chain = R"({"$ref":"#/definitions/d0","definitions":{)";
  for (int i = 0; i < 40; ++i) chain += fmt::format(R"("d{}":{{"$ref":"#/definitions/d{}"}},)", i, i + 1);
  chain += R"("d40":{"type":"string"}}})";
  EXPECT_EQ(Read(chain, R"({"type":"string"})"),
            "#: the reader's \"$ref\"s lead through more than 32 others in a row: not compared");
  // Anchors are not resolved: conservative.
  EXPECT_EQ(Read(R"({"$ref":"#a"})", "true"), "#: the reader's \"$ref\": \"#a\" resolves to no schema floe can follow");
}

TEST(JsonSchemaCompatibility, DeepNestingAndExponentialWorkAreBounded) {
  // 100,000 nested objects: compared down to kMaxDepth, then reported, never a stack overflow.
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += R"({"type":"object","properties":{"a":)";
  deep += "{}";
  for (int i = 0; i < 100000; ++i) deep += "}}";
  std::vector<std::string> problems = JsonSchemaReadProblems(Parse(deep), Parse(deep));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("nested deeper than 128 levels: not compared"), std::string::npos) << problems[0];
  EXPECT_TRUE(problems[0].starts_with("#/properties/a/properties/a/")) << problems[0].substr(0, 100);
  // Definitions that each use the next twice: 2^30 paths, cut by the step budget.
  std::string doubling = R"({"$ref":"#/definitions/d0","definitions":{)";
  for (int i = 0; i < 30; ++i) {
    doubling += fmt::format(
        R"("d{0}":{{"anyOf":[{{"$ref":"#/definitions/d{1}"}},{{"type":"array","items":{{"$ref":"#/definitions/d{1}"}}}}]}},)",
        i, i + 1);
  }
  doubling += R"("d30":{"type":"string"}}})";
  const auto started = std::chrono::steady_clock::now();
  problems = JsonSchemaReadProblems(Parse(doubling), Parse(doubling));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
  ASSERT_FALSE(problems.empty());
  // Conservative: cut short is incompatible, and says so.
  EXPECT_TRUE(std::any_of(problems.begin(), problems.end(), [](const std::string& p) {
    return p.ends_with(": more than 100000 comparisons: not compared further");
  })) << problems.front();
}

}  // namespace
}  // namespace floe::json_schema
