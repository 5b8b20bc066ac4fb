#include "base/bytes.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(ByteReader, ReadsBothEndiannesses) {
  const uint8_t data[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
  ByteReader big(data, sizeof(data));
  EXPECT_EQ(*big.ReadBig<int32_t>("a"), 0x01020304);
  EXPECT_EQ(*big.ReadBig<uint16_t>("b"), 0x0506);
  ByteReader little(data, sizeof(data));
  EXPECT_EQ(*little.ReadLittle<uint64_t>("c"), 0x0807060504030201ull);
  EXPECT_TRUE(little.empty());
}

TEST(ByteReader, TruncationIsACorruptionNamingWhatAndWhere) {
  const uint8_t data[] = {0x00, 0x01, 0x02};
  ByteReader reader(data, sizeof(data));
  ASSERT_TRUE(reader.ReadBig<int16_t>("api key").has_value());
  auto r = reader.ReadBig<int32_t>("correlation id");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind(), ErrorKind::kCorruption);
  EXPECT_EQ(r.error().message(), "correlation id at byte 2: needs 4 bytes, 1 remain");
  EXPECT_EQ(reader.position(), 2u);  // A failed read consumes nothing.
}

TEST(ByteReader, AbsurdLengthIsRefusedWithoutAllocating) {
  const uint8_t data[] = {0x41, 0x42};
  ByteReader reader(data, sizeof(data));
  auto r = reader.ReadBytes(size_t{1} << 40, "string body");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind(), ErrorKind::kCorruption);
}

TEST(ByteWriter, RoundTripsThroughReader) {
  std::string buf;
  ByteWriter writer(&buf);
  writer.AppendBig<int32_t>(-2);
  writer.AppendLittle<double>(1.5);
  writer.AppendBig<float>(-0.25f);
  writer.AppendSignedVarint(-300);
  writer.AppendBytes("xyz");
  ByteReader reader(buf);
  EXPECT_EQ(*reader.ReadBig<int32_t>("i"), -2);
  EXPECT_EQ(*reader.ReadLittle<double>("d"), 1.5);
  EXPECT_EQ(*reader.ReadBig<float>("f"), -0.25f);
  EXPECT_EQ(*reader.ReadSignedVarint("v"), -300);
  EXPECT_EQ(*reader.ReadBytes(3, "s"), "xyz");
}

TEST(ByteWriter, PatchBigOverwritesALengthPrefix) {
  std::string buf;
  ByteWriter writer(&buf);
  writer.AppendBig<int32_t>(0);
  writer.AppendBytes("hello");
  writer.PatchBig<int32_t>(0, static_cast<int32_t>(buf.size() - 4));
  ByteReader reader(buf);
  EXPECT_EQ(*reader.ReadBig<int32_t>("length"), 5);
}

}  // namespace
}  // namespace floe
