#include "serve/pg_types.h"

#include <gtest/gtest.h>

namespace floe::serve::pg {
namespace {

using sql::SqlType;
using sql::Value;

std::string Hex(const std::string& bytes) {
  std::string out;
  for (unsigned char c : bytes) out += fmt::format("{:02x}", c);
  return out;
}

TEST(PgTypesTest, OidsOfFloeTypes) {
  EXPECT_EQ(TypeOid(SqlType::Bigint()), 20);
  EXPECT_EQ(TypeOid(SqlType::Integer()), 23);
  EXPECT_EQ(TypeOid(SqlType::Double()), 701);
  EXPECT_EQ(TypeOid(SqlType::Decimal(10, 2)), 1700);
  EXPECT_EQ(TypeOid(SqlType::Varchar()), 25);
  EXPECT_EQ(TypeOid(SqlType::Boolean()), 16);
  EXPECT_EQ(TypeOid(SqlType::Date()), 1082);
  EXPECT_EQ(TypeOid(SqlType::Timestamp()), 1114);
  EXPECT_EQ(TypeOid(SqlType::TimestampTz()), 1184);
}

TEST(PgTypesTest, TextFormats) {
  EXPECT_EQ(TextValue(Value::Boolean(true)), "t");
  EXPECT_EQ(TextValue(Value::Null(SqlType::Integer())), std::nullopt);
  // 2024-01-01 10:00:00.5 UTC in microseconds.
  int64_t micros = 1704103200LL * 1'000'000 + 500'000;
  EXPECT_EQ(TextValue(Value::Int(SqlType::Timestamp(), micros)), "2024-01-01 10:00:00.5");
  EXPECT_EQ(TextValue(Value::Int(SqlType::Timestamp(), micros - 500'000)), "2024-01-01 10:00:00");
  EXPECT_EQ(TextValue(Value::Int(SqlType::TimestampTz(), micros)), "2024-01-01 10:00:00.5+00");
}

// Arrays of scalars go as PostgreSQL arrays (int8[] is 1016, text[] 1009), so drivers parse
// them; maps and arrays of rows have no PostgreSQL type and go as text, as rows do.
TEST(PgTypesTest, ArraysAsPostgresArrays) {
  SqlType bigints = SqlType::Array(SqlType::Bigint());
  SqlType texts = SqlType::Array(SqlType::Varchar());
  EXPECT_EQ(TypeOid(bigints), oid::kInt8Array);
  EXPECT_EQ(TypeOid(texts), oid::kTextArray);
  EXPECT_EQ(TypeName(TypeOid(bigints)), "bigint[]");
  EXPECT_EQ(TypeOid(SqlType::Map(SqlType::Varchar(), SqlType::Bigint())), oid::kText);
  EXPECT_EQ(TypeOid(SqlType::Array(bigints)), oid::kText);
  Value numbers = Value::Array(
      bigints, {Value::Int(SqlType::Bigint(), 1), Value::Null(SqlType::Bigint()), Value::Int(SqlType::Bigint(), -3)});
  EXPECT_EQ(TextValue(numbers), "{1,NULL,-3}");
  auto text = [](std::string s) { return Value::String(SqlType::Varchar(), std::move(s)); };
  Value words = Value::Array(
      texts, {text("a"), text(""), text("NULL"), text("x y"), text("q\"b\\"), Value::Null(SqlType::Varchar())});
  EXPECT_EQ(TextValue(words), R"({a,"","NULL","x y","q\"b\\",NULL})");
  EXPECT_EQ(TextValue(Value::Array(texts, {})), "{}");
  Value map =
      Value::Map(SqlType::Map(SqlType::Varchar(), SqlType::Bigint()), {text("k"), Value::Int(SqlType::Bigint(), 1)});
  EXPECT_EQ(TextValue(map), "{k=1}");
}

TEST(PgTypesTest, BinaryFormats) {
  EXPECT_EQ(Hex(**BinaryValue(Value::Int(SqlType::Integer(), -2))), "fffffffe");
  EXPECT_EQ(Hex(**BinaryValue(Value::Int(SqlType::Bigint(), 9'000'000'000))), "0000000218711a00");
  EXPECT_EQ(Hex(**BinaryValue(Value::Double(SqlType::Double(), 0.5))), "3fe0000000000000");
  EXPECT_EQ(Hex(**BinaryValue(Value::Boolean(false))), "00");
  // Dates and timestamps count from 2000-01-01.
  EXPECT_EQ(Hex(**BinaryValue(Value::Int(SqlType::Date(), 10957 + 1))), "00000001");
  EXPECT_EQ(Hex(**BinaryValue(Value::Int(SqlType::Timestamp(), 946684800LL * 1'000'000 + 1))), "0000000000000001");
  EXPECT_FALSE(BinaryValue(Value::Null(SqlType::Integer()))->has_value());
}

TEST(PgTypesTest, NumericBinaryRoundTrips) {
  // 12345.678: digits 1, 2345, 6780; weight 1; dscale 3.
  auto encoded = EncodeNumeric("-12345.678");
  ASSERT_TRUE(encoded.has_value());
  EXPECT_EQ(Hex(*encoded), "0003" "0001" "4000" "0003" "0001" "0929" "1a7c");
  for (std::string text : {"0", "0.00", "1", "-1", "10000", "0.0001", "123456789012345678.123456789", "-0.5"}) {
    auto bytes = EncodeNumeric(text);
    ASSERT_TRUE(bytes.has_value()) << text;
    auto back = DecodeNumeric(*bytes);
    ASSERT_TRUE(back.has_value()) << text;
    EXPECT_EQ(*back, text == "-0.5" ? "-0.5" : text) << text;
  }
  EXPECT_FALSE(EncodeNumeric("12a").has_value());
  // Garbage, truncation and oversize in a bound numeric.
  EXPECT_FALSE(DecodeNumeric("").has_value());
  EXPECT_FALSE(DecodeNumeric(std::string("\0\x05\0\0\0\0\0\0", 8)).has_value());           // 5 digits promised.
  EXPECT_FALSE(DecodeNumeric(std::string("\0\x01\0\0\0\0\0\0\xff\xff", 10)).has_value());  // Digit out of range.
  EXPECT_FALSE(DecodeNumeric(std::string("\0\0\0\0\0\0\x7f\xff", 8)).has_value());         // Absurd scale.
}

TEST(PgTypesTest, ParameterLiterals) {
  EXPECT_EQ(*ParameterLiteral(23, 0, "42"), "42");
  EXPECT_FALSE(ParameterLiteral(23, 0, "42; DROP TABLE x").has_value());
  EXPECT_EQ(*ParameterLiteral(25, 0, "it's"), "'it''s'");
  EXPECT_EQ(*ParameterLiteral(0, 0, "7"), "7");
  EXPECT_EQ(*ParameterLiteral(0, 0, "007"), "'007'");
  EXPECT_EQ(*ParameterLiteral(0, 0, "x' OR '1'='1"), "'x'' OR ''1''=''1'");
  EXPECT_EQ(*ParameterLiteral(16, 0, "t"), "TRUE");
  EXPECT_EQ(*ParameterLiteral(23, 0, std::nullopt), "NULL");
  EXPECT_EQ(*ParameterLiteral(23, 1, std::string("\0\0\0\x2a", 4)), "42");
  EXPECT_EQ(*ParameterLiteral(20, 1, std::string("\xff\xff\xff\xff\xff\xff\xff\xfe", 8)), "-2");
  EXPECT_EQ(*ParameterLiteral(1082, 1, std::string("\0\0\0\0", 4)), "DATE '2000-01-01'");
  // Binary parameters of the wrong size are refused.
  EXPECT_FALSE(ParameterLiteral(23, 1, std::string("\0\0\x2a", 3)).has_value());
  EXPECT_FALSE(ParameterLiteral(20, 1, std::string(100, 'x')).has_value());
  EXPECT_FALSE(ParameterLiteral(25, 0, std::string("a\0b", 3)).has_value());
}

}  // namespace
}  // namespace floe::serve::pg
