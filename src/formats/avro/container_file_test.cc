#include "formats/avro/container_file.h"

#include <gtest/gtest.h>

#include "base/varint.h"
#include "formats/avro/binary_encoding.h"

namespace floe::avro {
namespace {

constexpr std::string_view kContainerSchema = R"js({
  "type": "record", "name": "r",
  "fields": [
    {"name": "b", "type": "boolean"},
    {"name": "i", "type": "int"},
    {"name": "l", "type": ["null", "long"]},
    {"name": "f", "type": "float"},
    {"name": "d", "type": "double"},
    {"name": "s", "type": "string"},
    {"name": "y", "type": "bytes"},
    {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["X", "Y", "Z"]}},
    {"name": "x", "type": {"type": "fixed", "name": "F", "size": 3}},
    {"name": "a", "type": {"type": "array", "items": "long"}},
    {"name": "m", "type": {"type": "map", "values": ["null", "string"]}},
    {"name": "n", "type": {"type": "record", "name": "inner", "fields": [{"name": "z", "type": "int"}]}}
  ]})js";

AvroValue MakeRecord(int k) {
  std::vector<AvroValue> arr;
  for (int j = 0; j < k % 5; ++j) arr.push_back(AvroValue::Long(int64_t{1} << (j * 10)));
  return AvroValue::Record({
      AvroValue::Boolean(k % 2 == 0),
      AvroValue::Int(-k),
      k % 3 == 0 ? AvroValue::Null() : AvroValue::Long(int64_t{k} * 1000000007),
      AvroValue::Float(1.5f * k),
      AvroValue::Double(-0.25 * k),
      AvroValue::String("row " + std::to_string(k) + " \xc3\xa9"),
      AvroValue::Bytes(std::string("\0\xff\x01", 3)),
      AvroValue::Enum(k % 3, std::string(1, static_cast<char>('X' + k % 3))),
      AvroValue::Fixed("abc"),
      AvroValue::Array(std::move(arr)),
      AvroValue::Map({"one", "two"}, {AvroValue::String("1"), AvroValue::Null()}),
      AvroValue::Record({AvroValue::Int(k * 7)}),
  });
}

std::string WriteFile(Codec codec, int n) {
  auto schema = AvroSchema::Parse(kContainerSchema);
  EXPECT_TRUE(schema.has_value());
  ContainerWriter writer(std::move(*schema), codec, {{"iceberg.key", "value"}});
  for (int k = 0; k < n; ++k) EXPECT_TRUE(writer.Append(MakeRecord(k)).has_value());
  auto bytes = writer.Finish();
  EXPECT_TRUE(bytes.has_value());
  return *bytes;
}

class ContainerCodecTest : public testing::TestWithParam<Codec> {};

TEST_P(ContainerCodecTest, RoundTripsEveryType) {
  // Enough records for several blocks.
  constexpr int kRecords = 8000;
  std::string bytes = WriteFile(GetParam(), kRecords);
  auto reader = ContainerReader::Open(bytes);
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  EXPECT_EQ(reader->codec(), GetParam());
  EXPECT_EQ(reader->metadata().at("iceberg.key"), "value");
  auto records = reader->ReadAll();
  ASSERT_TRUE(records.has_value()) << records.error().ToString();
  ASSERT_EQ(records->size(), static_cast<size_t>(kRecords));
  for (int k = 0; k < kRecords; ++k) ASSERT_EQ((*records)[k], MakeRecord(k)) << k;
  auto json = DatumToJson(reader->schema().root(), (*records)[1]);
  EXPECT_EQ(json["e"], "Y");
  EXPECT_EQ(json["l"], 1000000007);
  EXPECT_EQ(json["n"]["z"], 7);
}

INSTANTIATE_TEST_SUITE_P(Codecs, ContainerCodecTest,
                         testing::Values(Codec::kNull, Codec::kDeflate, Codec::kSnappy, Codec::kZstd));

TEST(ContainerFile, TruncationAtEveryLengthIsCorruption) {
  for (Codec codec : {Codec::kNull, Codec::kDeflate, Codec::kSnappy, Codec::kZstd}) {
    std::string bytes = WriteFile(codec, 20);
    for (size_t len = 0; len < bytes.size(); ++len) {
      auto reader = ContainerReader::Open(bytes.substr(0, len));
      if (!reader) {
        EXPECT_EQ(reader.error().kind(), ErrorKind::kCorruption) << len;
        continue;
      }
      auto all = reader->ReadAll();
      // A cut exactly at a block boundary reads fewer records; anything else must fail.
      if (all) {
        EXPECT_LT(all->size(), 20u) << "codec " << CodecName(codec) << " len " << len;
      } else {
        EXPECT_EQ(all.error().kind(), ErrorKind::kCorruption) << all.error().ToString();
      }
    }
  }
}

TEST(ContainerFile, GarbageNeverCrashesAndIsCorruption) {
  std::string bytes = WriteFile(Codec::kNull, 50);
  uint32_t seed = 12345;
  for (int round = 0; round < 3000; ++round) {
    std::string copy = bytes;
    for (int flips = 0; flips < 1 + round % 4; ++flips) {
      seed = seed * 1103515245 + 12345;
      copy[seed % copy.size()] = static_cast<char>(seed >> 16);
    }
    auto reader = ContainerReader::Open(copy);
    if (!reader) continue;
    auto all = reader->ReadAll();
    if (!all) {
      EXPECT_EQ(all.error().kind(), ErrorKind::kCorruption) << all.error().ToString();
    }
  }
  EXPECT_FALSE(ContainerReader::Open("not avro at all").has_value());
  EXPECT_FALSE(ContainerReader::Open("").has_value());
}

TEST(ContainerFile, SnappyChecksumMismatchIsCorruption) {
  auto compressed = Compress(Codec::kSnappy, "hello hello hello");
  ASSERT_TRUE(compressed.has_value());
  std::string bad = *compressed;
  bad.back() ^= 1;
  auto r = Decompress(Codec::kSnappy, bad, 1 << 20);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message().find("CRC"), std::string::npos);
}

TEST(BinaryEncoding, AbsurdLengthsAndCountsAreCorruption) {
  auto schema = AvroSchema::Parse(R"js({"type":"array","items":"long"})js");
  ASSERT_TRUE(schema.has_value());
  std::string data;
  varint::AppendSigned(&data, int64_t{1} << 40);  // A block of 2^40 longs in a few bytes.
  data += "\x02\x02";
  ByteReader in(data);
  auto r = DecodeDatum(schema->root(), in);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind(), ErrorKind::kCorruption);

  auto str = AvroSchema::Parse(R"js("string")js");
  std::string s;
  varint::AppendSigned(&s, int64_t{1} << 50);
  s += "abc";
  ByteReader in2(s);
  auto r2 = DecodeDatum(str->root(), in2);
  ASSERT_FALSE(r2.has_value());
  EXPECT_NE(r2.error().message().find("length"), std::string::npos);

  std::string neg;
  varint::AppendSigned(&neg, -5);
  ByteReader in3(neg);
  EXPECT_FALSE(DecodeDatum(str->root(), in3).has_value());

  auto nulls = AvroSchema::Parse(R"js({"type":"array","items":"null"})js");
  std::string many;
  varint::AppendSigned(&many, int64_t{1} << 40);
  many.push_back(0);
  ByteReader in4(many);
  EXPECT_FALSE(DecodeDatum(nulls->root(), in4).has_value());

  auto uni = AvroSchema::Parse(R"js(["null","int"])js");
  std::string badbranch;
  varint::AppendSigned(&badbranch, 7);
  ByteReader in5(badbranch);
  EXPECT_FALSE(DecodeDatum(uni->root(), in5).has_value());
}

TEST(Codec, OversizeDecompressionIsRefused) {
  std::string big(1 << 20, 'a');
  for (Codec codec : {Codec::kDeflate, Codec::kSnappy, Codec::kZstd}) {
    auto c = Compress(codec, big);
    ASSERT_TRUE(c.has_value());
    auto r = Decompress(codec, *c, 1000);
    ASSERT_FALSE(r.has_value()) << CodecName(codec);
    EXPECT_EQ(r.error().kind(), ErrorKind::kCorruption);
    auto ok = Decompress(codec, *c, big.size());
    ASSERT_TRUE(ok.has_value());
    EXPECT_EQ(*ok, big);
  }
}

}  // namespace
}  // namespace floe::avro
