#include "broker/protocol/wire.h"

#include <gtest/gtest.h>

#include "broker/protocol/api_key.h"
#include "broker/protocol/record_batch.h"
#include "broker/protocol/request_header.h"
#include "broker/testing/batch_builder.h"

namespace floe::broker {
namespace {

TEST(WireTest, ClassicAndCompactRoundTrip) {
  for (bool flexible : {false, true}) {
    std::string bytes;
    WireWriter w(&bytes, flexible);
    w.Int8(-3);
    w.Int16(-300);
    w.Int32(70000);
    w.Int64(-1234567890123);
    w.Bool(true);
    w.String("hello");
    w.NullableString(std::nullopt);
    w.Bytes(std::string("\0\1\2", 3));
    w.NullableBytes(std::nullopt);
    w.ArrayLength(2);
    w.NullArray();
    w.TaggedFields();
    WireReader r(bytes, flexible);
    EXPECT_EQ(*r.Int8("a"), -3);
    EXPECT_EQ(*r.Int16("b"), -300);
    EXPECT_EQ(*r.Int32("c"), 70000);
    EXPECT_EQ(*r.Int64("d"), -1234567890123);
    EXPECT_TRUE(*r.Bool("e"));
    EXPECT_EQ(*r.String("f"), "hello");
    EXPECT_FALSE(r.NullableString("g")->has_value());
    EXPECT_EQ(*r.Bytes("h"), std::string("\0\1\2", 3));
    EXPECT_FALSE(r.NullableBytes("i")->has_value());
    // Two elements of at least one byte each fit in the bytes that follow.
    EXPECT_EQ(*r.ArrayLength("j"), 2);
    EXPECT_EQ(*r.ArrayLength("k"), -1);
    EXPECT_TRUE(r.SkipTaggedFields("l").has_value());
    EXPECT_EQ(r.remaining(), 0u);
  }
}

TEST(WireTest, CompactEncodingIsLengthPlusOne) {
  std::string bytes;
  WireWriter w(&bytes, true);
  w.String("ab");
  EXPECT_EQ(bytes, std::string("\x03" "ab"));
}

TEST(WireTest, TruncationAtEveryPointIsAnError) {
  std::string bytes;
  WireWriter w(&bytes, false);
  w.Int32(5);
  w.String("topic-name");
  w.Bytes("payload");
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    WireReader r(std::string_view(bytes).substr(0, cut), false);
    bool ok = r.Int32("n").has_value() && r.String("s").has_value() && r.Bytes("b").has_value();
    EXPECT_FALSE(ok) << "cut at " << cut;
  }
}

TEST(WireTest, AbsurdLengthsAreRejectedWithoutAllocating) {
  std::string bytes("\x7f\xff\xff\xff", 4);
  EXPECT_FALSE(WireReader(bytes, false).Bytes("b").has_value());
  EXPECT_FALSE(WireReader(bytes, false).ArrayLength("a").has_value());
  std::string negative("\xff\xff\xff\xf0", 4);
  EXPECT_FALSE(WireReader(negative, false).ArrayLength("a").has_value());
  EXPECT_FALSE(WireReader(negative, false).Bytes("b").has_value());
  std::string short_negative("\xff\xf0", 2);
  EXPECT_FALSE(WireReader(short_negative, false).NullableString("s").has_value());
  // Compact: a varint that never ends, and one longer than 32 bits of length.
  std::string endless(12, '\xff');
  EXPECT_FALSE(WireReader(endless, true).String("s").has_value());
  EXPECT_FALSE(WireReader(endless, true).SkipTaggedFields("t").has_value());
  std::string huge("\xff\xff\xff\xff\x7f", 5);
  EXPECT_FALSE(WireReader(huge, true).ArrayLength("a").has_value());
  // Many tagged fields that cannot fit.
  std::string tags("\x7f", 1);
  EXPECT_FALSE(WireReader(tags, true).SkipTaggedFields("t").has_value());
}

TEST(WireTest, GarbageNeverCrashesTheDecoders) {
  uint32_t state = 12345;
  for (int round = 0; round < 2000; ++round) {
    std::string bytes(static_cast<size_t>(round % 64), '\0');
    for (char& c : bytes) {
      state = state * 1664525 + 1013904223;
      c = static_cast<char>(state >> 24);
    }
    for (bool flexible : {false, true}) {
      WireReader r(bytes, flexible);
      auto header = ParseRequestHeader(r);
      (void)header;
      WireReader r2(bytes, flexible);
      while (r2.String("s").has_value() && r2.ArrayLength("a").has_value() && r2.SkipTaggedFields("t").has_value()) {
      }
      (void)SplitBatches(bytes, 1 << 20);
    }
  }
}

TEST(RequestHeaderTest, ParsesV1AndV2) {
  std::string bytes;
  WireWriter w(&bytes, false);
  w.Int16(static_cast<int16_t>(ApiKey::kApiVersions));
  w.Int16(3);
  w.Int32(42);
  w.String("client");
  bytes.push_back('\0');  // header v2: no tagged fields
  WireWriter body(&bytes, true);
  body.String("sw");
  WireReader r(bytes, false);
  auto header = ParseRequestHeader(r);
  ASSERT_TRUE(header.has_value());
  EXPECT_EQ(header->correlation_id, 42);
  EXPECT_EQ(header->client_id, "client");
  EXPECT_TRUE(header->flexible);
  EXPECT_TRUE(header->version_supported);
  EXPECT_EQ(*r.String("name"), "sw");

  std::string unknown;
  WireWriter u(&unknown, false);
  u.Int16(999);
  u.Int16(0);
  u.Int32(1);
  u.NullableString(std::nullopt);
  WireReader ur(unknown, false);
  auto parsed = ParseRequestHeader(ur);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_FALSE(parsed->api.has_value());

  // Produce is listed from v0 (so librdkafka compresses), but v0-2 requests stay unsupported.
  for (int16_t version : {0, 2, 3}) {
    std::string produce;
    WireWriter p(&produce, false);
    p.Int16(static_cast<int16_t>(ApiKey::kProduce));
    p.Int16(version);
    p.Int32(7);
    p.NullableString(std::nullopt);
    WireReader pr(produce, false);
    auto header = ParseRequestHeader(pr);
    ASSERT_TRUE(header.has_value());
    EXPECT_EQ(header->version_supported, version >= 3) << version;
  }
  EXPECT_EQ(FindApi(static_cast<int16_t>(ApiKey::kProduce))->AdvertisedMinVersion(), 0);
}

TEST(ApiKeyTest, AdvertisedRangesAreConsistent) {
  int16_t previous = -1;
  for (const ApiSupport& api : SupportedApis()) {
    EXPECT_GT(static_cast<int16_t>(api.key), previous);
    previous = static_cast<int16_t>(api.key);
    EXPECT_LE(api.min_version, api.max_version);
    EXPECT_LE(api.AdvertisedMinVersion(), api.min_version);
    // Everything advertised above a flexible threshold must be encoded flexibly: ApiVersions
    // v3, the transaction APIs', IncrementalAlterConfigs v1 and DescribeCluster (their
    // handlers write tagged fields).
    if (api.max_version >= api.first_flexible_version) {
      EXPECT_TRUE(api.key == ApiKey::kApiVersions || api.key == ApiKey::kInitProducerId ||
                  api.key == ApiKey::kAddPartitionsToTxn || api.key == ApiKey::kAddOffsetsToTxn ||
                  api.key == ApiKey::kEndTxn || api.key == ApiKey::kTxnOffsetCommit ||
                  api.key == ApiKey::kIncrementalAlterConfigs || api.key == ApiKey::kDescribeCluster)
          << api.name;
    }
  }
}

TEST(RecordBatchTest, ValidBatchPasses) {
  std::string batch = testing::BuildBatch({.records = 3});
  auto header = ValidateBatch(batch);
  ASSERT_TRUE(header.has_value()) << header.error().ToString();
  EXPECT_EQ(header->records_count, 3);
  EXPECT_EQ(header->last_offset_delta, 2);
  // The base offset is outside the CRC: stamping keeps the batch valid.
  StampBaseOffset(batch.data(), 1234);
  auto stamped = ValidateBatch(batch);
  ASSERT_TRUE(stamped.has_value());
  EXPECT_EQ(stamped->base_offset, 1234);
}

TEST(RecordBatchTest, EveryFlippedByteAfterTheCrcIsDetected) {
  std::string batch = testing::BuildBatch({.records = 2});
  for (size_t i = kBatchAttributesAt; i < batch.size(); ++i) {
    std::string bad = batch;
    bad[i] ^= 0x40;
    EXPECT_FALSE(ValidateBatch(bad).has_value()) << "byte " << i;
  }
  std::string magic = batch;
  magic[kBatchMagicAt] = 1;
  EXPECT_FALSE(ValidateBatch(magic).has_value());
}

TEST(RecordBatchTest, SplitRejectsTruncatedOversizeAndEmpty) {
  std::string two = testing::BuildBatch({.records = 2}) + testing::BuildBatch({.records = 5});
  auto split = SplitBatches(two, 1 << 20);
  ASSERT_TRUE(split.has_value());
  ASSERT_EQ(split->size(), 2u);
  EXPECT_EQ((*split)[1].header.records_count, 5);
  for (size_t cut = 1; cut < two.size(); ++cut) {
    if (cut == (*split)[1].position) continue;  // Exactly the first batch: valid.
    EXPECT_FALSE(SplitBatches(std::string_view(two).substr(0, cut), 1 << 20).has_value()) << cut;
  }
  auto oversize = SplitBatches(two, 40);
  ASSERT_FALSE(oversize.has_value());
  EXPECT_EQ(oversize.error().kind(), ErrorKind::kResourceExhausted);
  EXPECT_FALSE(SplitBatches("", 1 << 20).has_value());
  // A batch length far beyond the bytes present.
  std::string absurd = testing::BuildBatch({});
  absurd[8] = '\x7f';
  EXPECT_FALSE(SplitBatches(absurd, 1u << 31).has_value());
}

}  // namespace
}  // namespace floe::broker
