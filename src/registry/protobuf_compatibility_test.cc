#include "registry/protobuf_compatibility.h"

#include <gtest/gtest.h>

#include "registry/registry_request.h"
#include "registry/schema_registry.h"

namespace floe::registry {
namespace {

protobuf::ProtoSchema ParseProto(std::string_view text) {
  auto schema = protobuf::ProtoSchema::Parse(text);
  EXPECT_TRUE(schema.has_value()) << schema.error().message();
  return std::move(*schema);
}

std::vector<std::string> Problems(CompatibilityLevel level, std::string_view candidate, std::string_view existing) {
  protobuf::ProtoSchema c = ParseProto(candidate), e = ParseProto(existing);
  return ProtobufCompatibilityProblems(level, c, {&e});
}

constexpr char kProtoV1[] = R"(syntax = "proto3"; package p;
message Order { int64 id = 1; string note = 2; repeated string tags = 3; message A { int32 n = 1; } A a = 4;
  oneof pay { string card = 5; int64 voucher = 6; } })";

TEST(ProtobufCompatibility, WireCompatibleChangesPass) {
  // Renames, added and removed fields, int32 <-> int64, string <-> bytes, a new message.
  constexpr char kV2[] = R"(syntax = "proto3"; package p;
message Order { int32 id = 1; bytes remark = 2; message A { int64 n = 1; } A a = 4;
  oneof pay { string card = 5; int64 voucher = 6; } optional double total = 7; }
message Refund { int64 id = 1; })";
  EXPECT_TRUE(Problems(CompatibilityLevel::kFullTransitive, kV2, kProtoV1).empty());
}

TEST(ProtobufCompatibility, BreakingChangesAreNamed) {
  const std::pair<const char*, const char*> cases[] = {
      {R"(syntax = "proto3"; package p; message Order { double id = 1; })",
       "p.Order: field number 1 ('id') changed type from int64 to double"},
      {R"(syntax = "proto3"; package p; message Order { sint64 id = 1; })", "changed type from int64 to sint64"},
      {R"(syntax = "proto3"; package p; message Order { string tags = 3; })",
       "field number 3 ('tags') changed between singular and repeated"},
      {R"(syntax = "proto3"; package p; message Order { message B { int32 n = 1; } B a = 4; })",
       "changed type from p.Order.A to p.Order.B"},
      {R"(syntax = "proto3"; package p; message Order { string card = 5; })", "('card') moved into or out of a oneof"},
      {R"(syntax = "proto3"; package p; message Order { message A { string n = 1; } A a = 4; })",
       "p.Order.A: field number 1 ('n') changed type from int32 to string"},
  };
  for (const auto& [candidate, expect] : cases) {
    auto problems = Problems(CompatibilityLevel::kBackward, candidate, kProtoV1);
    ASSERT_FALSE(problems.empty()) << candidate;
    EXPECT_NE(problems[0].find(expect), std::string::npos) << problems[0];
  }
  // proto2: a required field added breaks BACKWARD (old data lacks it), removed breaks FORWARD.
  constexpr char kOld[] = "syntax = \"proto2\"; message M { optional int32 a = 1; }";
  constexpr char kNew[] = "syntax = \"proto2\"; message M { optional int32 a = 1; required int32 b = 2; }";
  EXPECT_FALSE(Problems(CompatibilityLevel::kBackward, kNew, kOld).empty());
  EXPECT_TRUE(Problems(CompatibilityLevel::kForward, kNew, kOld).empty());
  EXPECT_FALSE(Problems(CompatibilityLevel::kForward, kOld, kNew).empty());
  EXPECT_TRUE(
      Problems(CompatibilityLevel::kNone, "syntax = \"proto3\"; message Order { double id = 1; }", kProtoV1).empty());
}

TEST(ProtobufCompatibility, TheRegistryRefusesAnIncompatibleVersionAndBadText) {
  auto bad = CheckSchema({"PROTOBUF", "syntax = \"proto3\"; message {", {}});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, RegistryErrorCode::kInvalidSchema);
  EXPECT_NE(bad.error().message.find("line 1, column 28"), std::string::npos) << bad.error().message;
  // What floe cannot read is kept as sent, not refused: other imports, editions.
  EXPECT_TRUE(CheckSchema({"PROTOBUF", "syntax = \"proto3\"; import \"google/protobuf/duration.proto\"; message M {}", {}})
                  .has_value());
  EXPECT_TRUE(CheckSchema({"PROTOBUF", "edition = \"2023\"; message M {}", {}}).has_value());
}

}  // namespace
}  // namespace floe::registry
