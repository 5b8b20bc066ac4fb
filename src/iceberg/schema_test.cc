#include "iceberg/schema_json.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace floe::iceberg {
namespace {

constexpr std::string_view kSchema = R"js({
  "type": "struct", "schema-id": 3, "identifier-field-ids": [1],
  "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long", "doc": "order id"},
    {"id": 2, "name": "price", "required": false, "type": "decimal(9, 2)"},
    {"id": 3, "name": "hash", "required": false, "type": "fixed[16]"},
    {"id": 4, "name": "ts", "required": true, "type": "timestamptz"},
    {"id": 5, "name": "ts_ns", "required": false, "type": "timestamp_ns"},
    {"id": 6, "name": "u", "required": false, "type": "uuid"},
    {"id": 7, "name": "tags", "required": false,
     "type": {"type": "list", "element-id": 8, "element-required": true, "element": "string"}},
    {"id": 9, "name": "attrs", "required": false,
     "type": {"type": "map", "key-id": 10, "key": "string", "value-id": 11, "value-required": false,
              "value": {"type": "struct", "fields": [
                 {"id": 12, "name": "lat", "required": true, "type": "double"}]}}}
  ]})js";

TEST(SchemaJson, ParsesEveryTypeAndIndexesIds) {
  auto schema = SchemaFromJson(kSchema);
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  EXPECT_EQ(schema->schema_id(), 3);
  EXPECT_EQ(schema->identifier_field_ids(), std::vector<int32_t>{1});
  ASSERT_EQ(schema->fields().size(), 8u);
  EXPECT_EQ(schema->fields()[0].doc, "order id");
  const NestedField* price = schema->FindField(2);
  ASSERT_NE(price, nullptr);
  EXPECT_EQ(price->type->id(), TypeId::kDecimal);
  EXPECT_EQ(price->type->precision(), 9);
  EXPECT_EQ(price->type->scale(), 2);
  EXPECT_EQ(schema->FindField(3)->type->length(), 16);
  EXPECT_EQ(schema->FindField(5)->type->id(), TypeId::kTimestampNs);
  EXPECT_EQ(schema->FindField(8)->type->id(), TypeId::kString);
  EXPECT_TRUE(schema->FindField(8)->required);
  EXPECT_EQ(schema->FindField(12)->type->id(), TypeId::kDouble);
  EXPECT_EQ(schema->FindColumnName(12), "attrs.value.lat");
  EXPECT_EQ(schema->FindFieldByName("tags.element")->id, 8);
  EXPECT_EQ(schema->HighestFieldId(), 12);
}

TEST(SchemaJson, RoundTripsThroughItsOwnJson) {
  auto schema = SchemaFromJson(kSchema);
  ASSERT_TRUE(schema.has_value());
  std::string text = SchemaToJson(*schema);
  auto again = SchemaFromJson(text);
  ASSERT_TRUE(again.has_value()) << again.error().ToString();
  EXPECT_TRUE(schema->SameColumns(*again));
  EXPECT_EQ(again->schema_id(), 3);
  // Canonical type strings have no spaces.
  EXPECT_NE(text.find("\"decimal(9,2)\""), std::string::npos);
  EXPECT_NE(text.find("\"fixed[16]\""), std::string::npos);
}

TEST(SchemaJson, BadJsonNamesTheProblem) {
  auto bad = SchemaFromJson(R"js({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"int"})js");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(bad.error().message().find("invalid JSON"), std::string::npos);

  auto missing = SchemaFromJson(R"js({"type":"struct","fields":[{"id":1,"name":"a","type":"int"}]})js");
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message().find("'required'"), std::string::npos) << missing.error().message();

  auto wrong = SchemaFromJson(R"js({"type":"struct","fields":[{"id":"1","name":"a","required":true,"type":"int"}]})js");
  ASSERT_FALSE(wrong.has_value());
  EXPECT_NE(wrong.error().message().find("'id' must be an integer"), std::string::npos) << wrong.error().message();

  auto unknown = SchemaFromJson(R"js({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"int32"}]})js");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().message().find("int32"), std::string::npos);

  auto dup = SchemaFromJson(R"js({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"int"},
                                                           {"id":1,"name":"b","required":true,"type":"int"}]})js");
  ASSERT_FALSE(dup.has_value());
  EXPECT_NE(dup.error().message().find("more than once"), std::string::npos);

  auto ident = SchemaFromJson(R"js({"type":"struct","identifier-field-ids":[1],
                                  "fields":[{"id":1,"name":"a","required":false,"type":"int"}]})js");
  ASSERT_FALSE(ident.has_value());
  EXPECT_NE(ident.error().message().find("must be required"), std::string::npos);

  EXPECT_FALSE(SchemaFromJson("[]").has_value());
  EXPECT_FALSE(SchemaFromJson("").has_value());
  EXPECT_FALSE(SchemaFromJson(R"js({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"decimal(39,2)"}]})js").has_value());
  EXPECT_FALSE(SchemaFromJson(R"js({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"fixed[0]"}]})js").has_value());
}

TEST(SchemaJson, RefusesAbsurdNesting) {
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += R"js({"type":"list","element-id":1,"element-required":true,"element":)js";
  deep += "\"int\"";
  for (int i = 0; i < 200; ++i) deep += "}";
  std::string doc = R"js({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":)js" + deep + "}]}";
  auto r = SchemaFromJson(doc);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message().find("deeper"), std::string::npos);
}

TEST(Types, PrimitiveNamesAndPromotion) {
  for (std::string_view name : {"boolean", "int", "long", "float", "double", "date", "time", "timestamp",
                                "timestamptz", "timestamp_ns", "timestamptz_ns", "string", "uuid", "binary"}) {
    auto t = ParsePrimitiveType(name);
    ASSERT_TRUE(t.has_value()) << name;
    EXPECT_EQ((*t)->ToString(), name);
  }
  EXPECT_TRUE(IsPromotionAllowed(*Type::Primitive(TypeId::kInt), *Type::Primitive(TypeId::kLong)));
  EXPECT_FALSE(IsPromotionAllowed(*Type::Primitive(TypeId::kLong), *Type::Primitive(TypeId::kInt)));
  EXPECT_TRUE(IsPromotionAllowed(*Type::Decimal(9, 2), *Type::Decimal(12, 2)));
  EXPECT_FALSE(IsPromotionAllowed(*Type::Decimal(9, 2), *Type::Decimal(12, 3)));
}

}  // namespace
}  // namespace floe::iceberg
