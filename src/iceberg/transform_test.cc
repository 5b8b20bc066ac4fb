#include "iceberg/transform.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "iceberg/murmur3.h"

namespace floe::iceberg {
namespace {

TypePtr T(TypeId id) { return Type::Primitive(id); }

Literal Cast(const Literal& v, const TypePtr& type) {
  auto c = CastLiteral(v, *type);
  EXPECT_TRUE(c.has_value()) << v.ToString() << " as " << type->ToString();
  return c.value_or(Literal());
}

// Appendix B's test values.
TEST(BucketHash, MatchesTheSpecsTestVectors) {
  EXPECT_EQ(BucketHash(*T(TypeId::kInt), Literal::Int(34)), 2017239379);
  EXPECT_EQ(BucketHash(*T(TypeId::kLong), Literal::Long(34)), 2017239379);
  auto dec = Type::Decimal(9, 2);
  EXPECT_EQ(BucketHash(*dec, Cast(Literal::String("14.20"), dec)), -500754589);
  EXPECT_EQ(BucketHash(*T(TypeId::kDate), Cast(Literal::String("2017-11-16"), T(TypeId::kDate))), -653330422);
  EXPECT_EQ(BucketHash(*T(TypeId::kTime), Cast(Literal::String("22:31:08"), T(TypeId::kTime))), -662762989);
  EXPECT_EQ(BucketHash(*T(TypeId::kTimestamp), Cast(Literal::String("2017-11-16T22:31:08"), T(TypeId::kTimestamp))),
            -2047944441);
  EXPECT_EQ(BucketHash(*T(TypeId::kTimestamp),
                       Cast(Literal::String("2017-11-16T22:31:08.000001"), T(TypeId::kTimestamp))),
            -1207196810);
  EXPECT_EQ(BucketHash(*T(TypeId::kTimestampTz),
                       Cast(Literal::String("2017-11-16T14:31:08-08:00"), T(TypeId::kTimestampTz))),
            -2047944441);
  EXPECT_EQ(BucketHash(*T(TypeId::kTimestampTz),
                       Cast(Literal::String("2017-11-16T14:31:08.000001-08:00"), T(TypeId::kTimestampTz))),
            -1207196810);
  EXPECT_EQ(BucketHash(*T(TypeId::kTimestampNs),
                       Cast(Literal::String("2017-11-16T22:31:08"), T(TypeId::kTimestampNs))),
            -2047944441);
  EXPECT_EQ(BucketHash(*T(TypeId::kTimestampNs),
                       Cast(Literal::String("2017-11-16T22:31:08.000001001"), T(TypeId::kTimestampNs))),
            -1207196810);
  EXPECT_EQ(BucketHash(*T(TypeId::kTimestampTzNs),
                       Cast(Literal::String("2017-11-16T14:31:08.000001001-08:00"), T(TypeId::kTimestampTzNs))),
            -1207196810);
  EXPECT_EQ(BucketHash(*T(TypeId::kString), Literal::String("iceberg")), 1210000089);
  EXPECT_EQ(BucketHash(*T(TypeId::kUuid),
                       Cast(Literal::String("f79c3e09-677c-4bbd-a479-3f349cb785e7"), T(TypeId::kUuid))),
            1488055340);
  EXPECT_EQ(BucketHash(*Type::Fixed(4), Literal::Binary(std::string("\0\1\2\3", 4))), -188683207);
  EXPECT_EQ(BucketHash(*T(TypeId::kBinary), Literal::Binary(std::string("\0\1\2\3", 4))), -188683207);
  // Booleans and doubles are not bucketed, but the appendix lists their hashes.
  EXPECT_EQ(Murmur3HashLong(1), 1392991556);  // hashInt(1) == hashLong(1) for true
}

TEST(Transform, BucketUsesThePositiveModulo) {
  Transform b = Transform::Bucket(16);
  Literal v = b.Apply(*T(TypeId::kInt), Literal::Int(34));
  EXPECT_EQ(v.as_int(), (2017239379 & 0x7FFFFFFF) % 16);
  Literal s = b.Apply(*T(TypeId::kString), Literal::String("iceberg"));
  EXPECT_EQ(s.as_int(), (1210000089 & 0x7FFFFFFF) % 16);
  Literal neg = Transform::Bucket(100).Apply(*T(TypeId::kTimestamp), Literal::Long(0));
  EXPECT_GE(neg.as_int(), 0);
  EXPECT_TRUE(b.Apply(*T(TypeId::kInt), Literal::Null()).is_null());
}

TEST(Transform, TruncateMatchesTheSpecsExamples) {
  Transform t10 = Transform::Truncate(10);
  EXPECT_EQ(t10.Apply(*T(TypeId::kInt), Literal::Int(1)).as_int(), 0);
  EXPECT_EQ(t10.Apply(*T(TypeId::kInt), Literal::Int(-1)).as_int(), -10);
  EXPECT_EQ(t10.Apply(*T(TypeId::kLong), Literal::Long(-1)).as_long(), -10);
  auto dec = Type::Decimal(9, 2);
  Literal d = Transform::Truncate(50).Apply(*dec, Cast(Literal::String("10.65"), dec));
  EXPECT_EQ(DecimalToString(d.unscaled(), d.scale()), "10.50");
  EXPECT_EQ(Transform::Truncate(3).Apply(*T(TypeId::kString), Literal::String("iceberg")).as_bytes(), "ice");
  // Code points, not bytes.
  EXPECT_EQ(Transform::Truncate(2).Apply(*T(TypeId::kString), Literal::String("\xc3\xa9t\xc3\xa9")).as_bytes(),
            "\xc3\xa9t");
  EXPECT_EQ(Transform::Truncate(3).Apply(*T(TypeId::kBinary), Literal::Binary("\x01\x02\x03\x04\x05")).as_bytes(),
            "\x01\x02\x03");
}

TEST(Transform, DateAndTimeTransforms) {
  auto ts = T(TypeId::kTimestamp);
  Literal v = Cast(Literal::String("2017-11-16T22:31:08"), ts);
  EXPECT_EQ(Transform::Year().Apply(*ts, v).as_int(), 47);
  EXPECT_EQ(Transform::Month().Apply(*ts, v).as_int(), 47 * 12 + 10);
  EXPECT_EQ(Transform::Day().Apply(*ts, v).as_int(), 17486);
  EXPECT_EQ(Transform::Hour().Apply(*ts, v).as_int(), 17486 * 24 + 22);
  // Before the epoch, floor rather than truncate toward zero.
  Literal before = Cast(Literal::String("1969-12-31T23:59:59.999999"), ts);
  EXPECT_EQ(Transform::Day().Apply(*ts, before).as_int(), -1);
  EXPECT_EQ(Transform::Hour().Apply(*ts, before).as_int(), -1);
  EXPECT_EQ(Transform::Year().Apply(*ts, before).as_int(), -1);
  EXPECT_EQ(Transform::Month().Apply(*ts, before).as_int(), -1);
  auto date = T(TypeId::kDate);
  EXPECT_EQ(Transform::Month().Apply(*date, Cast(Literal::String("1970-02-01"), date)).as_int(), 1);
  auto ns = T(TypeId::kTimestampNs);
  EXPECT_EQ(Transform::Day().Apply(*ns, Cast(Literal::String("2017-11-16T22:31:08.000000001"), ns)).as_int(), 17486);
  EXPECT_TRUE(Transform::Void().Apply(*ts, v).is_null());
}

TEST(Transform, ParsesAndPrintsNames) {
  for (std::string_view name : {"identity", "bucket[16]", "truncate[4]", "year", "month", "day", "hour", "void"}) {
    auto t = Transform::Parse(name);
    ASSERT_TRUE(t.has_value()) << name;
    EXPECT_EQ(t->ToString(), name);
  }
  auto unknown = Transform::Parse("zorder");
  ASSERT_TRUE(unknown.has_value());
  EXPECT_EQ(unknown->kind(), Transform::Kind::kUnknown);
  EXPECT_EQ(unknown->ToString(), "zorder");
  EXPECT_FALSE(Transform::Parse("bucket[0]").has_value());
  EXPECT_FALSE(Transform::Parse("truncate[x]").has_value());
  EXPECT_FALSE(Transform::Hour().CanTransform(*T(TypeId::kDate)));
  EXPECT_FALSE(Transform::Bucket(2).CanTransform(*T(TypeId::kDouble)));
}

TEST(Literal, BinarySerializationFollowsAppendixD) {
  EXPECT_EQ(ToBinary(*T(TypeId::kInt), Literal::Int(42)), std::string("\x2a\0\0\0", 4));
  EXPECT_EQ(ToBinary(*T(TypeId::kLong), Literal::Long(-2)), std::string("\xfe\xff\xff\xff\xff\xff\xff\xff", 8));
  EXPECT_EQ(ToBinary(*T(TypeId::kDouble), Literal::Double(1.0)), std::string("\0\0\0\0\0\0\xf0\x3f", 8));
  EXPECT_EQ(ToBinary(*T(TypeId::kString), Literal::String("abc")), "abc");
  auto dec = Type::Decimal(9, 2);
  // 14.20 -> unscaled 1420 = 0x058c, minimal big-endian.
  EXPECT_EQ(ToBinary(*dec, Cast(Literal::String("14.20"), dec)), std::string("\x05\x8c", 2));
  EXPECT_EQ(ToBinary(*dec, Cast(Literal::String("-1.28"), dec)), std::string("\x80", 1));
  EXPECT_EQ(ToBinary(*dec, Cast(Literal::String("1.28"), dec)), std::string("\x00\x80", 2));
  auto uuid = T(TypeId::kUuid);
  EXPECT_EQ(ToBinary(*uuid, Cast(Literal::String("f79c3e09-677c-4bbd-a479-3f349cb785e7"), uuid)),
            std::string("\xF7\x9C\x3E\x09\x67\x7C\x4B\xBD\xA4\x79\x3F\x34\x9C\xB7\x85\xE7", 16));
  for (auto [type, lit] : std::vector<std::pair<TypePtr, Literal>>{
           {T(TypeId::kInt), Literal::Int(-7)},
           {T(TypeId::kLong), Literal::Long(int64_t{1} << 40)},
           {T(TypeId::kFloat), Literal::Float(2.5f)},
           {T(TypeId::kDouble), Literal::Double(-0.0)},
           {T(TypeId::kBoolean), Literal::Boolean(true)},
           {dec, Literal::Decimal(-123456, 2)},
           {T(TypeId::kTimestampTz), Literal::Long(1510871468000000)},
       }) {
    auto back = FromBinary(*type, ToBinary(*type, lit));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, lit) << type->ToString();
  }
  // A 4-byte bound read as long (after int->long promotion).
  EXPECT_EQ(FromBinary(*T(TypeId::kLong), std::string("\x05\0\0\0", 4))->as_long(), 5);
  EXPECT_FALSE(FromBinary(*T(TypeId::kInt), "abc").has_value());
  EXPECT_FALSE(FromBinary(*T(TypeId::kUuid), "short").has_value());
}

TEST(Literal, JsonSerializationFollowsAppendixD) {
  auto ts = T(TypeId::kTimestamp);
  Literal v = Cast(Literal::String("2017-11-16T22:31:08.123456"), ts);
  EXPECT_EQ(ToJsonValue(*ts, v), "2017-11-16T22:31:08.123456");
  EXPECT_EQ(ToJsonValue(*T(TypeId::kTimestampTz), v), "2017-11-16T22:31:08.123456+00:00");
  EXPECT_EQ(ToJsonValue(*T(TypeId::kDate), Literal::Int(17486)), "2017-11-16");
  EXPECT_EQ(ToJsonValue(*Type::Decimal(9, 2), Literal::Decimal(1420, 2)), "14.20");
  EXPECT_EQ(ToJsonValue(*T(TypeId::kBinary), Literal::Binary(std::string("\x00\x01\x02\xff", 4))), "000102ff");
  EXPECT_EQ(ToJsonValue(*T(TypeId::kTime), Literal::Long(81068123456)), "22:31:08.123456");
  auto back = FromJsonValue(*ts, "2017-11-16T22:31:08.123456");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, v);
  EXPECT_FALSE(FromJsonValue(*T(TypeId::kDate), "2017-13-40").has_value());
  EXPECT_FALSE(FromJsonValue(*T(TypeId::kInt), "x").has_value());
}

TEST(Literal, OrdersFloatsAsTheSpecSays) {
  EXPECT_LT(Literal::Double(-0.0), Literal::Double(0.0));
  EXPECT_LT(Literal::Double(1e300), Literal::Double(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_LT(Literal::String("a"), Literal::String("\xc3\xa9"));  // unsigned bytes
  EXPECT_EQ(Literal::Int(5), Literal::Long(5));
}

}  // namespace
}  // namespace floe::iceberg
