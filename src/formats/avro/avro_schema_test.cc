#include "formats/avro/avro_schema.h"

#include <gtest/gtest.h>

namespace floe::avro {
namespace {

constexpr std::string_view kSchema = R"js({
  "type": "record", "name": "manifest_entry", "namespace": "iceberg",
  "fields": [
    {"name": "status", "type": "int", "field-id": 0},
    {"name": "snapshot_id", "type": ["null", "long"], "default": null, "field-id": 1},
    {"name": "tags", "type": {"type": "array", "items": "string", "element-id": 7}, "field-id": 6},
    {"name": "props", "type": {"type": "map", "values": "bytes", "key-id": 9, "value-id": 10}, "field-id": 8},
    {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B"]}},
    {"name": "hash", "type": {"type": "fixed", "name": "h16", "size": 16, "logicalType": "uuid"}},
    {"name": "again", "type": "Kind"},
    {"name": "price", "type": {"type": "fixed", "name": "dec", "size": 5, "logicalType": "decimal",
                               "precision": 9, "scale": 2}}
  ]})js";

TEST(AvroSchema, ParsesIcebergPropertiesAndNamedReferences) {
  auto schema = AvroSchema::Parse(kSchema);
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  const AvroNode& root = schema->root();
  EXPECT_EQ(root.type, AvroType::kRecord);
  EXPECT_EQ(root.name, "iceberg.manifest_entry");
  ASSERT_EQ(root.fields.size(), 8u);
  EXPECT_EQ(root.fields[0].field_id, 0);
  EXPECT_EQ(root.fields[1].type->type, AvroType::kUnion);
  EXPECT_EQ(root.fields[1].type->NonNullBranch()->type, AvroType::kLong);
  EXPECT_EQ(root.fields[2].type->element_id, 7);
  EXPECT_EQ(root.fields[3].type->key_id, 9);
  EXPECT_EQ(root.fields[3].type->value_id, 10);
  EXPECT_EQ(root.fields[4].type, root.fields[6].type);  // Same named node.
  EXPECT_EQ(root.fields[5].type->logical_type, "uuid");
  EXPECT_EQ(root.fields[7].type->extra["precision"], 9);
  EXPECT_EQ(root.FieldIndexById(8), 3);
}

TEST(AvroSchema, RoundTripsThroughJson) {
  auto schema = AvroSchema::Parse(kSchema);
  ASSERT_TRUE(schema.has_value());
  auto again = AvroSchema::Parse(schema->ToJson());
  ASSERT_TRUE(again.has_value()) << again.error().ToString() << "\n" << schema->ToJson();
  EXPECT_EQ(again->ToJson(), schema->ToJson());
  EXPECT_NE(schema->ToJson().find("\"field-id\":8"), std::string::npos);
  EXPECT_NE(schema->ToJson().find("\"element-id\":7"), std::string::npos);
}

TEST(AvroSchema, RejectsBadSchemas) {
  for (std::string_view bad : {
           R"js("nosuchtype")js",
           R"js({"type": "record", "name": "r", "fields": [{"name": "a", "type": "int"}, {"name": "a", "type": "int"}]})js",
           R"js({"type": "record", "fields": []})js",
           R"js({"type": "record", "name": "1bad", "fields": []})js",
           R"js({"type": "fixed", "name": "f"})js",
           R"js({"type": "enum", "name": "e", "symbols": [1]})js",
           R"js(["int", "int"])js",
           R"js([])js",
           R"js({"type": "array"})js",
           R"js({"type":)js",
           R"js(42)js",
       }) {
    auto r = AvroSchema::Parse(bad);
    EXPECT_FALSE(r.has_value()) << bad;
    if (!r) {
      EXPECT_EQ(r.error().kind(), ErrorKind::kCorruption) << bad;
    }
  }
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += R"js({"type":"array","items":)js";
  deep += "\"int\"" + std::string(100, '}');
  EXPECT_FALSE(AvroSchema::Parse(deep).has_value());
}

TEST(AvroSchema, NamesTypesItsReferencesDefine) {
  // A Schema Registry's references: Money names Currency (defined by the reference before it);
  // Order names both, by full and by short name within their namespace.
  std::vector<std::string> references = {
      R"({"type": "enum", "name": "Currency", "namespace": "shop", "symbols": ["EUR", "USD"]})",
      R"({"type": "record", "name": "shop.Money", "fields": [{"name": "units", "type": "long"},
                                                         {"name": "currency", "type": "Currency"}]})"};
  auto order = AvroSchema::ParseWithReferences(
      R"({"type": "record", "name": "Order", "namespace": "shop", "fields": [
           {"name": "total", "type": "Money"}, {"name": "tip", "type": ["null", "shop.Money"]}]})",
      references);
  ASSERT_TRUE(order) << order.error().message();
  const AvroNode& root = order->root();
  EXPECT_EQ(root.name, "shop.Order");
  ASSERT_EQ(root.fields.size(), 2u);
  EXPECT_EQ(root.fields[0].type->name, "shop.Money");
  EXPECT_EQ(root.fields[0].type->fields[1].type->type, AvroType::kEnum);
  EXPECT_EQ(root.fields[1].type->NonNullBranch(), root.fields[0].type);
  // Written out whole: the schema stands alone again.
  auto alone = AvroSchema::Parse(order->ToJson());
  ASSERT_TRUE(alone) << alone.error().message();
  EXPECT_EQ(alone->root().fields[0].type->fields[1].type->name, "shop.Currency");

  // A type no reference defines, one defined twice, a reference that is not a schema, or a
  // reference that names a type only a later one defines: refused, saying which.
  EXPECT_EQ(AvroSchema::ParseWithReferences(R"({"type": "record", "name": "A", "fields": [
                                                 {"name": "x", "type": "Nope"}]})",
                                            {})
                .error()
                .message(),
            "avro schema: unknown type 'Nope'");
  auto twice =
      AvroSchema::ParseWithReferences(R"({"type": "enum", "name": "shop.Currency", "symbols": ["X"]})", references);
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().message(), "avro schema: type 'shop.Currency' is defined twice");
  auto garbage = AvroSchema::ParseWithReferences(R"("long")", {std::string("{\"type\": \"rec", 14)});
  ASSERT_FALSE(garbage);
  EXPECT_EQ(garbage.error().message().rfind("avro schema reference 1: avro schema: invalid JSON", 0), 0u)
      << garbage.error().message();
  auto order_wrong = AvroSchema::ParseWithReferences(R"("long")", {references[1], references[0]});
  ASSERT_FALSE(order_wrong);
  EXPECT_EQ(order_wrong.error().message(), "avro schema reference 1: avro schema: unknown type 'Currency'");
}

TEST(AvroSchema, AllowsRecursiveRecords) {
  auto r = AvroSchema::Parse(
      R"js({"type":"record","name":"node","fields":[{"name":"v","type":"int"},{"name":"next","type":["null","node"]}]})js");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->root().fields[1].type->branches[1], &r->root());
}

}  // namespace
}  // namespace floe::avro
