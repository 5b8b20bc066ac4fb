#include "registry/registry_request.h"

#include <gtest/gtest.h>

namespace floe::registry {
namespace {

RegistryErrorCode CodeOf(std::string_view body) {
  auto parsed = ParseSchemaRequest(body);
  EXPECT_FALSE(parsed.has_value()) << body;
  return parsed ? RegistryErrorCode::kBadRequest : parsed.error().code;
}

TEST(ParseSchemaRequest, AcceptsTheThreeTypesAndReferences) {
  auto avro = ParseSchemaRequest(R"({"schema":"\"string\""})");
  ASSERT_TRUE(avro.has_value());
  EXPECT_EQ(avro->schema_type, "AVRO");
  auto proto = ParseSchemaRequest(
      R"({"schemaType":"PROTOBUF","schema":"syntax = \"proto3\"; message M {}","references":[{"name":"a.proto","subject":"a","version":1}]})");
  ASSERT_TRUE(proto.has_value());
  EXPECT_EQ(proto->schema_type, "PROTOBUF");
  ASSERT_EQ(proto->references.size(), 1u);
  EXPECT_EQ(proto->references[0].subject, "a");
}

TEST(ParseSchemaRequest, BadInputHasItsCode) {
  EXPECT_EQ(CodeOf("not json"), RegistryErrorCode::kBadRequest);
  EXPECT_EQ(CodeOf(R"({"schema":"\"str)"), RegistryErrorCode::kBadRequest);  // Truncated.
  EXPECT_EQ(CodeOf("[1,2]"), RegistryErrorCode::kBadRequest);
  EXPECT_EQ(CodeOf(std::string(100000, '[') + std::string(100000, ']')), RegistryErrorCode::kBadRequest);
  EXPECT_EQ(CodeOf(R"({"schemaType":"THRIFT","schema":"{}"})"), RegistryErrorCode::kInvalidSchema);
  EXPECT_EQ(CodeOf(R"({"schema":42})"), RegistryErrorCode::kInvalidSchema);
  EXPECT_EQ(CodeOf(R"({"nothing":"here"})"), RegistryErrorCode::kInvalidSchema);
  std::string oversize = R"({"schema":")" + std::string(kMaxSchemaBytes + 1, 'x') + R"("})";
  EXPECT_EQ(CodeOf(oversize), RegistryErrorCode::kInvalidSchema);
  EXPECT_EQ(CodeOf(R"({"schema":"{}","references":[{"name":1}]})"), RegistryErrorCode::kBadRequest);
}

TEST(CheckSchema, AvroMustParseAndIsCanonical) {
  auto bad = CheckSchema({"AVRO", R"({"type":"record","name":"R","fields":[{"name":"a","type":"nosuch"}]})", {}});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, RegistryErrorCode::kInvalidSchema);
  EXPECT_EQ(bad.error().HttpStatus(), 422);
  auto garbage = CheckSchema({"AVRO", "{not json", {}});
  ASSERT_FALSE(garbage.has_value());
  EXPECT_EQ(garbage.error().code, RegistryErrorCode::kInvalidSchema);
  // A schema nested deeper than any real one is refused before a parser recurses into it.
  auto deep = CheckSchema({"AVRO", std::string(10000, '[') + std::string(10000, ']'), {}});
  ASSERT_FALSE(deep.has_value());
  EXPECT_EQ(deep.error().code, RegistryErrorCode::kInvalidSchema);

  auto spaced = CheckSchema({"AVRO", R"({ "type" : "record", "name":"R", "fields" : [ {"name":"a","type":"int"} ] })", {}});
  auto tight = CheckSchema({"AVRO", R"({"name":"R","type":"record","fields":[{"type":"int","name":"a"}]})", {}});
  ASSERT_TRUE(spaced.has_value());
  ASSERT_TRUE(tight.has_value());
  EXPECT_EQ(spaced->content.schema, tight->content.schema);
  EXPECT_TRUE(spaced->avro.has_value());
}

TEST(CheckSchema, JsonAndProtobuf) {
  EXPECT_TRUE(CheckSchema({"JSON", R"({"type":"object"})", {}}).has_value());
  EXPECT_FALSE(CheckSchema({"JSON", "[1", {}}).has_value());
  EXPECT_TRUE(CheckSchema({"PROTOBUF", "syntax = \"proto3\"; message M { int32 a = 1; }", {}}).has_value());
  EXPECT_FALSE(CheckSchema({"PROTOBUF", "  ", {}}).has_value());
}

TEST(ParseVersion, NumbersAndLatest) {
  EXPECT_EQ(ParseVersion("3").value(), 3);
  EXPECT_EQ(ParseVersion("latest").value(), kLatestVersion);
  EXPECT_EQ(ParseVersion("-1").value(), kLatestVersion);
  for (std::string_view bad : {"0", "-2", "x", "1x", "99999999999"}) {
    auto parsed = ParseVersion(bad);
    ASSERT_FALSE(parsed.has_value()) << bad;
    EXPECT_EQ(parsed.error().code, RegistryErrorCode::kInvalidVersion);
  }
}

TEST(ParseConfigAndMode, Codes) {
  EXPECT_EQ(ParseConfigRequest(R"({"compatibility":"FULL"})").value(), CompatibilityLevel::kFull);
  EXPECT_EQ(ParseConfigRequest(R"({"compatibility":"SOMETIMES"})").error().code,
            RegistryErrorCode::kInvalidCompatibilityLevel);
  EXPECT_EQ(ParseConfigRequest("{").error().code, RegistryErrorCode::kBadRequest);
  EXPECT_EQ(ParseModeRequest(R"({"mode":"READONLY"})").value(), "READONLY");
  EXPECT_EQ(ParseModeRequest(R"({"mode":"SLEEPY"})").error().code, RegistryErrorCode::kInvalidMode);
}

TEST(RegistryError, StatusAndBody) {
  RegistryError error{RegistryErrorCode::kSubjectNotFound, "Subject 'x' not found."};
  EXPECT_EQ(error.HttpStatus(), 404);
  EXPECT_EQ(error.ToJson(), R"({"error_code":40401,"message":"Subject 'x' not found."})");
  EXPECT_EQ((RegistryError{RegistryErrorCode::kIncompatibleSchema, ""}.HttpStatus()), 409);
  EXPECT_EQ((RegistryError{RegistryErrorCode::kStoreError, ""}.HttpStatus()), 500);
}

}  // namespace
}  // namespace floe::registry
