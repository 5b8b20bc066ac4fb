// The records of a stored batch as the log cleaner reads them, and batches rebuilt from some of
// them: keys, null keys and tombstones decoded; garbage, truncated and oversized input refused
// with the record and byte it is at.
#include "broker/protocol/batch_records.h"

#include <gtest/gtest.h>

#include <random>

#include "base/bytes.h"
#include "base/crc32c.h"
#include "broker/testing/batch_builder.h"

namespace floe::broker {
namespace {

using testing::BuildBatch;
using testing::TestRecord;

// Replaces the records area of `batch` with `records`, fixing the length, count and CRC so
// that only the records themselves are wrong.
std::string WithRecords(std::string batch, std::string_view records, int32_t count) {
  batch.resize(kBatchHeaderSize);
  batch.append(records);
  ByteWriter w(&batch);
  w.PatchBig<int32_t>(kBatchLengthAt, static_cast<int32_t>(batch.size() - kBatchLogOverhead));
  w.PatchBig<int32_t>(kBatchHeaderSize - 4, count);
  w.PatchBig<uint32_t>(kBatchCrcAt,
                       crc32c::Value(batch.data() + kBatchAttributesAt, batch.size() - kBatchAttributesAt));
  return batch;
}

TEST(BatchRecordsTest, DecodesKeysValuesAndTombstones) {
  std::string batch = BuildBatch(
      {.kv = {TestRecord{"a", "1"}, TestRecord{std::nullopt, "2"}, TestRecord{"c", std::nullopt}, TestRecord{"", ""}}});
  std::vector<RecordView> seen;
  ASSERT_TRUE(ForEachRecord(batch, [&](const RecordView& r) { seen.push_back(r); }).has_value());
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0].key, std::optional<std::string_view>("a"));
  EXPECT_EQ(seen[0].value, std::optional<std::string_view>("1"));
  EXPECT_FALSE(seen[1].key.has_value());
  EXPECT_FALSE(seen[2].value.has_value());
  EXPECT_EQ(seen[3].key, std::optional<std::string_view>(""));
  EXPECT_EQ(seen[3].value, std::optional<std::string_view>(""));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(seen[static_cast<size_t>(i)].offset_delta, i);
}

TEST(BatchRecordsTest, RebuiltBatchesKeepOffsetsAndValidateAsCompacted) {
  std::string batch = BuildBatch({.kv = {TestRecord{"a", "1"}, TestRecord{"b", "2"}, TestRecord{"a", "3"}}});
  StampBaseOffset(batch.data(), 100);
  std::vector<std::string_view> keep;
  ASSERT_TRUE(ForEachRecord(batch, [&](const RecordView& r) {
                if (r.offset_delta > 0) keep.push_back(r.bytes);
              }).has_value());
  std::string rebuilt = RebuildBatch(batch, keep);
  auto header = ValidateBatch(rebuilt, BatchSource::kCompactedLog);
  ASSERT_TRUE(header.has_value()) << header.error().ToString();
  EXPECT_EQ(header->base_offset, 100);
  EXPECT_EQ(header->last_offset(), 102);
  EXPECT_EQ(header->records_count, 2);
  // A producer may not send such a batch.
  EXPECT_FALSE(ValidateBatch(rebuilt).has_value());
  std::vector<int32_t> deltas;
  ASSERT_TRUE(ForEachRecord(rebuilt, [&](const RecordView& r) { deltas.push_back(r.offset_delta); }).has_value());
  EXPECT_EQ(deltas, (std::vector<int32_t>{1, 2}));
}

TEST(BatchRecordsTest, TruncatedGarbageAndOversizedRecordsAreRefused) {
  std::string batch = BuildBatch({.kv = {TestRecord{"key", "value"}, TestRecord{"k2", "v2"}}});
  std::string records = batch.substr(kBatchHeaderSize);
  auto refused = [](const std::string& b) {
    Status s = ForEachRecord(b, [](const RecordView&) {});
    if (s) return false;
    EXPECT_EQ(s.error().kind(), ErrorKind::kCorruption);
    return true;
  };
  // Every truncation of the records area (the header still describing the cut bytes).
  for (size_t n = 0; n < records.size(); ++n) EXPECT_TRUE(refused(WithRecords(batch, records.substr(0, n), 2))) << n;
  // The whole batch cut short.
  for (size_t n = 0; n < batch.size(); ++n) EXPECT_TRUE(refused(batch.substr(0, n))) << n;
  // More records claimed than present, and bytes after the last record.
  EXPECT_TRUE(refused(WithRecords(batch, records, 3)));
  EXPECT_TRUE(refused(WithRecords(batch, records + "x", 2)));
  // Absurd lengths: a record, a key and a value longer than the batch; negative lengths.
  for (int64_t length : {int64_t{1} << 40, int64_t{-5}, int64_t{0}}) {
    std::string bad;
    ByteWriter w(&bad);
    w.AppendSignedVarint(length);
    bad += records;
    EXPECT_TRUE(refused(WithRecords(batch, bad, 2))) << length;
  }
  std::string body;
  ByteWriter b(&body);
  b.AppendBig<int8_t>(0);
  b.AppendSignedVarint(0);
  b.AppendSignedVarint(0);
  b.AppendSignedVarint(int64_t{1} << 30);  // key length
  b.AppendBytes("k");
  std::string record;
  ByteWriter r(&record);
  r.AppendSignedVarint(static_cast<int64_t>(body.size()));
  r.AppendBytes(body);
  EXPECT_TRUE(refused(WithRecords(batch, record, 1)));
  // An offset delta past the batch's range.
  std::string far;
  ByteWriter f(&far);
  f.AppendBig<int8_t>(0);
  f.AppendSignedVarint(0);
  f.AppendSignedVarint(7);
  f.AppendSignedVarint(-1);
  f.AppendSignedVarint(-1);
  f.AppendUnsignedVarint(0);
  std::string far_record;
  ByteWriter fr(&far_record);
  fr.AppendSignedVarint(static_cast<int64_t>(far.size()));
  fr.AppendBytes(far);
  EXPECT_TRUE(refused(WithRecords(batch, far_record, 1)));
  // Random garbage never crashes; what is refused is refused as corruption.
  std::mt19937 rng(29);
  for (int i = 0; i < 2000; ++i) {
    std::string junk(rng() % 64, '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    Status s = ForEachRecord(WithRecords(batch, junk, static_cast<int32_t>(rng() % 4)), [](const RecordView&) {});
    if (!s) {
      EXPECT_EQ(s.error().kind(), ErrorKind::kCorruption);
    }
  }
  // Compressed batches are not decoded here.
  std::string compressed = batch;
  compressed[kBatchAttributesAt + 1] = 1;  // gzip
  EXPECT_TRUE(refused(compressed));
}

TEST(BatchRecordsTest, CompactedTopicsNeedAKeyOnEveryRecord) {
  std::string keyed = BuildBatch({.kv = {TestRecord{"a", "1"}, TestRecord{"b", std::nullopt}}});
  std::string keyless = BuildBatch({.kv = {TestRecord{"a", "1"}, TestRecord{std::nullopt, "2"}}});
  EXPECT_TRUE(CheckEveryRecordHasAKey(keyed, 1 << 20).has_value());
  auto refused = CheckEveryRecordHasAKey(keyless, 1 << 20);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(refused.error().message().find("record 1"), std::string::npos);
  // Inside a compressed batch too.
  auto compressed = CompressBatch(keyless, 3);
  ASSERT_TRUE(compressed.has_value());
  EXPECT_EQ(CheckEveryRecordHasAKey(*compressed, 1 << 20).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(CheckEveryRecordHasAKey(*compressed, 10).error().kind(), ErrorKind::kResourceExhausted);
}

TEST(BatchRecordsTest, EveryCodecRoundTripsAndRefusesGarbage) {
  std::vector<TestRecord> records;
  for (int i = 0; i < 500; ++i)
    records.push_back({fmt::format("key-{}", i % 50), std::string(40, static_cast<char>('a' + i % 26))});
  std::string plain = BuildBatch({.kv = records});
  for (int codec = 1; codec <= 4; ++codec) {
    SCOPED_TRACE(codec);
    auto compressed = CompressBatch(plain, codec);
    ASSERT_TRUE(compressed.has_value()) << compressed.error().ToString();
    auto header = ValidateBatch(*compressed);
    ASSERT_TRUE(header.has_value()) << header.error().ToString();
    EXPECT_EQ(header->compression(), codec);
    EXPECT_LT(compressed->size(), plain.size() / 3);
    auto back = DecompressBatch(*compressed, 1 << 20);
    ASSERT_TRUE(back.has_value()) << back.error().ToString();
    EXPECT_EQ(back->substr(kBatchHeaderSize), plain.substr(kBatchHeaderSize));
    // A bound below the records' size is refused, not exceeded.
    auto bounded = DecompressBatch(*compressed, 1000);
    ASSERT_FALSE(bounded.has_value());
    EXPECT_EQ(bounded.error().kind(), ErrorKind::kResourceExhausted);
    // Truncated and garbage compressed bytes are errors, never crashes.
    std::string records_area = compressed->substr(kBatchHeaderSize);
    for (size_t n : {size_t{0}, size_t{1}, records_area.size() / 2, records_area.size() - 1}) {
      std::string cut = WithRecords(*compressed, records_area.substr(0, n), 500);
      EXPECT_FALSE(DecompressBatch(cut, 1 << 20).has_value()) << n;
    }
    std::mt19937 rng(codec);
    for (int i = 0; i < 200; ++i) {
      std::string junk = records_area;
      for (int flips = 0; flips < 4; ++flips) junk[rng() % junk.size()] = static_cast<char>(rng());
      auto decoded = DecompressBatch(WithRecords(*compressed, junk, 500), 1 << 20);
      if (decoded) (void)ForEachRecord(*decoded, [](const RecordView&) {});
    }
  }
  // A topic's compression.type: any codec to any other (0: uncompressed), the records, offsets
  // and producer fields unchanged; a bound and garbage refused as when decompressing.
  for (int from = 0; from <= 4; ++from) {
    auto source = from == 0 ? Result<std::string>(plain) : CompressBatch(plain, from);
    ASSERT_TRUE(source.has_value());
    for (int to = 0; to <= 4; ++to) {
      SCOPED_TRACE(fmt::format("{} -> {}", from, to));
      auto converted = RecompressBatch(*source, to, 1 << 20);
      ASSERT_TRUE(converted.has_value()) << converted.error().ToString();
      auto header = ValidateBatch(*converted);
      ASSERT_TRUE(header.has_value()) << header.error().ToString();
      EXPECT_EQ(header->compression(), to);
      EXPECT_EQ(header->records_count, 500);
      EXPECT_EQ(converted->substr(kBatchLengthAt + 4, kBatchCrcAt - kBatchLengthAt - 4),
                plain.substr(kBatchLengthAt + 4, kBatchCrcAt - kBatchLengthAt - 4));
      EXPECT_EQ(converted->substr(kBatchAttributesAt + 2, kBatchHeaderSize - kBatchAttributesAt - 2),
                plain.substr(kBatchAttributesAt + 2, kBatchHeaderSize - kBatchAttributesAt - 2));
      auto back = DecompressBatch(*converted, 1 << 20);
      ASSERT_TRUE(back.has_value());
      EXPECT_EQ(back->substr(kBatchHeaderSize), plain.substr(kBatchHeaderSize));
    }
    if (from == 0) continue;
    EXPECT_EQ(RecompressBatch(*source, 4, 1000).error().kind(), ErrorKind::kResourceExhausted);
    std::string cut = WithRecords(*source, source->substr(kBatchHeaderSize, 5), 500);
    EXPECT_FALSE(RecompressBatch(cut, 1, 1 << 20).has_value());
  }
  // Snappy is written in the xerial framing Java producers use.
  auto xerial = CompressBatch(plain, 2);
  ASSERT_TRUE(xerial.has_value());
  EXPECT_EQ(xerial->substr(kBatchHeaderSize, 8), std::string("\x82SNAPPY\0", 8));
}

}  // namespace
}  // namespace floe::broker
