#include "broker/log/partition_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>

#include <gtest/gtest.h>

#include "broker/log/producer_state.h"
#include "broker/testing/batch_builder.h"

namespace floe::broker {
namespace {

using testing::BatchSpec;
using testing::BuildBatch;

class PartitionLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           fmt::format("floe-log-test-{}-{}", ::getpid(), ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    config_.index_interval_bytes = 256;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::shared_ptr<PartitionLog> Open() {
    auto log = PartitionLog::Open(dir_.string(), config_, clock_, nullptr);
    EXPECT_TRUE(log.has_value()) << log.error().ToString();
    return *log;
  }

  // Appends one batch and returns its base offset.
  int64_t Append(PartitionLog& log, const BatchSpec& spec, ErrorCode expect = ErrorCode::kNone) {
    std::string batch = BuildBatch(spec);
    auto split = SplitBatches(batch, 1 << 20);
    EXPECT_TRUE(split.has_value());
    auto result = log.Append(batch.data(), *split);
    EXPECT_TRUE(result.has_value());
    EXPECT_EQ(result->error, expect);
    return result->base_offset;
  }

  std::string SegmentPath(int64_t base) const { return (dir_ / SegmentFileName(base, ".log")).string(); }

  std::filesystem::path dir_;
  LogConfig config_;
  ManualClock clock_{1'000'000};
};

// Walks the batches in `bytes` and returns (base offset, record count) of each.
std::vector<std::pair<int64_t, int32_t>> Batches(const std::string& bytes) {
  std::vector<std::pair<int64_t, int32_t>> out;
  size_t at = 0;
  while (at < bytes.size()) {
    auto h = ValidateBatch(std::string_view(bytes).substr(at, ParseBatchHeader(std::string_view(bytes).substr(at))->size()));
    EXPECT_TRUE(h.has_value());
    out.emplace_back(h->base_offset, h->records_count);
    at += h->size();
  }
  return out;
}

TEST_F(PartitionLogTest, AppendsAssignOffsetsAndReadsFindTheBatch) {
  auto log = Open();
  for (int i = 0; i < 50; ++i) EXPECT_EQ(Append(*log, {.records = 3, .timestamp = 1000 + i}), 3 * i);
  EXPECT_EQ(log->high_watermark(), 150);
  EXPECT_EQ(log->log_start_offset(), 0);
  for (int64_t offset : {0, 1, 2, 3, 77, 149}) {
    auto bytes = log->Read(offset, 1);  // max 1 byte: still one whole batch
    ASSERT_TRUE(bytes.has_value());
    auto batches = Batches(*bytes);
    ASSERT_EQ(batches.size(), 1u);
    EXPECT_EQ(batches[0].first, offset / 3 * 3);
  }
  auto many = log->Read(30, 1000);
  ASSERT_TRUE(many.has_value());
  EXPECT_LE(many->size(), 1000u);
  EXPECT_GT(Batches(*many).size(), 1u);
  EXPECT_TRUE(log->Read(150, 1000)->empty());
}

TEST_F(PartitionLogTest, RegionsCoverTheSameBatchesAsReads) {
  auto log = Open();
  for (int i = 0; i < 300; ++i) Append(*log, {.records = 1 + i % 7, .value = std::string(static_cast<size_t>(i % 200), 'v')});
  for (int64_t offset : {int64_t{0}, int64_t{5}, int64_t{333}, log->high_watermark() - 1}) {
    for (uint64_t max : {uint64_t{1}, uint64_t{700}, uint64_t{100000}, uint64_t{1} << 20}) {
      auto bytes = log->Read(offset, max);
      auto region = log->ReadRegion(offset, max);
      ASSERT_TRUE(bytes.has_value() && region.has_value());
      ASSERT_EQ(region->length, bytes->size()) << offset << " " << max;
      std::string from_file(region->length, '\0');
      ASSERT_EQ(::pread(region->file->fd(), from_file.data(), from_file.size(), static_cast<off_t>(region->position)),
                static_cast<ssize_t>(from_file.size()));
      EXPECT_EQ(from_file, *bytes);
    }
  }
  EXPECT_EQ(log->ReadRegion(log->high_watermark(), 100)->length, 0u);
}

// A batch larger than the reader's scan chunk (64 KiB) before the wanted offset, with no index
// entry between them: the scan must step over it, not past the end of its chunk. (Found when a
// consumer asking for the first offset after such a batch never got an answer.)
TEST_F(PartitionLogTest, FindsTheBatchAfterOneLargerThanTheScanChunk) {
  config_.index_interval_bytes = 1 << 20;
  auto log = Open();
  EXPECT_EQ(Append(*log, {.records = 10, .value = std::string(8000, 'x')}), 0);  // About 80 KB.
  EXPECT_EQ(Append(*log, {.records = 3}), 10);
  EXPECT_EQ(Append(*log, {.records = 2}), 13);
  for (int64_t offset : {10, 12, 13, 14}) {
    auto bytes = log->Read(offset, 1);
    ASSERT_TRUE(bytes.has_value()) << bytes.error().ToString();
    auto batches = Batches(*bytes);
    ASSERT_EQ(batches.size(), 1u);
    EXPECT_EQ(batches[0].first, offset < 13 ? 10 : 13);
    auto region = log->ReadRegion(offset, 1);
    ASSERT_TRUE(region.has_value());
    EXPECT_EQ(region->length, bytes->size());
  }
}

TEST_F(PartitionLogTest, ReopenRecoversTheSameLog) {
  {
    auto log = Open();
    for (int i = 0; i < 20; ++i) Append(*log, {.records = 2});
  }
  auto log = Open();
  EXPECT_EQ(log->high_watermark(), 40);
  EXPECT_EQ(Append(*log, {.records = 1}), 40);
  EXPECT_EQ(Batches(*log->Read(39, 1 << 20)).front().first, 38);
}

TEST_F(PartitionLogTest, TornTailIsTruncatedAtTheLastValidBatch) {
  uintmax_t good_size;
  {
    auto log = Open();
    for (int i = 0; i < 10; ++i) Append(*log, {.records = 2});
    good_size = std::filesystem::file_size(SegmentPath(0));
  }
  // A crash mid-write: half of the next batch made it to the file.
  std::string next = BuildBatch({.records = 4});
  StampBaseOffset(next.data(), 20);
  {
    std::ofstream out(SegmentPath(0), std::ios::app | std::ios::binary);
    out.write(next.data(), static_cast<std::streamsize>(next.size() / 2));
  }
  auto log = Open();
  EXPECT_EQ(log->high_watermark(), 20);
  EXPECT_EQ(std::filesystem::file_size(SegmentPath(0)), good_size);
  EXPECT_EQ(Append(*log, {.records = 1}), 20);
}

TEST_F(PartitionLogTest, CorruptBatchEndsTheRecoveredLog) {
  {
    auto log = Open();
    for (int i = 0; i < 10; ++i) Append(*log, {.records = 1, .value = "some longer value"});
  }
  // Flip a byte inside the 6th batch's records: the CRC catches it, and what follows is dropped.
  std::string batch = BuildBatch({.records = 1, .value = "some longer value"});
  int fd = ::open(SegmentPath(0).c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  char byte = 'X';
  ASSERT_EQ(::pwrite(fd, &byte, 1, static_cast<off_t>(5 * batch.size() + batch.size() - 3)), 1);
  ::close(fd);
  auto log = Open();
  EXPECT_EQ(log->high_watermark(), 5);
}

TEST_F(PartitionLogTest, SegmentsRollAndClosedSegmentsReopenFromTheirIndexes) {
  config_.segment_bytes = 2048;
  {
    auto log = Open();
    for (int i = 0; i < 100; ++i) Append(*log, {.records = 2, .timestamp = 5000 + i});
  }
  size_t segments = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir_)) segments += e.path().extension() == ".log";
  EXPECT_GT(segments, 3u);
  auto log = Open();
  EXPECT_EQ(log->high_watermark(), 200);
  for (int64_t offset = 0; offset < 200; offset += 7) {
    auto batches = Batches(*log->Read(offset, 1));
    ASSERT_EQ(batches.size(), 1u) << offset;
    EXPECT_EQ(batches[0].first, offset / 2 * 2);
  }
  // By timestamp: batch i has timestamp 5000 + i and base offset 2i.
  EXPECT_EQ(log->OffsetForTimestamp(5000)->value().offset, 0);
  EXPECT_EQ(log->OffsetForTimestamp(5042)->value().offset, 84);
  EXPECT_FALSE(log->OffsetForTimestamp(6000)->has_value());
}

TEST_F(PartitionLogTest, RetentionBySizeAndTime) {
  config_.segment_bytes = 1024;
  config_.retention_bytes = 3000;
  auto log = Open();
  for (int i = 0; i < 60; ++i) Append(*log, {.records = 1, .timestamp = clock_.NowMillis()});
  ASSERT_TRUE(log->ApplyRetention().has_value());
  EXPECT_LE(log->size_bytes(), 3000u + 1024u);
  EXPECT_GT(log->log_start_offset(), 0);
  int64_t start = log->log_start_offset();
  EXPECT_TRUE(log->Read(start - 1, 100)->empty());

  LogConfig by_time = config_;
  by_time.retention_bytes = -1;
  by_time.retention_ms = 60000;
  log->set_config(by_time);
  ASSERT_TRUE(log->ApplyRetention().has_value());
  EXPECT_EQ(log->log_start_offset(), start);  // Nothing is old yet.
  clock_.AdvanceMillis(120000);
  ASSERT_TRUE(log->ApplyRetention().has_value());
  // Only the active segment is left (retention never deletes it).
  EXPECT_GT(log->log_start_offset(), start);
  EXPECT_EQ(log->high_watermark(), 60);
}

TEST_F(PartitionLogTest, CompactTopicsKeepEverySegment) {
  ASSERT_TRUE(config_.Apply({{"cleanup.policy", "compact"}}).has_value());
  EXPECT_EQ(config_.ToMap().at("cleanup.policy"), "compact");
  EXPECT_FALSE(LogConfig().Apply({{"cleanup.policy", "sometimes"}}).has_value());
  // A config floe does not implement is named as such, not misread as a bad integer.
  auto unsupported = LogConfig().Apply({{"message.format.version", "0.10.0"}});
  ASSERT_FALSE(unsupported.has_value());
  EXPECT_EQ(unsupported.error().message(), "config message.format.version: not supported by floe's broker");
  // compression.type: Kafka's names, `producer` by default.
  LogConfig compressed;
  EXPECT_EQ(compressed.ToMap().at("compression.type"), "producer");
  ASSERT_TRUE(compressed.Apply({{"compression.type", "zstd"}}).has_value());
  EXPECT_EQ(compressed.compression_codec, 4);
  EXPECT_EQ(compressed.ToMap().at("compression.type"), "zstd");
  ASSERT_TRUE(compressed.Apply({{"compression.type", "uncompressed"}}).has_value());
  EXPECT_EQ(compressed.compression_codec, 0);
  EXPECT_FALSE(compressed.Apply({{"compression.type", "brotli"}}).has_value());
  EXPECT_FALSE(compressed.Apply({{"compression.type", ""}}).has_value());
  config_.segment_bytes = 1024;
  config_.retention_bytes = 3000;
  config_.retention_ms = 60000;
  auto log = Open();
  for (int i = 0; i < 60; ++i) Append(*log, {.records = 1, .timestamp = clock_.NowMillis()});
  clock_.AdvanceMillis(120000);
  ASSERT_TRUE(log->ApplyRetention().has_value());
  // Each record may be its key's only one: neither size nor age removes any.
  EXPECT_EQ(log->log_start_offset(), 0);
  EXPECT_EQ(log->high_watermark(), 60);
}

TEST_F(PartitionLogTest, IdempotentProducerDuplicatesAndGaps) {
  auto log = Open();
  EXPECT_EQ(Append(*log, {.records = 2, .producer_id = 7, .producer_epoch = 0, .base_sequence = 0}), 0);
  EXPECT_EQ(Append(*log, {.records = 2, .producer_id = 7, .producer_epoch = 0, .base_sequence = 2}), 2);
  // A retry of the second batch is answered with its original offset and not stored again.
  EXPECT_EQ(Append(*log, {.records = 2, .producer_id = 7, .producer_epoch = 0, .base_sequence = 2}), 2);
  EXPECT_EQ(log->high_watermark(), 4);
  // A gap is rejected.
  Append(*log, {.records = 1, .producer_id = 7, .producer_epoch = 0, .base_sequence = 9},
         ErrorCode::kOutOfOrderSequenceNumber);
  // An older epoch is fenced; a newer one restarts at sequence 0.
  Append(*log, {.records = 1, .producer_id = 7, .producer_epoch = 1, .base_sequence = 0});
  Append(*log, {.records = 1, .producer_id = 7, .producer_epoch = 0, .base_sequence = 4},
         ErrorCode::kInvalidProducerEpoch);
  EXPECT_EQ(log->high_watermark(), 5);
  // Producer state survives a restart (rebuilt from the active segment).
  log.reset();
  log = Open();
  EXPECT_EQ(Append(*log, {.records = 1, .producer_id = 7, .producer_epoch = 1, .base_sequence = 0}), 4);
  EXPECT_EQ(log->high_watermark(), 5);
}

TEST_F(PartitionLogTest, FlushCompletesThroughTheFlusher) {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<std::function<void()>> posted;
  Flusher flusher([&](Flusher::Callback cb) {
    std::lock_guard lock(mutex);
    posted.push_back(std::move(cb));
    cv.notify_all();
  });
  auto opened = PartitionLog::Open(dir_.string(), config_, clock_, &flusher);
  ASSERT_TRUE(opened.has_value());
  auto log = *opened;
  Append(*log, {.records = 3});
  bool done = false;
  log->RequestFlush([&] { done = true; });
  {
    std::unique_lock lock(mutex);
    cv.wait(lock, [&] { return !posted.empty(); });
  }
  for (auto& cb : posted) cb();
  EXPECT_TRUE(done);
  EXPECT_EQ(log->durable_offset(), 3);
  EXPECT_GE(flusher.syncs(), 1u);
  flusher.Stop();
}

}  // namespace
}  // namespace floe::broker
