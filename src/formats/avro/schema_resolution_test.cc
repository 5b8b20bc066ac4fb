#include "formats/avro/schema_resolution.h"

#include <gtest/gtest.h>

namespace floe::avro {
namespace {

TEST(SchemaResolution, MatchesFieldsByIdThenName) {
  // Written by an older writer: field 2 was called "old_name", no field 4.
  auto writer = AvroSchema::Parse(R"js({"type":"record","name":"w","fields":[
      {"name":"a","type":"int","field-id":1},
      {"name":"old_name","type":"string","field-id":2},
      {"name":"dropped","type":"long","field-id":3}]})js");
  auto reader = AvroSchema::Parse(R"js({"type":"record","name":"r","fields":[
      {"name":"new_name","type":"string","field-id":2},
      {"name":"a","type":"long","field-id":1},
      {"name":"added","type":["null","long"],"default":null,"field-id":4},
      {"name":"with_default","type":"int","default":42,"field-id":5}]})js");
  ASSERT_TRUE(writer.has_value() && reader.has_value());
  AvroValue written = AvroValue::Record({AvroValue::Int(7), AvroValue::String("x"), AvroValue::Long(9)});
  auto r = ResolveDatum(writer->root(), reader->root(), written);
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(*r, AvroValue::Record({AvroValue::String("x"), AvroValue::Long(7), AvroValue::Null(), AvroValue::Int(42)}));
}

TEST(SchemaResolution, MissingRequiredFieldIsAnError) {
  auto writer = AvroSchema::Parse(R"js({"type":"record","name":"w","fields":[{"name":"a","type":"int"}]})js");
  auto reader = AvroSchema::Parse(R"js({"type":"record","name":"r","fields":[{"name":"b","type":"int"}]})js");
  auto r = ResolveDatum(writer->root(), reader->root(), AvroValue::Record({AvroValue::Int(1)}));
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message().find("no default"), std::string::npos);
}

TEST(SchemaResolution, PromotesAndUnwrapsUnions) {
  auto writer = AvroSchema::Parse(R"js(["null","int"])js");
  auto reader = AvroSchema::Parse(R"js(["null","double"])js");
  auto r = ResolveDatum(writer->root(), reader->root(), AvroValue::Int(3));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, AvroValue::Double(3));
  auto n = ResolveDatum(writer->root(), reader->root(), AvroValue::Null());
  ASSERT_TRUE(n.has_value());
  EXPECT_TRUE(n->is_null());
}

}  // namespace
}  // namespace floe::avro
