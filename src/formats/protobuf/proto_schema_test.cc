#include "formats/protobuf/proto_schema.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/base64.h"
#include "formats/protobuf/proto_descriptor_writer.h"
#include "formats/protobuf/proto_test_encoding.h"

namespace floe::protobuf {
namespace {

using testing::Wire;

constexpr char kOrders[] = R"(// The orders, as a service would register them.
syntax = "proto3";
package shop.v1;

import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";

option java_package = "com.example.shop";
option (my.custom) = { a: 1 b: "x;y" };

/* Statuses an order goes through. */
enum Status {
  option allow_alias = true;
  STATUS_UNSPECIFIED = 0;
  NEW = 1;
  PAID = 2;
  SHIPPED = 3 [deprecated = true];
}

message Order {
  message Address {
    string city = 1;
    string zip = 2;
  }
  reserved 15, 20 to 25;
  reserved "old";
  int64 id = 1;
  string customer = 2 [json_name = "cust"];
  optional string note = 3;
  repeated string tags = 4 [packed = false];
  map<string, int64> counts = 5;
  Status status = 6;
  Address address = 7;
  google.protobuf.Timestamp placed = 8;
  google.protobuf.Int64Value coupon = 9;
  oneof payment {
    string card = 10;
    .shop.v1.Order.Address billing = 11;
  }
  repeated sint32 deltas = 12;
  bytes payload = 0x0d;
}

message Refund { int64 order_id = 1; Order.Address to = 2; }

service Orders { rpc Get(Order) returns (Order) { option idempotency_level = NO_SIDE_EFFECTS; } }
)";

TEST(ProtoSchema, ParsesProto3TextWithEveryConstruct) {
  auto schema = ProtoSchema::Parse(kOrders);
  ASSERT_TRUE(schema.has_value()) << schema.error().message();
  EXPECT_EQ(schema->syntax(), "proto3");
  EXPECT_EQ(schema->package(), "shop.v1");
  ASSERT_EQ(schema->messages().size(), 2u);
  const ProtoMessage& order = *schema->messages()[0];
  EXPECT_EQ(order.full_name, "shop.v1.Order");
  ASSERT_EQ(order.fields.size(), 13u);
  EXPECT_EQ(order.FieldByName("id")->type, ProtoType::kInt64);
  EXPECT_EQ(order.FieldByName("customer")->label, ProtoLabel::kImplicit);
  EXPECT_FALSE(order.FieldByName("customer")->HasPresence());
  EXPECT_TRUE(order.FieldByName("note")->HasPresence());
  EXPECT_TRUE(order.FieldByName("tags")->IsRepeated());
  const ProtoField* counts = order.FieldByName("counts");
  ASSERT_TRUE(counts->IsMap());
  EXPECT_EQ(counts->message->name, "CountsEntry");
  EXPECT_EQ(counts->message->FieldByNumber(2)->type, ProtoType::kInt64);
  const ProtoField* status = order.FieldByName("status");
  ASSERT_EQ(status->type, ProtoType::kEnum);
  EXPECT_EQ(status->enumeration->full_name, "shop.v1.Status");
  EXPECT_EQ(status->enumeration->Find(3)->name, "SHIPPED");
  EXPECT_EQ(order.FieldByName("address")->message->full_name, "shop.v1.Order.Address");
  EXPECT_TRUE(order.FieldByName("address")->HasPresence());
  EXPECT_EQ(order.FieldByName("placed")->message->well_known, WellKnown::kTimestamp);
  EXPECT_EQ(order.FieldByName("coupon")->message->well_known, WellKnown::kWrapper);
  EXPECT_EQ(order.FieldByName("card")->oneof, 0);
  EXPECT_TRUE(order.FieldByName("card")->HasPresence());
  EXPECT_EQ(order.FieldByName("billing")->message->full_name, "shop.v1.Order.Address");
  EXPECT_EQ(order.FieldByName("payload")->number, 13);
  // Scoping: Order.Address from inside Refund.
  EXPECT_EQ(schema->messages()[1]->FieldByName("to")->message->full_name, "shop.v1.Order.Address");
  // Message indexes: [0] the first message, [0, 0] its first nested one, [1] the second.
  EXPECT_EQ((*schema->MessageAt(std::vector<int32_t>{0}))->name, "Order");
  EXPECT_EQ((*schema->MessageAt(std::vector<int32_t>{0, 0}))->name, "Address");
  EXPECT_EQ((*schema->MessageAt(std::vector<int32_t>{1}))->name, "Refund");
  auto out_of_range = schema->MessageAt(std::vector<int32_t>{2});
  ASSERT_FALSE(out_of_range.has_value());
  EXPECT_NE(out_of_range.error().message().find("index 2 of 2 messages"), std::string::npos);
}

TEST(ProtoSchema, Proto2LabelsAndTheirChecks) {
  auto schema = ProtoSchema::Parse(R"(syntax = "proto2";
message M { required int32 a = 1; optional string b = 2 [default = "x"]; repeated int64 c = 3 [packed = true];
  oneof o { int32 d = 4; } })");
  ASSERT_TRUE(schema.has_value()) << schema.error().message();
  const ProtoMessage& m = *schema->messages()[0];
  EXPECT_EQ(m.FieldByName("a")->label, ProtoLabel::kRequired);
  EXPECT_EQ(m.FieldByName("b")->label, ProtoLabel::kOptional);
  EXPECT_TRUE(m.FieldByName("d")->HasPresence());
  // A file without a syntax statement is proto2.
  EXPECT_TRUE(ProtoSchema::Parse("message M { optional int32 a = 1; }").has_value());
  auto unlabeled = ProtoSchema::Parse("syntax = \"proto2\";\nmessage M {\n  int32 a = 1;\n}");
  ASSERT_FALSE(unlabeled.has_value());
  EXPECT_NE(unlabeled.error().message().find("line 3, column 3"), std::string::npos) << unlabeled.error().message();
  auto required3 = ProtoSchema::Parse("syntax = \"proto3\"; message M { required int32 a = 1; }");
  ASSERT_FALSE(required3.has_value());
  EXPECT_NE(required3.error().message().find("proto3 has no required"), std::string::npos);
}

// Each bad schema fails with a message holding `expect`.
TEST(ProtoSchema, BadTextIsAPositionedError) {
  const std::pair<const char*, const char*> cases[] = {
      {"%%%", "line 1, column 1: expected"},
      {"syntax = \"proto4\";", "proto4"},
      {"syntax = \"proto3\"; message M { int32 a = 1 }", "line 1, column 44: expected ';'"},
      {"syntax = \"proto3\";\nmessage M {\n  Missing a = 1;\n}", "type \"Missing\" is not defined"},
      {"syntax = \"proto3\"; message M { int32 a = 1; int32 b = 1; }", "field number 1 is used twice"},
      {"syntax = \"proto3\"; message M { int32 a = 0; }", "field number 0 out of range"},
      {"syntax = \"proto3\"; message M { map<double, int32> m = 1; }", "a map key cannot be double"},
      {"syntax = \"proto3\"; import \"other.proto\"; message M {}", "import \"other.proto\""},
      {"syntax = \"proto3\"; message M { int32 a = 1; /* open", "comment not closed"},
      {"syntax = \"proto3\"; message M { string s = 1 [default = \"x]; }", "string not closed"},
      {"syntax = \"proto3\"; enum E {} message M { E e = 1; }", "enum E has no values"},
      {"edition = \"2023\";", "editions are not supported"},
  };
  for (const auto& [text, expect] : cases) {
    auto schema = ProtoSchema::Parse(text);
    ASSERT_FALSE(schema.has_value()) << text;
    EXPECT_NE(schema.error().message().find(expect), std::string::npos) << text << " -> " << schema.error().message();
  }
}

TEST(ProtoSchema, EveryTruncationOfTheTextFailsCleanly) {
  const std::string text = kOrders;
  // Cut inside the Order message: always an error, with a line and column when the text ends.
  const size_t open = text.find("message Order {") + 15, close = text.find("\n}\n", open);
  ASSERT_NE(close, std::string::npos);
  for (size_t n = 0; n < text.size(); ++n) {
    auto schema = ProtoSchema::ParseText(text.substr(0, n));
    if (n > open && n <= close) {
      ASSERT_FALSE(schema.has_value()) << n;
    }
    if (!schema.has_value()) {
      // Cut between definitions, a shorter file may parse; a cut elsewhere says where, or which
      // type the shorter file lacks.
      const std::string& m = schema.error().message();
      EXPECT_TRUE(m.find("line ") != std::string::npos || m.find("is not defined") != std::string::npos) << n << ": " << m;
    }
  }
  EXPECT_TRUE(ProtoSchema::ParseText(text).has_value());
}

TEST(ProtoSchema, OversizeAndDeepNestingAreRefused) {
  std::string big = "syntax = \"proto3\"; message M { int32 a = 1; }";
  big += std::string(ProtoSchema::kMaxSchemaBytes, ' ');
  auto oversize = ProtoSchema::Parse(big);
  ASSERT_FALSE(oversize.has_value());
  EXPECT_NE(oversize.error().message().find("more than"), std::string::npos);

  std::string deep = "syntax = \"proto3\";";
  for (int i = 0; i < 40; ++i) deep += fmt::format(" message M{} {{", i);
  for (int i = 0; i < 40; ++i) deep += " }";
  auto nested = ProtoSchema::Parse(deep);
  ASSERT_FALSE(nested.has_value());
  EXPECT_NE(nested.error().message().find("nested deeper than 32"), std::string::npos) << nested.error().message();

  // Brackets in an option value are counted, not recursed into: no stack to exhaust.
  std::string brackets = "syntax = \"proto3\"; option (x) = " + std::string(200000, '{') + ";";
  EXPECT_FALSE(ProtoSchema::Parse(brackets).has_value());
}

// A FileDescriptorProto for: syntax proto3; package p; message Outer { int64 id = 1;
// optional string note = 2; message Inner { E e = 1; } enum E { A = 0; B = 1; }
// map<string, int32> m = 3; } with the entry message as a nested type.
std::string OuterDescriptor() {
  Wire inner_field;
  inner_field.Bytes(1, "e").Varint(3, 1).Varint(4, 1).Varint(5, 14).Bytes(6, ".p.Outer.E");
  Wire inner;
  inner.Bytes(1, "Inner").Message(2, inner_field);
  Wire e;
  e.Bytes(1, "E").Message(2, Wire().Bytes(1, "A").Varint(2, 0)).Message(2, Wire().Bytes(1, "B").Varint(2, 1));
  Wire entry;
  entry.Bytes(1, "MEntry")
      .Message(2, Wire().Bytes(1, "key").Varint(3, 1).Varint(4, 1).Varint(5, 9))
      .Message(2, Wire().Bytes(1, "value").Varint(3, 2).Varint(4, 1).Varint(5, 5))
      .Message(7, Wire().Varint(7, 1));
  Wire outer;
  outer.Bytes(1, "Outer")
      .Message(2, Wire().Bytes(1, "id").Varint(3, 1).Varint(4, 1).Varint(5, 3))
      .Message(2, Wire().Bytes(1, "note").Varint(3, 2).Varint(4, 1).Varint(5, 9).Varint(9, 0).Varint(17, 1))
      .Message(2, Wire().Bytes(1, "m").Varint(3, 3).Varint(4, 3).Varint(5, 11).Bytes(6, ".p.Outer.MEntry"))
      .Message(3, inner)
      .Message(3, entry)
      .Message(4, e)
      .Message(8, Wire().Bytes(1, "_note"));
  Wire file;
  file.Bytes(1, "outer.proto").Bytes(2, "p").Message(4, outer).Bytes(12, "proto3");
  return file.str();
}

TEST(ProtoSchema, ParsesASerializedDescriptorInBase64) {
  auto schema = ProtoSchema::Parse(Base64Encode(OuterDescriptor()));
  ASSERT_TRUE(schema.has_value()) << schema.error().message();
  const ProtoMessage& outer = *schema->messages()[0];
  EXPECT_EQ(outer.full_name, "p.Outer");
  EXPECT_EQ(outer.FieldByName("id")->label, ProtoLabel::kImplicit);
  EXPECT_EQ(outer.FieldByName("note")->label, ProtoLabel::kOptional);
  EXPECT_EQ(outer.FieldByName("note")->oneof, -1);  // proto3 optional's synthetic oneof.
  EXPECT_TRUE(outer.FieldByName("m")->IsMap());
  EXPECT_EQ(outer.nested[0]->fields[0].enumeration->full_name, "p.Outer.E");
  EXPECT_EQ((*schema->MessageAt(std::vector<int32_t>{0, 1}))->name, "MEntry");
}

// shop/order.proto of tests/interop/registry/stream_protobuf.test.mjs as @bufbuild/protobuf
// serializes its FileDescriptorProto (toBinary(FileDescriptorProtoSchema, ...), base64): what
// Confluent's JavaScript ProtobufSerializer registers.
constexpr char kBufOrderDescriptor[] =
    "ChBzaG9wL29yZGVyLnByb3RvEgRzaG9wGh9nb29nbGUvcHJvdG9idWYvdGltZXN0YW1wLnByb3RvGh5nb29nbGUvcHJvdG9idWYv"
    "d3JhcHBlcnMucHJvdG8ilgYKBU9yZGVyEg4KAmlkGAEgASgDUgJpZBIaCghjdXN0b21lchgCIAEoCVIIY3VzdG9tZXISFwoEbm90"
    "ZRgDIAEoCUgBUgRub3RliAEBEhAKA3F0eRgEIAEoBVIDcXR5EhQKBWRlbHRhGAUgASgSUgVkZWx0YRIUCgV1bml0cxgGIAEoDVIF"
    "dW5pdHMSFAoFcmF0aW8YByABKAJSBXJhdGlvEhYKBmFtb3VudBgIIAEoAVIGYW1vdW50EhIKBHBhaWQYCSABKAhSBHBhaWQSJAoG"
    "c3RhdHVzGAogASgOMgwuc2hvcC5TdGF0dXNSBnN0YXR1cxIYCgdwYXlsb2FkGAsgASgMUgdwYXlsb2FkEjIKBnBsYWNlZBgMIAEo"
    "CzIaLmdvb2dsZS5wcm90b2J1Zi5UaW1lc3RhbXBSBnBsYWNlZBI0CgZjb3Vwb24YDSABKAsyHC5nb29nbGUucHJvdG9idWYuU3Ry"
    "aW5nVmFsdWVSBmNvdXBvbhI3CghkaXNjb3VudBgOIAEoCzIbLmdvb2dsZS5wcm90b2J1Zi5JbnQ2NFZhbHVlUghkaXNjb3VudBIS"
    "CgR0YWdzGA8gAygJUgR0YWdzEiAKC2NvdW50c19saXN0GBAgAygDUgtjb3VudHNfbGlzdBIvCgZjb3VudHMYESADKAsyFy5zaG9w"
    "Lk9yZGVyLkNvdW50c0VudHJ5UgZjb3VudHMSLQoHYWRkcmVzcxgSIAEoCzITLnNob3AuT3JkZXIuQWRkcmVzc1IHYWRkcmVzcxIU"
    "CgRjYXJkGBMgASgJSABSBGNhcmQSGgoHdm91Y2hlchgUIAEoA0gAUgd2b3VjaGVyEhAKA2JpZxgVIAEoBlIDYmlnGjwKB0FkZHJl"
    "c3MSEgoEY2l0eRgBIAEoCVIEY2l0eRIVCgN6aXAYAiABKAlIAFIDemlwiAEBQgYKBF96aXAaOQoLQ291bnRzRW50cnkSEAoDa2V5"
    "GAEgASgJUgNrZXkSFAoFdmFsdWUYAiABKANSBXZhbHVlOgI4AUIJCgdwYXltZW50QgcKBV9ub3RlKkAKBlN0YXR1cxIWChJTVEFU"
    "VVNfVU5TUEVDSUZJRUQQABIHCgNORVcQARIICgRQQUlEEAISCwoHU0hJUFBFRBADYgZwcm90bzM=";

TEST(ProtoSchema, ParsesTheDescriptorProtobufEsWrites) {
  auto schema = ProtoSchema::Parse(kBufOrderDescriptor);
  ASSERT_TRUE(schema.has_value()) << schema.error().message();
  EXPECT_EQ(schema->syntax(), "proto3");
  const ProtoMessage& order = *schema->messages()[0];
  EXPECT_EQ(order.full_name, "shop.Order");
  EXPECT_EQ(order.fields.size(), 21u);
  EXPECT_EQ(order.FieldByName("note")->label, ProtoLabel::kOptional);
  EXPECT_EQ(order.FieldByName("note")->oneof, -1);
  EXPECT_EQ(order.FieldByName("card")->oneof, 0);
  EXPECT_EQ(order.FieldByName("status")->enumeration->full_name, "shop.Status");
  EXPECT_EQ(order.FieldByName("placed")->message->well_known, WellKnown::kTimestamp);
  EXPECT_EQ(order.FieldByName("discount")->message->full_name, "google.protobuf.Int64Value");
  EXPECT_TRUE(order.FieldByName("counts")->IsMap());
  EXPECT_EQ(order.FieldByName("big")->type, ProtoType::kFixed64);
  EXPECT_EQ(order.FieldByName("address")->message->FieldByName("zip")->label, ProtoLabel::kOptional);
}

// Text -> descriptor -> the same definitions: what the registry answers for ?format=serialized.
TEST(ProtoSchema, TextWrittenAsADescriptorReadsBackTheSame) {
  auto text = ProtoSchema::Parse(kOrders);
  ASSERT_TRUE(text.has_value());
  auto back = ProtoSchema::ParseDescriptor(SerializeDescriptor(*text, "orders.proto"));
  ASSERT_TRUE(back.has_value()) << back.error().message();
  EXPECT_EQ(back->package(), "shop.v1");
  EXPECT_EQ(back->syntax(), "proto3");
  EXPECT_EQ(back->imports(), text->imports());
  ASSERT_EQ(back->messages().size(), text->messages().size());
  const ProtoMessage& a = *text->messages()[0];
  const ProtoMessage& b = *back->messages()[0];
  EXPECT_EQ(b.oneofs, a.oneofs);  // proto3 optional's synthetic oneof written, and dropped again.
  ASSERT_EQ(b.fields.size(), a.fields.size());
  for (size_t i = 0; i < a.fields.size(); ++i) {
    const ProtoField &x = a.fields[i], &y = b.fields[i];
    EXPECT_EQ(y.name, x.name);
    EXPECT_EQ(y.number, x.number);
    EXPECT_EQ(y.label, x.label) << x.name;
    EXPECT_EQ(y.type, x.type) << x.name;
    EXPECT_EQ(y.oneof, x.oneof) << x.name;
    EXPECT_EQ(y.message == nullptr ? "" : y.message->full_name, x.message == nullptr ? "" : x.message->full_name);
    EXPECT_EQ(y.enumeration == nullptr ? "" : y.enumeration->full_name,
              x.enumeration == nullptr ? "" : x.enumeration->full_name);
  }
  EXPECT_TRUE(b.FieldByName("counts")->IsMap());
  // The descriptor @bufbuild/protobuf wrote, read and written again, reads the same too.
  auto es = ProtoSchema::Parse(kBufOrderDescriptor);
  ASSERT_TRUE(es.has_value());
  auto again = ProtoSchema::ParseDescriptor(SerializeDescriptor(*es, "shop/order.proto"));
  ASSERT_TRUE(again.has_value()) << again.error().message();
  EXPECT_EQ(again->messages()[0]->oneofs, std::vector<std::string>{"payment"});
  EXPECT_EQ(again->messages()[0]->FieldByName("note")->label, ProtoLabel::kOptional);
}

TEST(ProtoSchema, BadDescriptorsFailCleanly) {
  const std::string good = OuterDescriptor();
  for (size_t n = 0; n < good.size(); ++n) {
    auto schema = ProtoSchema::ParseDescriptor(good.substr(0, n));
    if (schema.has_value()) continue;  // Cut between top-level fields.
    EXPECT_FALSE(schema.error().message().empty());
  }
  auto garbage = ProtoSchema::ParseDescriptor(std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11));
  ASSERT_FALSE(garbage.has_value());
  EXPECT_NE(garbage.error().message().find("byte 0"), std::string::npos) << garbage.error().message();
  EXPECT_FALSE(ProtoSchema::Parse("not*base64").has_value());
  EXPECT_FALSE(ProtoSchema::Parse("QUJD").has_value());  // "ABC": a tag of field 8, then garbage.
  // Wrong wire type for the message name.
  auto wrong = ProtoSchema::ParseDescriptor(Wire().Message(4, Wire().Varint(1, 5)).str());
  ASSERT_FALSE(wrong.has_value());
  EXPECT_NE(wrong.error().message().find("message name"), std::string::npos) << wrong.error().message();
  // Messages nested 40 deep.
  Wire deep;
  deep.Bytes(1, "M");
  for (int i = 0; i < 40; ++i) {
    Wire outer;
    outer.Bytes(1, fmt::format("M{}", i)).Message(3, deep);
    deep = outer;
  }
  auto nested = ProtoSchema::ParseDescriptor(Wire().Message(4, deep).Bytes(12, "proto3").str());
  ASSERT_FALSE(nested.has_value());
  EXPECT_NE(nested.error().message().find("nested deeper than 32"), std::string::npos) << nested.error().message();
}

// Confluent's Protobuf schema references: each imported file is a referenced schema, named by
// its import path.
constexpr char kMoney[] = R"(syntax = "proto3";
package money;
enum Kind { KIND_UNSPECIFIED = 0; CASH = 1; CARD = 2; }
message Money { string currency = 1; int64 units = 2; }
)";
constexpr char kAddress[] = R"(syntax = "proto3";
package shop;
import "money.proto";
import "google/protobuf/timestamp.proto";
message Address { string city = 1; money.Money fee = 2; google.protobuf.Timestamp since = 3; }
)";
constexpr char kOrderImporting[] = R"(syntax = "proto3";
package shop;
import "common/address.proto";
import "money.proto";
import "google/protobuf/timestamp.proto";
message Order {
  int64 id = 1;
  Address address = 2;
  money.Money total = 3;
  .money.Kind kind = 4;
  repeated money.Money parts = 5;
  map<string, money.Money> by_currency = 6;
  google.protobuf.Timestamp placed = 7;
}
)";

std::vector<ProtoImport> OrderImports() { return {{"money.proto", kMoney}, {"common/address.proto", kAddress}}; }

TEST(ProtoSchemaImports, FieldsResolveToImportedMessagesAndEnums) {
  std::optional<ProtoSchema> kept;
  {
    auto imports = OrderImports();
    auto schema = ProtoSchema::ParseWithImports(kOrderImporting, imports);
    ASSERT_TRUE(schema.has_value()) << schema.error().message();
    kept.emplace(std::move(*schema));
  }
  // The imports' texts are gone and the schema moved: the imported definitions live on in it.
  const ProtoMessage* order = kept->FindMessage("shop.Order");
  ASSERT_NE(order, nullptr);
  ASSERT_EQ(kept->messages().size(), 1u);  // Message indexes count this file's messages only.
  const ProtoField* address = order->FieldByName("address");
  ASSERT_NE(address->message, nullptr);
  EXPECT_EQ(address->message->full_name, "shop.Address");
  EXPECT_EQ(address->message->FieldByName("fee")->message->full_name, "money.Money");
  EXPECT_EQ(address->message->FieldByName("since")->message->well_known, WellKnown::kTimestamp);
  EXPECT_EQ(order->FieldByName("total")->message, kept->FindMessage("money.Money"));
  EXPECT_EQ(order->FieldByName("total")->message, address->message->FieldByName("fee")->message);
  const ProtoField* kind = order->FieldByName("kind");
  EXPECT_EQ(kind->type, ProtoType::kEnum);
  ASSERT_NE(kind->enumeration, nullptr);
  EXPECT_EQ(kind->enumeration->Find(2)->name, "CARD");
  EXPECT_TRUE(order->FieldByName("parts")->IsRepeated());
  EXPECT_EQ(order->FieldByName("parts")->message->full_name, "money.Money");
  ASSERT_TRUE(order->FieldByName("by_currency")->IsMap());
  EXPECT_EQ(order->FieldByName("by_currency")->message->FieldByNumber(2)->message->full_name, "money.Money");
  EXPECT_EQ(order->FieldByName("placed")->message->well_known, WellKnown::kTimestamp);
}

TEST(ProtoSchemaImports, DescriptorsAndTextMix) {
  // What @confluentinc/schemaregistry registers: every file as a base64 FileDescriptorProto.
  auto money = ProtoSchema::ParseText(kMoney);
  ASSERT_TRUE(money.has_value()) << money.error().message();
  auto imports = OrderImports();
  auto text = ProtoSchema::ParseWithImports(kOrderImporting, imports);
  ASSERT_TRUE(text.has_value()) << text.error().message();
  std::vector<ProtoImport> described = {{"money.proto", Base64Encode(SerializeDescriptor(*money, "money.proto"))},
                                        {"common/address.proto", kAddress}};
  auto schema = ProtoSchema::ParseWithImports(Base64Encode(SerializeDescriptor(*text, "shop/order.proto")), described);
  ASSERT_TRUE(schema.has_value()) << schema.error().message();
  const ProtoMessage* order = schema->FindMessage("shop.Order");
  ASSERT_NE(order, nullptr);
  EXPECT_EQ(order->FieldByName("address")->message->FieldByName("fee")->message->full_name, "money.Money");
  EXPECT_EQ(order->FieldByName("kind")->enumeration->full_name, "money.Kind");
}

TEST(ProtoSchemaImports, IndirectlyImportedTypesAreVisible) {
  // Only address.proto is imported; money.Money comes through it (as `import public` would).
  auto imports = OrderImports();
  auto schema = ProtoSchema::ParseWithImports(
      "syntax = \"proto3\"; package shop; import \"common/address.proto\"; message Bill { money.Money due = 1; }",
      imports);
  ASSERT_TRUE(schema.has_value()) << schema.error().message();
  EXPECT_EQ(schema->FindMessage("shop.Bill")->FieldByName("due")->message->full_name, "money.Money");
}

TEST(ProtoSchemaImports, BadImportsAreNamed) {
  auto imports = OrderImports();
  struct Case {
    std::string schema;
    std::vector<ProtoImport> imports;
    std::string expect;
    ErrorKind kind;
  };
  const std::vector<Case> cases = {
      // An import no reference names.
      {"syntax = \"proto3\"; import \"tax.proto\"; message A { int32 a = 1; }", imports,
       "import \"tax.proto\": no schema reference", ErrorKind::kInvalidArgument},
      // Dependencies listed after the file that imports them: a file sees only those before it.
      {kOrderImporting,
       {{"common/address.proto", kAddress}, {"money.proto", kMoney}},
       "imported file \"common/address.proto\": import \"money.proto\"",
       ErrorKind::kInvalidArgument},
      // A name two files define.
      {"syntax = \"proto3\"; package money; import \"money.proto\"; message Money { int32 a = 1; }", imports,
       "\"money.Money\" is defined twice", ErrorKind::kInvalidArgument},
      {"syntax = \"proto3\"; package money; import \"money.proto\"; message Kind { int32 a = 1; }", imports,
       "\"money.Kind\" is defined twice", ErrorKind::kInvalidArgument},
      // A type the imports do not define.
      {"syntax = \"proto3\"; import \"money.proto\"; message A { money.Euro e = 1; }", imports,
       "type \"money.Euro\" is not defined", ErrorKind::kInvalidArgument},
      // Two imported files with one name.
      {kOrderImporting,
       {{"money.proto", kMoney}, {"money.proto", kMoney}},
       "two imported files are named",
       ErrorKind::kInvalidArgument},
      // An imported file that does not parse, named with its line and column.
      {kOrderImporting,
       {{"money.proto", "syntax = \"proto3\"; message {"}, {"common/address.proto", kAddress}},
       "imported file \"money.proto\": line 1, column 28",
       ErrorKind::kInvalidArgument},
      // Garbage base64 as an imported descriptor.
      {kOrderImporting,
       {{"money.proto", "////"}, {"common/address.proto", kAddress}},
       "imported file \"money.proto\"",
       ErrorKind::kCorruption},
  };
  for (const Case& c : cases) {
    auto schema = ProtoSchema::ParseWithImports(c.schema, c.imports);
    ASSERT_FALSE(schema.has_value()) << c.expect;
    EXPECT_NE(schema.error().message().find(c.expect), std::string::npos) << schema.error().message();
    EXPECT_EQ(schema.error().kind(), c.kind) << schema.error().message();
  }
  // Without references an import of another file stays what floe does not read.
  auto alone = ProtoSchema::Parse(kAddress);
  ASSERT_FALSE(alone.has_value());
  EXPECT_EQ(alone.error().kind(), ErrorKind::kNotImplemented) << alone.error().message();
}

TEST(ProtoSchemaImports, EveryTruncationOfAnImportedFileFailsCleanly) {
  const std::string money = kMoney;
  for (size_t n = 0; n <= money.rfind('}'); ++n) {
    std::vector<ProtoImport> imports = {{"money.proto", money.substr(0, n)}, {"common/address.proto", kAddress}};
    auto schema = ProtoSchema::ParseWithImports(kOrderImporting, imports);
    // money.Money's closing brace is the last definition: any shorter file lacks something.
    ASSERT_FALSE(schema.has_value()) << n;
    EXPECT_FALSE(schema.error().message().empty());
  }
  // Random bytes as an imported descriptor: an error, never a crash.
  uint64_t state = 7;
  for (int round = 0; round < 200; ++round) {
    std::string bytes;
    for (int i = 0; i < 40; ++i) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      bytes.push_back(static_cast<char>(state >> 56));
    }
    std::vector<ProtoImport> imports = {{"money.proto", Base64Encode(bytes)}, {"common/address.proto", kAddress}};
    EXPECT_FALSE(ProtoSchema::ParseWithImports(kOrderImporting, imports).has_value()) << round;
  }
}

TEST(ProtoSchemaImports, LongChainsAndTooManyImports) {
  // f0 <- f1 <- ... <- f99, each message holding the previous: resolved through the whole chain.
  std::vector<ProtoImport> chain;
  for (int i = 0; i < 100; ++i) {
    std::string text = fmt::format("syntax = \"proto3\"; package p{};", i);
    if (i > 0) text += fmt::format(" import \"f{}.proto\";", i - 1);
    text += fmt::format(" message M{} {{ int32 v = 1; {} }}", i,
                        i > 0 ? fmt::format("p{}.M{} prev = 2;", i - 1, i - 1) : "");
    chain.push_back({fmt::format("f{}.proto", i), text});
  }
  auto schema = ProtoSchema::ParseWithImports(
      "syntax = \"proto3\"; import \"f99.proto\"; message Top { p99.M99 last = 1; p0.M0 first = 2; }", chain);
  ASSERT_TRUE(schema.has_value()) << schema.error().message();
  const ProtoMessage* m = schema->FindMessage("Top")->FieldByName("last")->message;
  int depth = 0;
  while (const ProtoField* prev = m->FieldByName("prev")) {
    m = prev->message;
    ++depth;
  }
  EXPECT_EQ(depth, 99);
  EXPECT_EQ(m->full_name, "p0.M0");

  std::vector<ProtoImport> many(ProtoSchema::kMaxImports + 1, ProtoImport{"x.proto", kMoney});
  auto refused = ProtoSchema::ParseWithImports(kOrderImporting, many);
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message().find("more than 256"), std::string::npos) << refused.error().message();
}

}  // namespace
}  // namespace floe::protobuf
