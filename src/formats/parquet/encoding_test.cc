#include <gtest/gtest.h>

#include <random>

#include "formats/parquet/compression.h"
#include "formats/parquet/delta_encoding.h"
#include "formats/parquet/rle_encoding.h"

namespace floe::parquet {
namespace {

TEST(RleEncoding, RoundTripsMixedRunsAtEveryWidth) {
  std::mt19937 rng(7);
  for (int width = 1; width <= 20; ++width) {
    uint32_t max = width == 32 ? UINT32_MAX : (1u << width) - 1;
    std::vector<uint32_t> values;
    for (int block = 0; block < 60; ++block) {
      uint32_t v = rng() & max;
      int len = static_cast<int>(rng() % 30);
      bool run = rng() % 2;
      for (int i = 0; i < len; ++i) values.push_back(run ? v : (rng() & max));
    }
    std::string out;
    RleEncode(values.data(), static_cast<int64_t>(values.size()), width, &out);
    RleDecoder dec(reinterpret_cast<const uint8_t*>(out.data()), out.size(), width);
    std::vector<uint32_t> back(values.size());
    // Decode in uneven slices to exercise partial groups.
    size_t at = 0;
    while (at < back.size()) {
      size_t n = std::min<size_t>(back.size() - at, 1 + rng() % 37);
      ASSERT_TRUE(dec.Decode(back.data() + at, static_cast<int64_t>(n)).has_value()) << width;
      at += n;
    }
    EXPECT_EQ(back, values) << "width " << width;
  }
}

TEST(RleEncoding, TruncatedDataIsCorruption) {
  std::vector<int16_t> levels(1000);
  for (size_t i = 0; i < levels.size(); ++i) levels[i] = static_cast<int16_t>(i % 3);
  std::string out;
  RleEncode(levels.data(), 1000, 2, &out);
  for (size_t n = 0; n + 1 < out.size(); n += 7) {
    RleDecoder dec(reinterpret_cast<const uint8_t*>(out.data()), n, 2);
    std::vector<int16_t> back(1000);
    EXPECT_FALSE(dec.Decode(back.data(), 1000).has_value());
  }
}

TEST(DeltaBinaryPacked, RoundTripsExtremes) {
  std::vector<int64_t> values = {0, INT64_MAX, INT64_MIN, -1, 1, 5, 5, 5, 1000000007, -999};
  std::mt19937_64 rng(3);
  for (int i = 0; i < 1000; ++i) values.push_back(static_cast<int64_t>(rng()) >> (rng() % 64));
  for (size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{129}, values.size()}) {
    std::string out;
    DeltaBinaryPackedEncode(values.data(), static_cast<int64_t>(n), &out);
    std::vector<int64_t> back(n);
    size_t used = 0;
    ASSERT_TRUE(DeltaBinaryPackedDecode<int64_t>(out, static_cast<int64_t>(n), back.data(), &used).has_value()) << n;
    EXPECT_EQ(used, out.size());
    EXPECT_EQ(back, std::vector<int64_t>(values.begin(), values.begin() + static_cast<long>(n)));
  }
  std::vector<int32_t> small = {INT32_MIN, INT32_MAX, 0, 7, -7};
  std::string out;
  DeltaBinaryPackedEncode(small.data(), 5, &out);
  std::vector<int32_t> back(5);
  ASSERT_TRUE(DeltaBinaryPackedDecode<int32_t>(out, 5, back.data(), nullptr).has_value());
  EXPECT_EQ(back, small);
}

TEST(DeltaBinaryPacked, HostileHeadersAreCorruption) {
  std::vector<int64_t> back(10);
  EXPECT_FALSE(DeltaBinaryPackedDecode<int64_t>("", 10, back.data(), nullptr).has_value());
  EXPECT_FALSE(DeltaBinaryPackedDecode<int64_t>(std::string("\x00\x04\x0a\x00", 4), 10, back.data(), nullptr).has_value());
  std::vector<int64_t> values(300, 42);
  values[100] = -5;
  std::string out;
  DeltaBinaryPackedEncode(values.data(), 300, &out);
  for (size_t n = 0; n < out.size(); ++n) {
    std::vector<int64_t> b(300);
    auto s = DeltaBinaryPackedDecode<int64_t>(std::string_view(out).substr(0, n), 300, b.data(), nullptr);
    if (s.has_value()) {
      // Only a miniblock whose bit width is zero may be cut off without losing values.
      EXPECT_EQ(b, values);
    }
  }
}

TEST(Compression, EveryCodecRoundTrips) {
  std::string input;
  for (int i = 0; i < 10000; ++i) input += "order-" + std::to_string(i % 97) + ";";
  for (Codec c : {Codec::kUncompressed, Codec::kSnappy, Codec::kGzip, Codec::kZstd, Codec::kLz4Raw, Codec::kBrotli}) {
    Compressor comp(c, c == Codec::kZstd ? 3 : 1);
    std::string out;
    ASSERT_TRUE(comp.Compress(input, &out).has_value()) << CodecName(c);
    std::string back(input.size(), '\0');
    ASSERT_TRUE(Decompress(c, out, reinterpret_cast<uint8_t*>(back.data()), back.size()).has_value()) << CodecName(c);
    EXPECT_EQ(back, input);
    // A wrong declared size and a truncated stream are errors.
    std::string small(input.size() - 1, '\0');
    EXPECT_FALSE(Decompress(c, out, reinterpret_cast<uint8_t*>(small.data()), small.size()).has_value()) << CodecName(c);
    if (c != Codec::kUncompressed) {
      EXPECT_FALSE(Decompress(c, std::string_view(out).substr(0, out.size() / 2), reinterpret_cast<uint8_t*>(back.data()),
                              back.size()).has_value()) << CodecName(c);
    }
  }
}

TEST(Compression, ConcatenatedGzipMembers) {
  Compressor comp(Codec::kGzip, 6);
  std::string out;
  ASSERT_TRUE(comp.Compress("hello ", &out).has_value());
  ASSERT_TRUE(comp.Compress("world", &out).has_value());
  std::string back(11, '\0');
  ASSERT_TRUE(Decompress(Codec::kGzip, out, reinterpret_cast<uint8_t*>(back.data()), back.size()).has_value());
  EXPECT_EQ(back, "hello world");
}

}  // namespace
}  // namespace floe::parquet
