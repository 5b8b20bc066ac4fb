#include "formats/json_schema/json_schema_references.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace floe::json_schema {
namespace {

constexpr char kAddress[] = R"({"type":"object","properties":{"city":{"type":"string"}},
  "definitions":{"Zip":{"type":"string","pattern":"^[0-9]+$"}}})";
constexpr char kCustomer[] = R"({"$id":"https://example.com/schemas/customer.json","type":"object",
  "properties":{"name":{"type":"string"},"address":{"$ref":"address.json"}}})";

std::string ReferencesMessage(std::string_view schema, const std::vector<JsonSchemaDocument>& references) {
  Status ok = CheckJsonSchemaReferences(schema, references);
  return ok ? "ok" : ok.error().message();
}

TEST(JsonSchemaReferences, RefsResolveByReferenceNameIdAndPointer) {
  const std::vector<JsonSchemaDocument> references = {
      {"address.json", kAddress}, {"https://example.com/schemas/address.json", kAddress}, {"customer.json", kCustomer}};
  // By name, into a referenced document by pointer, local, by $id, and from a referenced
  // document relative to its own $id.
  EXPECT_EQ(ReferencesMessage(R"({"type":"object","properties":{
      "ship_to":{"$ref":"address.json"},
      "zip":{"$ref":"address.json#/definitions/Zip"},
      "bill_to":{"$ref":"#/definitions/Local"},
      "who":{"$ref":"https://example.com/schemas/customer.json"},
      "items":{"type":"array","items":[{"$ref":"customer.json#/properties/name"}]},
      "status":{"enum":[{"$ref":"not a reference, data"}]}},
    "definitions":{"Local":{"type":"string"}}})",
                              references),
            "ok");
  EXPECT_EQ(ReferencesMessage(R"({"$ref":"#"})", {}), "ok");
  EXPECT_EQ(ReferencesMessage("true", {}), "ok");
}

TEST(JsonSchemaReferences, UnresolvedRefsAreNamedWithTheirPlace) {
  const std::vector<JsonSchemaDocument> references = {{"address.json", kAddress}};
  EXPECT_EQ(ReferencesMessage(R"({"properties":{"a~b/c":{"$ref":"money.json"}}})", references),
            "the schema: \"$ref\": \"money.json\" at /properties/a~0b~1c/$ref names no schema reference "
            "(references: 'address.json')");
  EXPECT_EQ(ReferencesMessage(R"({"items":[{"type":"string"},{"$ref":"address.json#/definitions/Nope"}]})", references),
            "the schema: \"$ref\": \"address.json#/definitions/Nope\" at /items/1/$ref: reference 'address.json' has "
            "nothing at #/definitions/Nope");
  EXPECT_EQ(ReferencesMessage(R"({"$ref":"#/definitions/x"})", {}),
            "the schema: \"$ref\": \"#/definitions/x\" at /$ref: the schema has nothing at #/definitions/x");
  EXPECT_EQ(ReferencesMessage(R"({"$ref":"#/bad~pointer"})", {}),
            "the schema: \"$ref\": \"#/bad~pointer\" at /$ref: the schema has nothing at #/bad~pointer");
  // A referenced document's own $ref is checked too.
  EXPECT_EQ(ReferencesMessage(R"({"$ref":"customer.json"})", {{"customer.json", kCustomer}}),
            "reference 'customer.json': \"$ref\": \"address.json\" at /properties/address/$ref names no schema "
            "reference (references: 'customer.json')");
  EXPECT_EQ(ReferencesMessage(R"({"$ref":"x.json"})", {}),
            "the schema: \"$ref\": \"x.json\" at /$ref names no schema reference (references: none)");
}

TEST(JsonSchemaReferences, GarbageTruncationAndDeepNesting) {
  const std::string schema = R"({"type":"object","properties":{"a":{"$ref":"address.json#/properties/city"}}})";
  const std::vector<JsonSchemaDocument> references = {{"address.json", kAddress}};
  ASSERT_EQ(ReferencesMessage(schema, references), "ok");
  // Every cut of either document is an error naming which one is not JSON.
  for (size_t n = 0; n < schema.size(); ++n) {
    EXPECT_EQ(ReferencesMessage(schema.substr(0, n), references), "the schema is not JSON") << n;
  }
  const std::string address = kAddress;
  for (size_t n = 0; n < address.size(); ++n) {
    const std::string cut = address.substr(0, n);
    EXPECT_EQ(ReferencesMessage(schema, {{"address.json", cut}}), "reference 'address.json' is not JSON") << n;
  }
  EXPECT_EQ(ReferencesMessage("\xff\xfe{", {}), "the schema is not JSON");
  // Nesting far past any recursion limit: walked without recursion, the deep $ref found.
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += R"({"not":)";
  deep += R"({"$ref":"gone.json"})";
  deep += std::string(100000, '}');
  const std::string message = ReferencesMessage(deep, references);
  EXPECT_NE(message.find("\"gone.json\" at /not/not/not"), std::string::npos) << message.substr(0, 200);
}

}  // namespace
}  // namespace floe::json_schema
