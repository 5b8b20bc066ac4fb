#include "formats/protobuf/proto_column_decoder.h"

#include <gtest/gtest.h>

#include "formats/protobuf/proto_test_encoding.h"

namespace floe::protobuf {
namespace {

using formats::Field;
using formats::TypeId;
using testing::Wire;

constexpr char kSchema[] = R"(syntax = "proto3";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
enum Status { UNKNOWN = 0; NEW = 1; PAID = 2; }
message Order {
  message Address { string city = 1; optional string zip = 2; }
  int64 id = 1;
  string customer = 2;
  optional string note = 3;
  sint32 delta = 4;
  uint64 big = 5;
  fixed32 f32 = 6;
  sfixed64 sf64 = 7;
  float ratio = 8;
  double amount = 9;
  bool paid = 10;
  Status status = 11;
  bytes payload = 12;
  repeated int32 qty = 13;
  repeated string tags = 14;
  map<string, int64> counts = 15;
  Address address = 16;
  repeated Address stops = 17;
  google.protobuf.Timestamp placed = 18;
  google.protobuf.StringValue coupon = 19;
  oneof payment { string card = 20; int64 voucher = 21; }
  int32 unmapped = 22;
})";

Field Col(std::string name, formats::DataType type, bool nullable = true) {
  return Field{.name = std::move(name), .nullable = nullable, .type = std::move(type)};
}

std::vector<Field> OrderFields() {
  using formats::Primitive;
  auto address = formats::StructType({Col("city", Primitive(TypeId::kString)), Col("zip", Primitive(TypeId::kString))});
  return {Col("id", Primitive(TypeId::kInt64), false),
          Col("customer", Primitive(TypeId::kString)),
          Col("note", Primitive(TypeId::kString)),
          Col("delta", Primitive(TypeId::kInt32)),
          Col("big", Primitive(TypeId::kInt64)),
          Col("f32", Primitive(TypeId::kInt64)),
          Col("sf64", Primitive(TypeId::kInt64)),
          Col("ratio", Primitive(TypeId::kFloat)),
          Col("amount", Primitive(TypeId::kDouble)),
          Col("paid", Primitive(TypeId::kBoolean)),
          Col("status", Primitive(TypeId::kString)),
          Col("payload", Primitive(TypeId::kBinary)),
          Col("qty", formats::ListType(Col("element", Primitive(TypeId::kInt32), false))),
          Col("tags", formats::ListType(Col("element", Primitive(TypeId::kString), false))),
          Col("counts", formats::MapType(Col("key", Primitive(TypeId::kString), false), Col("value", Primitive(TypeId::kInt64)))),
          Col("address", address),
          Col("stops", formats::ListType(Col("element", address))),
          Col("placed", Primitive(TypeId::kTimestampTz)),
          Col("coupon", Primitive(TypeId::kString)),
          Col("card", Primitive(TypeId::kString)),
          Col("voucher", Primitive(TypeId::kInt64)),
          Col("not_in_writer", Primitive(TypeId::kString))};
}

class ProtoColumnDecoderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto parsed = ProtoSchema::Parse(kSchema);
    ASSERT_TRUE(parsed.has_value()) << parsed.error().message();
    schema_ = std::make_unique<ProtoSchema>(std::move(*parsed));
    auto decoder = ProtoColumnDecoder::Make(*schema_->messages()[0], OrderFields());
    ASSERT_TRUE(decoder.has_value()) << decoder.error().message();
    decoder_ = std::move(*decoder);
    batch_ = formats::MakeEmptyBatch(OrderFields());
  }

  int Column(std::string_view name) const {
    for (size_t i = 0; i < batch_.fields.size(); ++i) {
      if (batch_.fields[i].name == name) return static_cast<int>(i);
    }
    return -1;
  }
  const formats::ColumnVector& C(std::string_view name) const { return batch_.columns[static_cast<size_t>(Column(name))]; }

  std::unique_ptr<ProtoSchema> schema_;
  std::unique_ptr<ProtoColumnDecoder> decoder_;
  formats::ColumnBatch batch_;
};

Wire FullOrder() {
  Wire w;
  w.Varint(1, 42)
      .Bytes(2, "ünïcode")
      .Bytes(3, "")
      .Signed(4, -7)
      .Varint(5, 1ull << 40)
      .Fixed32(6, 4000000000u)
      .Fixed64(7, static_cast<uint64_t>(-5))
      .Float(8, 0.25f)
      .Double(9, -1.5)
      .Varint(10, 1)
      .Varint(11, 2)
      .Bytes(12, std::string("\0\xff", 2));
  // Packed qty [1, -2] (int32 negatives are 10-byte varints), then one more unpacked: 3.
  Wire packed;
  packed.Raw("\x01").Raw("\xfe\xff\xff\xff\xff\xff\xff\xff\xff\x01");
  w.Bytes(13, packed.str()).Varint(13, 3);
  w.Bytes(14, "a").Bytes(14, "");
  w.Message(15, Wire().Bytes(1, "x").Varint(2, 5)).Message(15, Wire().Bytes(1, "y"));
  w.Message(16, Wire().Bytes(1, "Paris"));
  w.Message(16, Wire().Bytes(2, "75001"));  // A message field twice merges.
  w.Message(17, Wire().Bytes(1, "A")).Message(17, Wire());
  w.Message(18, Wire().Varint(1, 1700000000).Varint(2, 123456789));
  w.Message(19, Wire());  // A wrapper present but empty: its zero value, "".
  w.Bytes(20, "visa").Varint(21, 99);  // The last oneof member wins.
  w.Varint(22, 5);                     // A writer field without a column.
  w.Varint(99, 1).Fixed64(98, 0).Bytes(97, "junk").Tag(96, 3).Varint(1, 0).Tag(96, 4);  // Unknown fields.
  return w;
}

TEST_F(ProtoColumnDecoderTest, DecodesEveryKindOfField) {
  ASSERT_TRUE(decoder_->DecodeRow(FullOrder().str(), batch_).has_value());
  ASSERT_EQ(batch_.num_rows, 1);
  EXPECT_EQ(C("id").Data<int64_t>()[0], 42);
  EXPECT_EQ(C("customer").StringAt(0), "ünïcode");
  EXPECT_TRUE(C("note").IsValid(0));
  EXPECT_EQ(C("note").StringAt(0), "");
  EXPECT_EQ(C("delta").Data<int32_t>()[0], -7);
  EXPECT_EQ(C("big").Data<int64_t>()[0], int64_t{1} << 40);
  EXPECT_EQ(C("f32").Data<int64_t>()[0], 4000000000);
  EXPECT_EQ(C("sf64").Data<int64_t>()[0], -5);
  EXPECT_EQ(C("ratio").Data<float>()[0], 0.25f);
  EXPECT_EQ(C("amount").Data<double>()[0], -1.5);
  EXPECT_EQ(C("paid").Data<uint8_t>()[0], 1);
  EXPECT_EQ(C("status").StringAt(0), "PAID");
  EXPECT_EQ(C("payload").StringAt(0), std::string("\0\xff", 2));
  const auto& qty = C("qty");
  ASSERT_EQ(qty.offsets[1], 3);
  EXPECT_EQ(qty.children[0].Data<int32_t>()[0], 1);
  EXPECT_EQ(qty.children[0].Data<int32_t>()[1], -2);
  EXPECT_EQ(qty.children[0].Data<int32_t>()[2], 3);
  EXPECT_EQ(C("tags").children[0].StringAt(1), "");
  const auto& counts = C("counts");
  ASSERT_EQ(counts.offsets[1], 2);
  EXPECT_EQ(counts.children[0].StringAt(1), "y");
  EXPECT_EQ(counts.children[1].Data<int64_t>()[1], 0);  // An absent map value is its zero value.
  const auto& address = C("address");
  EXPECT_EQ(address.children[0].StringAt(0), "Paris");
  EXPECT_EQ(address.children[1].StringAt(0), "75001");
  const auto& stops = C("stops");
  ASSERT_EQ(stops.offsets[1], 2);
  EXPECT_EQ(stops.children[0].children[0].StringAt(0), "A");
  EXPECT_EQ(stops.children[0].children[0].StringAt(1), "");  // proto3 implicit: "".
  EXPECT_FALSE(stops.children[0].children[1].IsValid(1));     // proto3 optional: null.
  EXPECT_EQ(C("placed").Data<int64_t>()[0], 1700000000LL * 1000000 + 123456);
  EXPECT_TRUE(C("coupon").IsValid(0));
  EXPECT_EQ(C("coupon").StringAt(0), "");
  EXPECT_FALSE(C("card").IsValid(0));
  EXPECT_EQ(C("voucher").Data<int64_t>()[0], 99);
  EXPECT_FALSE(C("not_in_writer").IsValid(0));
  ASSERT_EQ(decoder_->unmatched_fields().size(), 1u);
  EXPECT_EQ(decoder_->unmatched_fields()[0]->name, "unmapped");
}

TEST_F(ProtoColumnDecoderTest, AbsentFieldsFollowPresence) {
  ASSERT_TRUE(decoder_->DecodeRow(Wire().Varint(1, 7).str(), batch_).has_value());
  EXPECT_EQ(C("customer").StringAt(0), "");      // proto3 implicit string: "".
  EXPECT_FALSE(C("note").IsValid(0));            // proto3 optional: null.
  EXPECT_EQ(C("delta").Data<int32_t>()[0], 0);
  EXPECT_EQ(C("paid").Data<uint8_t>()[0], 0);
  EXPECT_EQ(C("status").StringAt(0), "UNKNOWN");  // The enum's 0 value.
  EXPECT_EQ(C("qty").offsets[1], 0);             // An empty list, not null.
  EXPECT_TRUE(C("qty").IsValid(0));
  EXPECT_EQ(C("counts").offsets[1], 0);
  EXPECT_FALSE(C("address").IsValid(0));         // Messages: null.
  EXPECT_FALSE(C("placed").IsValid(0));
  EXPECT_FALSE(C("coupon").IsValid(0));          // Wrappers: null.
  EXPECT_FALSE(C("card").IsValid(0));
  EXPECT_FALSE(C("voucher").IsValid(0));
  // The empty message is a row too (all defaults), except that `id` is a required column whose
  // writer field is implicit: 0.
  ASSERT_TRUE(decoder_->DecodeRow("", batch_).has_value());
  EXPECT_EQ(C("id").Data<int64_t>()[1], 0);
}

TEST_F(ProtoColumnDecoderTest, BadMessagesNameTheFieldAndLeaveTheBatch) {
  ASSERT_TRUE(decoder_->DecodeRow(Wire().Varint(1, 1).Bytes(2, "first").str(), batch_).has_value());
  const std::pair<std::string, const char*> cases[] = {
      {Wire().Bytes(1, "x").str(), "field 'id' (number 1) at byte 0: wire type length-delimited (LEN)"},
      {Wire().Varint(2, 5).str(), "field 'customer' (number 2)"},
      {Wire().Varint(5, ~uint64_t{0}).str(), "column 'big' at byte 1: uint64 18446744073709551615 does not fit a long"},
      {Wire().Bytes(2, "\xc3\x28").str(), "column 'customer' at byte 2: the string is not valid UTF-8"},
      {Wire().Varint(11, 9).str(), "column 'status' at byte 1: Status has no value 9"},
      {Wire().Message(15, Wire().Bytes(1, "k")).Message(15, Wire().Bytes(1, "k")).str(), "map 'counts' has a key twice"},
      {Wire().Message(18, Wire().Varint(1, 1).Varint(2, 1000000000)).str(), "Timestamp {seconds: 1, nanos: 1000000000} out of range"},
      {Wire().Message(16, Wire().Varint(1, 3)).str(), "field 'address.city' (number 1) at byte 3"},
      {Wire().Tag(0, 0).str(), "field number 0 out of range"},
      {Wire().Tag(5, 7).str(), "wire type 7 does not exist"},
      {Wire().Tag(50, 4).str(), "end group of field 50 at byte 2 without its start"},
      {std::string("\x12\x05", 2), "length 5 at byte 1 with 0 bytes left"},
  };
  for (const auto& [bytes, expect] : cases) {
    auto status = decoder_->DecodeRow(bytes, batch_);
    ASSERT_FALSE(status.has_value()) << expect;
    EXPECT_NE(status.error().message().find(expect), std::string::npos) << status.error().message();
    EXPECT_EQ(batch_.num_rows, 1);
    for (const auto& column : batch_.columns) EXPECT_EQ(column.length, 1) << status.error().message();
  }
  ASSERT_TRUE(decoder_->DecodeRow(Wire().Varint(1, 2).str(), batch_).has_value());
  EXPECT_EQ(C("customer").StringAt(1), "");
}

TEST_F(ProtoColumnDecoderTest, EveryTruncationFailsOrDecodesAShorterMessage) {
  const std::string full = FullOrder().str();
  for (size_t n = 0; n < full.size(); ++n) {
    const int64_t before = batch_.num_rows;
    auto status = decoder_->DecodeRow(full.substr(0, n), batch_);
    if (status.has_value()) {
      EXPECT_EQ(batch_.num_rows, before + 1);  // Cut between fields: a valid shorter message.
    } else {
      EXPECT_EQ(batch_.num_rows, before);
      for (const auto& column : batch_.columns) ASSERT_EQ(column.length, before) << status.error().message();
    }
  }
}

TEST_F(ProtoColumnDecoderTest, DeepGroupsAndGarbageAreBounded) {
  // Unknown groups nested past the limit: an error, not a deep recursion.
  Wire deep;
  for (int i = 0; i < 1000; ++i) deep.Tag(90, 3);
  auto status = decoder_->DecodeRow(deep.str(), batch_);
  ASSERT_FALSE(status.has_value());
  EXPECT_NE(status.error().message().find("groups nested deeper than 32"), std::string::npos) << status.error().message();
  // Garbage: never a crash, never a row that is not all there.
  uint64_t seed = 12345;
  for (int i = 0; i < 2000; ++i) {
    std::string bytes;
    for (int k = 0; k < 1 + i % 40; ++k) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      bytes += static_cast<char>(seed >> 56);
    }
    const int64_t before = batch_.num_rows;
    auto result = decoder_->DecodeRow(bytes, batch_);
    for (const auto& column : batch_.columns) ASSERT_EQ(column.length, batch_.num_rows);
    ASSERT_EQ(batch_.num_rows, before + (result.has_value() ? 1 : 0));
  }
}

TEST(ProtoColumnDecoder, RefusesColumnsItCannotFill) {
  auto schema = ProtoSchema::Parse(R"(syntax = "proto3"; message M { string s = 1; repeated int64 r = 2;
    message N { int32 a = 1; } N n = 3; uint32 u = 4; })");
  ASSERT_TRUE(schema.has_value());
  const ProtoMessage& m = *schema->messages()[0];
  auto make = [&](std::vector<Field> fields) { return ProtoColumnDecoder::Make(m, std::move(fields)); };
  const std::pair<std::vector<Field>, const char*> cases[] = {
      {{Col("s", formats::Primitive(TypeId::kInt64))}, "column 's': the writer's string cannot be read as"},
      {{Col("r", formats::Primitive(TypeId::kInt64))}, "column 'r': the writer's repeated int64 cannot be read as"},
      {{Col("n", formats::Primitive(TypeId::kString))}, "column 'n': the writer's message M.N cannot be read as"},
      {{Col("u", formats::Primitive(TypeId::kInt32))}, "column 'u': the writer's uint32 cannot be read as"},
      {{Col("missing", formats::Primitive(TypeId::kString), false)}, "column 'missing' is required"},
  };
  for (const auto& [fields, expect] : cases) {
    auto decoder = make(fields);
    ASSERT_FALSE(decoder.has_value()) << expect;
    EXPECT_NE(decoder.error().message().find(expect), std::string::npos) << decoder.error().message();
  }
}

TEST(ProtoColumnDecoder, Proto2RequiredAbsentFailsTheRecord) {
  auto schema = ProtoSchema::Parse("syntax = \"proto2\"; message M { required int64 a = 1; optional int64 b = 2; }");
  ASSERT_TRUE(schema.has_value());
  auto decoder = ProtoColumnDecoder::Make(*schema->messages()[0], {Col("a", formats::Primitive(TypeId::kInt64)),
                                                                   Col("b", formats::Primitive(TypeId::kInt64))});
  ASSERT_TRUE(decoder.has_value());
  formats::ColumnBatch batch = formats::MakeEmptyBatch({Col("a", formats::Primitive(TypeId::kInt64)),
                                                        Col("b", formats::Primitive(TypeId::kInt64))});
  ASSERT_TRUE((*decoder)->DecodeRow(Wire().Varint(1, 3).str(), batch).has_value());
  EXPECT_FALSE(batch.columns[1].IsValid(0));  // proto2 optional absent: null.
  auto missing = (*decoder)->DecodeRow(Wire().Varint(2, 3).str(), batch);
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message().find("field 'a' (number 1) is required and missing"), std::string::npos);
}

}  // namespace
}  // namespace floe::protobuf
