#include "registry/compatibility.h"

#include <gtest/gtest.h>

namespace floe::registry {
namespace {

avro::AvroSchema ParseAvro(std::string_view text) {
  auto schema = avro::AvroSchema::Parse(text);
  EXPECT_TRUE(schema.has_value()) << (schema ? "" : schema.error().message());
  return std::move(*schema);
}

bool Reads(std::string_view reader, std::string_view writer) {
  return AvroReadProblems(ParseAvro(reader).root(), ParseAvro(writer).root()).empty();
}

constexpr std::string_view kV1 = R"({"type":"record","name":"Order","fields":[{"name":"id","type":"long"}]})";
constexpr std::string_view kV2WithDefault =
    R"({"type":"record","name":"Order","fields":[{"name":"id","type":"long"},{"name":"note","type":"string","default":""}]})";
constexpr std::string_view kV2NoDefault =
    R"({"type":"record","name":"Order","fields":[{"name":"id","type":"long"},{"name":"note","type":"string"}]})";

TEST(AvroReadProblems, AddedFieldNeedsADefault) {
  EXPECT_TRUE(Reads(kV2WithDefault, kV1));
  EXPECT_FALSE(Reads(kV2NoDefault, kV1));
  // A removed field is dropped by the reader.
  EXPECT_TRUE(Reads(kV1, kV2NoDefault));
}

TEST(AvroReadProblems, Promotions) {
  EXPECT_TRUE(Reads(R"("long")", R"("int")"));
  EXPECT_TRUE(Reads(R"("double")", R"("int")"));
  EXPECT_TRUE(Reads(R"("float")", R"("long")"));
  EXPECT_TRUE(Reads(R"("double")", R"("float")"));
  EXPECT_TRUE(Reads(R"("bytes")", R"("string")"));
  EXPECT_TRUE(Reads(R"("string")", R"("bytes")"));
  EXPECT_FALSE(Reads(R"("int")", R"("long")"));
  EXPECT_FALSE(Reads(R"("float")", R"("double")"));
  EXPECT_FALSE(Reads(R"("string")", R"("int")"));
}

TEST(AvroReadProblems, Unions) {
  EXPECT_TRUE(Reads(R"(["null","string"])", R"("string")"));
  EXPECT_FALSE(Reads(R"("string")", R"(["null","string"])"));
  EXPECT_TRUE(Reads(R"(["null","long"])", R"(["null","int"])"));
  EXPECT_FALSE(Reads(R"(["null","int"])", R"(["null","long"])"));
}

TEST(AvroReadProblems, EnumsArraysMapsFixed) {
  EXPECT_TRUE(Reads(R"({"type":"enum","name":"E","symbols":["A","B"]})", R"({"type":"enum","name":"E","symbols":["A"]})"));
  EXPECT_FALSE(Reads(R"({"type":"enum","name":"E","symbols":["A"]})", R"({"type":"enum","name":"E","symbols":["A","B"]})"));
  EXPECT_TRUE(Reads(R"({"type":"array","items":"long"})", R"({"type":"array","items":"int"})"));
  EXPECT_FALSE(Reads(R"({"type":"map","values":"int"})", R"({"type":"map","values":"string"})"));
  EXPECT_FALSE(Reads(R"({"type":"fixed","name":"F","size":4})", R"({"type":"fixed","name":"F","size":8})"));
  EXPECT_FALSE(Reads(R"({"type":"record","name":"A","fields":[]})", R"({"type":"record","name":"B","fields":[]})"));
}

TEST(AvroReadProblems, RecursiveTypesTerminate) {
  constexpr std::string_view kList =
      R"({"type":"record","name":"Node","fields":[{"name":"value","type":"int"},{"name":"next","type":["null","Node"]}]})";
  EXPECT_TRUE(Reads(kList, kList));
}

TEST(AvroCompatibilityProblems, Levels) {
  avro::AvroSchema v1 = ParseAvro(kV1);
  avro::AvroSchema no_default = ParseAvro(kV2NoDefault);
  avro::AvroSchema with_default = ParseAvro(kV2WithDefault);
  std::vector<const avro::AvroNode*> existing = {&v1.root()};
  // Adding a field without a default: not backward (new reader, old data) but forward.
  EXPECT_FALSE(AvroCompatibilityProblems(CompatibilityLevel::kBackward, no_default.root(), existing).empty());
  EXPECT_TRUE(AvroCompatibilityProblems(CompatibilityLevel::kForward, no_default.root(), existing).empty());
  EXPECT_FALSE(AvroCompatibilityProblems(CompatibilityLevel::kFull, no_default.root(), existing).empty());
  EXPECT_TRUE(AvroCompatibilityProblems(CompatibilityLevel::kFull, with_default.root(), existing).empty());
  EXPECT_TRUE(AvroCompatibilityProblems(CompatibilityLevel::kNone, no_default.root(), existing).empty());

  // Transitive levels look past the latest version: v1 {id}, v2 {id, note} then v3 {note}
  // without id is backward of v2 (the removed field is dropped)... and of v1 only if `note`
  // has a default.
  avro::AvroSchema only_note =
      ParseAvro(R"({"type":"record","name":"Order","fields":[{"name":"note","type":"string"}]})");
  std::vector<const avro::AvroNode*> history = {&v1.root(), &with_default.root()};
  EXPECT_TRUE(AvroCompatibilityProblems(CompatibilityLevel::kBackward, only_note.root(), history).empty());
  EXPECT_FALSE(AvroCompatibilityProblems(CompatibilityLevel::kBackwardTransitive, only_note.root(), history).empty());
  EXPECT_FALSE(AvroCompatibilityProblems(CompatibilityLevel::kFullTransitive, only_note.root(), history).empty());
  EXPECT_FALSE(AvroCompatibilityProblems(CompatibilityLevel::kForwardTransitive, only_note.root(), history).empty());
}

TEST(CompatibilityLevelNames, RoundTrip) {
  for (std::string_view name : {"NONE", "BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD", "FORWARD_TRANSITIVE", "FULL",
                                "FULL_TRANSITIVE"}) {
    auto level = ParseCompatibilityLevel(name);
    ASSERT_TRUE(level.has_value()) << name;
    EXPECT_EQ(CompatibilityLevelName(*level), name);
  }
  EXPECT_FALSE(ParseCompatibilityLevel("backward").has_value());
}

}  // namespace
}  // namespace floe::registry
