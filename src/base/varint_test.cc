#include "base/varint.h"

#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(Varint, ZigZagMatchesTheProtobufMapping) {
  EXPECT_EQ(varint::ZigZagEncode(0), 0u);
  EXPECT_EQ(varint::ZigZagEncode(-1), 1u);
  EXPECT_EQ(varint::ZigZagEncode(1), 2u);
  EXPECT_EQ(varint::ZigZagEncode(-2), 3u);
  EXPECT_EQ(varint::ZigZagEncode(std::numeric_limits<int64_t>::max()), std::numeric_limits<uint64_t>::max() - 1);
  EXPECT_EQ(varint::ZigZagEncode(std::numeric_limits<int64_t>::min()), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(varint::ZigZagEncode32(-1), 1u);
  EXPECT_EQ(varint::ZigZagDecode32(0xFFFFFFFFu), std::numeric_limits<int32_t>::min());
}

TEST(Varint, RoundTripsAcrossLengths) {
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{63}, int64_t{-64}, int64_t{64}, int64_t{300},
                    int64_t{1} << 35, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()}) {
    std::string buf;
    varint::AppendSigned(&buf, v);
    EXPECT_EQ(buf.size(), varint::UnsignedLength(varint::ZigZagEncode(v)));
    const auto* p = reinterpret_cast<const uint8_t*>(buf.data());
    auto decoded = varint::DecodeSigned(&p, p + buf.size());
    ASSERT_TRUE(decoded.has_value()) << v;
    EXPECT_EQ(*decoded, v);
  }
}

TEST(Varint, KnownEncoding) {
  std::string buf;
  varint::AppendUnsigned(&buf, 300);
  EXPECT_EQ(buf, std::string("\xAC\x02", 2));
}

TEST(Varint, RejectsTruncationAndOverlongInput) {
  const uint8_t truncated[] = {0x80, 0x80};
  const uint8_t* p = truncated;
  EXPECT_FALSE(varint::DecodeUnsigned(&p, truncated + 2).has_value());
  EXPECT_EQ(p, truncated);  // Unchanged on failure.

  const uint8_t overlong[11] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
  p = overlong;
  EXPECT_FALSE(varint::DecodeUnsigned(&p, overlong + 11).has_value());

  const uint8_t overflow[10] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02};
  p = overflow;
  EXPECT_FALSE(varint::DecodeUnsigned(&p, overflow + 10).has_value());

  const uint8_t too_big_for_32[] = {0xFF, 0xFF, 0xFF, 0xFF, 0x1F};
  p = too_big_for_32;
  EXPECT_FALSE(varint::DecodeSigned32(&p, too_big_for_32 + 5).has_value());
}

}  // namespace
}  // namespace floe
