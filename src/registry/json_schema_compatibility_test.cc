#include "registry/json_schema_compatibility.h"

#include <gtest/gtest.h>

namespace floe::registry {
namespace {

json_schema::JsonSchema ParseJsonSchema(std::string_view text) {
  auto parsed = json_schema::JsonSchema::Parse(text, {});
  EXPECT_TRUE(parsed) << parsed.error().message();
  return std::move(*parsed);
}

TEST(JsonSchemaCompatibilityLevels, EachLevelChecksItsDirectionsAndVersions) {
  // v1 open {id}; v2 adds an optional property with an empty schema (fine both ways);
  // the candidate adds a required typed property to a closed model.
  const auto v1 =
      ParseJsonSchema(R"({"type":"object","properties":{"id":{"type":"integer"}},"additionalProperties":false})");
  const auto v2 =
      ParseJsonSchema(R"({"type":"object","properties":{"id":{"type":"number"}},"additionalProperties":false})");
  const auto narrower =
      ParseJsonSchema(R"({"type":"object","properties":{"id":{"type":"integer"}},"additionalProperties":false})");
  const std::vector<const json_schema::JsonSchema*> existing = {&v1, &v2};
  // BACKWARD against v2 only: integer cannot read number.
  auto backward = JsonSchemaCompatibilityProblems(CompatibilityLevel::kBackward, narrower, existing);
  ASSERT_EQ(backward.size(), 1u);
  EXPECT_EQ(backward[0],
            "new schema cannot read data written with (existing schema 2 of 2, BACKWARD): #/properties/id/type: the "
            "writer's type 'number' is not among the reader's ['integer'] (number narrowed to integer)");
  // FORWARD: v2 (number) reads integers.
  EXPECT_TRUE(JsonSchemaCompatibilityProblems(CompatibilityLevel::kForward, narrower, existing).empty());
  EXPECT_EQ(JsonSchemaCompatibilityProblems(CompatibilityLevel::kFull, narrower, existing).size(), 1u);
  EXPECT_TRUE(JsonSchemaCompatibilityProblems(CompatibilityLevel::kNone, narrower, existing).empty());
  // Transitive levels reach v1: a number candidate reads v1's integers but v1 cannot read it.
  const auto wider =
      ParseJsonSchema(R"({"type":"object","properties":{"id":{"type":"number"}},"additionalProperties":false})");
  EXPECT_TRUE(JsonSchemaCompatibilityProblems(CompatibilityLevel::kForward, wider, existing).empty());
  auto transitive = JsonSchemaCompatibilityProblems(CompatibilityLevel::kForwardTransitive, wider, existing);
  ASSERT_EQ(transitive.size(), 1u);
  EXPECT_NE(transitive[0].find("data written with the new schema cannot be read by (existing schema 1 of 2, "
                               "FORWARD_TRANSITIVE): #/properties/id/type"),
            std::string::npos)
      << transitive[0];
  EXPECT_TRUE(JsonSchemaCompatibilityProblems(CompatibilityLevel::kBackwardTransitive, wider, existing).empty());
  EXPECT_EQ(JsonSchemaCompatibilityProblems(CompatibilityLevel::kFullTransitive, wider, existing).size(), 1u);
}

}  // namespace
}  // namespace floe::registry
