#include "formats/avro/column_decoder.h"

#include <gtest/gtest.h>

#include "formats/avro/binary_encoding.h"

namespace floe::avro {
namespace {

using formats::ColumnBatch;
using formats::Field;
using formats::Primitive;
using formats::TypeId;

Field Column(std::string name, formats::DataType type, bool nullable = true) {
  return Field{.name = std::move(name), .id = -1, .nullable = nullable, .type = std::move(type)};
}

std::string Encode(const AvroSchema& schema, const AvroValue& value) {
  std::string out;
  Status st = EncodeDatum(schema.root(), value, &out);
  EXPECT_TRUE(st.has_value()) << st.error().ToString();
  return out;
}

// Every logical type the stream job maps, plus nulls and the empty string.
constexpr char kEventSchema[] = R"js({"type":"record","name":"event","fields":[
  {"name":"id","type":"long"},
  {"name":"name","type":["null","string"]},
  {"name":"day","type":{"type":"int","logicalType":"date"}},
  {"name":"at_ms","type":{"type":"long","logicalType":"timestamp-millis"}},
  {"name":"at_us","type":["null",{"type":"long","logicalType":"timestamp-micros"}]},
  {"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},
  {"name":"fixed_price","type":{"type":"fixed","name":"f","size":5,"logicalType":"decimal","precision":9,"scale":2}},
  {"name":"uid","type":{"type":"string","logicalType":"uuid"}},
  {"name":"small","type":"int"},
  {"name":"ratio","type":"float"},
  {"name":"kind","type":{"type":"enum","name":"k","symbols":["A","B"]}},
  {"name":"tags","type":{"type":"array","items":"string"}},
  {"name":"attrs","type":{"type":"map","values":"long"}},
  {"name":"where","type":["null",{"type":"record","name":"loc","fields":[{"name":"lat","type":"double"}]}]},
  {"name":"extra","type":"string"}]})js";

std::vector<Field> EventFields() {
  return {Column("id", Primitive(TypeId::kInt64), false),
          Column("name", Primitive(TypeId::kString)),
          Column("day", Primitive(TypeId::kDate)),
          Column("at_ms", Primitive(TypeId::kTimestampTz)),
          Column("at_us", Primitive(TypeId::kTimestamp)),
          Column("price", formats::DecimalType(10, 2)),
          Column("fixed_price", formats::DecimalType(9, 2)),
          Column("uid", Primitive(TypeId::kUuid)),
          Column("small", Primitive(TypeId::kInt64)),  // int promoted to long
          Column("ratio", Primitive(TypeId::kDouble)),  // float promoted to double
          Column("kind", Primitive(TypeId::kString)),
          Column("tags", formats::ListType(Column("element", Primitive(TypeId::kString)))),
          Column("attrs", formats::MapType(Column("key", Primitive(TypeId::kString), false),
                                           Column("value", Primitive(TypeId::kInt64)))),
          Column("where", formats::StructType({Column("lat", Primitive(TypeId::kDouble))})),
          Column("absent", Primitive(TypeId::kString))};  // Not in the writer's schema: null.
}

AvroValue Event(int64_t id, AvroValue name, int64_t price_unscaled) {
  std::string price;
  for (int i = 7; i >= 0; --i) price += static_cast<char>((static_cast<uint64_t>(price_unscaled) >> (8 * i)) & 0xff);
  std::string fixed_price = price.substr(3);
  return AvroValue::Record({AvroValue::Long(id), std::move(name), AvroValue::Int(19'000), AvroValue::Long(1'700'000'000'123),
                            AvroValue::Null(), AvroValue::Bytes(price), AvroValue::Fixed(fixed_price),
                            AvroValue::String("123e4567-e89b-12d3-a456-426614174000"), AvroValue::Int(-5),
                            AvroValue::Float(0.5f), AvroValue::Enum(1, "B"),
                            AvroValue::Array({AvroValue::String("x"), AvroValue::String("")}),
                            AvroValue::Map({"a"}, {AvroValue::Long(7)}),
                            AvroValue::Record({AvroValue::Double(52.5)}), AvroValue::String("ignored")});
}

TEST(AvroColumnDecoder, DecodesEveryLogicalTypeIntoColumns) {
  auto schema = AvroSchema::Parse(kEventSchema);
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  auto decoder = AvroColumnDecoder::Make(schema->root(), EventFields());
  ASSERT_TRUE(decoder.has_value()) << decoder.error().ToString();
  ASSERT_EQ((*decoder)->unmatched_fields().size(), 1u);
  EXPECT_EQ((*decoder)->unmatched_fields()[0]->name, "extra");
  ColumnBatch batch = formats::MakeEmptyBatch(EventFields());
  ASSERT_TRUE((*decoder)->DecodeRow(Encode(*schema, Event(1, AvroValue::String(""), -12345)), batch).has_value());
  ASSERT_TRUE((*decoder)->DecodeRow(Encode(*schema, Event(2, AvroValue::Null(), 99)), batch).has_value());
  ASSERT_EQ(batch.num_rows, 2);
  EXPECT_EQ(batch.columns[0].Data<int64_t>()[1], 2);
  // '' and null stay apart.
  EXPECT_TRUE(batch.columns[1].IsValid(0));
  EXPECT_EQ(batch.columns[1].StringAt(0), "");
  EXPECT_FALSE(batch.columns[1].IsValid(1));
  EXPECT_EQ(batch.columns[2].Data<int32_t>()[0], 19'000);
  EXPECT_EQ(batch.columns[3].Data<int64_t>()[0], int64_t{1'700'000'000'123} * 1000);  // millis to micros
  EXPECT_FALSE(batch.columns[4].IsValid(0));
  EXPECT_TRUE(batch.columns[5].Data<__int128>()[0] == -12345);
  EXPECT_TRUE(batch.columns[6].Data<__int128>()[1] == 99);
  EXPECT_EQ(batch.columns[7].FixedAt(0), std::string_view("\x12\x3e\x45\x67\xe8\x9b\x12\xd3\xa4\x56\x42\x66\x14\x17\x40\x00", 16));
  EXPECT_EQ(batch.columns[8].Data<int64_t>()[0], -5);
  EXPECT_EQ(batch.columns[9].Data<double>()[0], 0.5);
  EXPECT_EQ(batch.columns[10].StringAt(0), "B");
  EXPECT_EQ(batch.columns[11].offsets, (std::vector<int32_t>{0, 2, 4}));
  EXPECT_EQ(batch.columns[11].children[0].StringAt(1), "");
  EXPECT_EQ(batch.columns[12].children[0].StringAt(0), "a");
  EXPECT_EQ(batch.columns[12].children[1].Data<int64_t>()[0], 7);
  EXPECT_EQ(batch.columns[13].children[0].Data<double>()[1], 52.5);
  EXPECT_FALSE(batch.columns[14].IsValid(0));
  EXPECT_FALSE(batch.columns[14].IsValid(1));
  for (const auto& column : batch.columns) EXPECT_EQ(column.length, 2);
}

TEST(AvroColumnDecoder, ABadDatumLeavesTheBatchAsItWas) {
  auto schema = AvroSchema::Parse(kEventSchema);
  ASSERT_TRUE(schema.has_value());
  auto decoder = AvroColumnDecoder::Make(schema->root(), EventFields());
  ASSERT_TRUE(decoder.has_value());
  ColumnBatch batch = formats::MakeEmptyBatch(EventFields());
  const std::string good = Encode(*schema, Event(1, AvroValue::String("n"), 1));
  ASSERT_TRUE((*decoder)->DecodeRow(good, batch).has_value());
  ColumnBatch before = formats::SliceBatch(batch, 0, 1);
  // Every truncation fails, with the column and byte named, and takes nothing into the batch.
  for (size_t cut = 0; cut < good.size(); ++cut) {
    Status st = (*decoder)->DecodeRow(std::string_view(good).substr(0, cut), batch);
    ASSERT_FALSE(st.has_value()) << "cut at " << cut;
    EXPECT_EQ(st.error().kind(), ErrorKind::kCorruption);
    EXPECT_NE(st.error().message().find("at byte"), std::string::npos) << st.error().message();
    ASSERT_EQ(batch.num_rows, 1);
    for (size_t c = 0; c < batch.columns.size(); ++c) {
      EXPECT_TRUE(formats::SameSlots(batch.columns[c], before.columns[c])) << "cut " << cut << " column " << c;
    }
  }
  // Bytes after the datum.
  Status extra = (*decoder)->DecodeRow(good + "x", batch);
  ASSERT_FALSE(extra.has_value());
  EXPECT_NE(extra.error().message().find("left over"), std::string::npos);
  // And the decoder still decodes after all that.
  ASSERT_TRUE((*decoder)->DecodeRow(good, batch).has_value());
  EXPECT_EQ(batch.num_rows, 2);
}

TEST(AvroColumnDecoder, RefusesOversizeLengthsAndCounts) {
  auto schema = AvroSchema::Parse(R"js({"type":"record","name":"r","fields":[
      {"name":"s","type":"string"},{"name":"a","type":{"type":"array","items":"long"}}]})js");
  ASSERT_TRUE(schema.has_value());
  std::vector<Field> fields = {Column("s", Primitive(TypeId::kString)),
                               Column("a", formats::ListType(Column("element", Primitive(TypeId::kInt64))))};
  auto decoder = AvroColumnDecoder::Make(schema->root(), fields);
  ASSERT_TRUE(decoder.has_value());
  ColumnBatch batch = formats::MakeEmptyBatch(fields);
  // A string claiming 2^62 bytes.
  std::string huge_string = "\xfe\xff\xff\xff\xff\xff\xff\xff\x7f";
  Status st = (*decoder)->DecodeRow(huge_string, batch);
  ASSERT_FALSE(st.has_value());
  EXPECT_NE(st.error().message().find("column 's'"), std::string::npos) << st.error().message();
  // A negative length.
  EXPECT_FALSE((*decoder)->DecodeRow(std::string("\x01", 1), batch).has_value());
  // An array claiming a billion longs in three bytes.
  std::string huge_array = std::string("\x00", 1) + "\x80\xa8\xd6\xb9\x07" + std::string("\x02\x02\x00", 3);
  st = (*decoder)->DecodeRow(huge_array, batch);
  ASSERT_FALSE(st.has_value());
  EXPECT_NE(st.error().message().find("cannot fit"), std::string::npos) << st.error().message();
  // Garbage: a union-free record of random bytes never crashes, and never half-fills the batch.
  uint32_t seed = 12345;
  for (int i = 0; i < 2000; ++i) {
    std::string bytes;
    for (int n = 0; n < i % 40; ++n) {
      seed = seed * 1103515245 + 12345;
      bytes += static_cast<char>(seed >> 16);
    }
    (void)(*decoder)->DecodeRow(bytes, batch);
    for (const auto& column : batch.columns) ASSERT_EQ(column.length, batch.num_rows);
  }
}

TEST(AvroColumnDecoder, NullIntoARequiredColumnAndBadUnionIndexes) {
  auto schema = AvroSchema::Parse(R"js({"type":"record","name":"r","fields":[{"name":"v","type":["null","long"]}]})js");
  ASSERT_TRUE(schema.has_value());
  std::vector<Field> fields = {Column("v", Primitive(TypeId::kInt64), /*nullable=*/false)};
  auto decoder = AvroColumnDecoder::Make(schema->root(), fields);
  ASSERT_TRUE(decoder.has_value());
  ColumnBatch batch = formats::MakeEmptyBatch(fields);
  EXPECT_TRUE((*decoder)->DecodeRow(std::string("\x02\x04", 2), batch).has_value());
  Status null_row = (*decoder)->DecodeRow(std::string("\x00", 1), batch);
  ASSERT_FALSE(null_row.has_value());
  EXPECT_NE(null_row.error().message().find("required"), std::string::npos);
  Status bad_branch = (*decoder)->DecodeRow(std::string("\x06\x04", 2), batch);
  ASSERT_FALSE(bad_branch.has_value());
  EXPECT_NE(bad_branch.error().message().find("union branch 3"), std::string::npos) << bad_branch.error().message();
  EXPECT_EQ(batch.num_rows, 1);
}

TEST(AvroColumnDecoder, ResolutionErrorsNameTheColumn) {
  auto schema = AvroSchema::Parse(R"js({"type":"record","name":"r","fields":[
      {"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":3}},
      {"name":"s","type":"string"}]})js");
  ASSERT_TRUE(schema.has_value());
  auto scale = AvroColumnDecoder::Make(schema->root(), {Column("price", formats::DecimalType(10, 2))});
  ASSERT_FALSE(scale.has_value());
  EXPECT_NE(scale.error().message().find("column 'price'"), std::string::npos) << scale.error().message();
  auto type = AvroColumnDecoder::Make(schema->root(), {Column("s", Primitive(TypeId::kInt64))});
  ASSERT_FALSE(type.has_value());
  EXPECT_EQ(type.error().kind(), ErrorKind::kInvalidArgument);
  auto required = AvroColumnDecoder::Make(schema->root(), {Column("other", Primitive(TypeId::kInt64), false)});
  ASSERT_FALSE(required.has_value());
  EXPECT_NE(required.error().message().find("required"), std::string::npos);
  auto not_record = AvroSchema::Parse(R"js("long")js");
  ASSERT_TRUE(not_record.has_value());
  EXPECT_FALSE(AvroColumnDecoder::Make(not_record->root(), {}).has_value());
}

TEST(AvroColumnDecoder, DeepNestingIsRefused) {
  // 40 records, each the only field of the one above it (the schema parser allows it).
  std::string schema_text = R"({"type":"record","name":"r0","fields":[{"name":"f","type":"long"}]})";
  formats::DataType type = formats::StructType({Column("f", Primitive(TypeId::kInt64))});
  for (int i = 1; i < 40; ++i) {
    schema_text = fmt::format(R"({{"type":"record","name":"r{}","fields":[{{"name":"f","type":{}}}]}})", i, schema_text);
    type = formats::StructType({Column("f", type)});
  }
  auto schema = AvroSchema::Parse(schema_text);
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  auto decoder = AvroColumnDecoder::Make(schema->root(), type.children);
  ASSERT_FALSE(decoder.has_value());
  EXPECT_NE(decoder.error().message().find("nested deeper"), std::string::npos);
}

TEST(AvroColumnDecoder, TimeUnitsAndFixedUuid) {
  auto schema = AvroSchema::Parse(R"js({"type":"record","name":"r","fields":[
      {"name":"t_ms","type":{"type":"int","logicalType":"time-millis"}},
      {"name":"t_us","type":{"type":"long","logicalType":"time-micros"}},
      {"name":"before_1970","type":{"type":"long","logicalType":"timestamp-nanos"}},
      {"name":"u","type":{"type":"fixed","name":"u16","size":16,"logicalType":"uuid"}}]})js");
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  std::vector<Field> fields = {Column("t_ms", Primitive(TypeId::kTime)), Column("t_us", Primitive(TypeId::kTime)),
                               Column("before_1970", Primitive(TypeId::kTimestampTz)),
                               Column("u", Primitive(TypeId::kUuid))};
  auto decoder = AvroColumnDecoder::Make(schema->root(), fields);
  ASSERT_TRUE(decoder.has_value()) << decoder.error().ToString();
  ColumnBatch batch = formats::MakeEmptyBatch(fields);
  std::string u(16, '\x42');
  Status st = (*decoder)->DecodeRow(
      Encode(*schema, AvroValue::Record({AvroValue::Int(1500), AvroValue::Long(7), AvroValue::Long(-1500), AvroValue::Fixed(u)})),
      batch);
  ASSERT_TRUE(st.has_value()) << st.error().ToString();
  EXPECT_EQ(batch.columns[0].Data<int64_t>()[0], 1'500'000);
  EXPECT_EQ(batch.columns[1].Data<int64_t>()[0], 7);
  EXPECT_EQ(batch.columns[2].Data<int64_t>()[0], -2);  // Floor, not toward zero.
  EXPECT_EQ(batch.columns[3].FixedAt(0), u);
}

TEST(AvroColumnDecoder, MillisThatOverflowMicrosAreAnError) {
  auto schema = AvroSchema::Parse(R"js({"type":"record","name":"r","fields":[
      {"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}}]})js");
  ASSERT_TRUE(schema.has_value());
  std::vector<Field> fields = {Column("at", Primitive(TypeId::kTimestampTz))};
  auto decoder = AvroColumnDecoder::Make(schema->root(), fields);
  ASSERT_TRUE(decoder.has_value());
  ColumnBatch batch = formats::MakeEmptyBatch(fields);
  Status st = (*decoder)->DecodeRow(Encode(*schema, AvroValue::Record({AvroValue::Long(INT64_MAX / 10)})), batch);
  ASSERT_FALSE(st.has_value());
  EXPECT_NE(st.error().message().find(std::to_string(INT64_MAX / 10) + " overflows"), std::string::npos)
      << st.error().message();
  EXPECT_EQ(batch.num_rows, 0);
}

}  // namespace
}  // namespace floe::avro
