// A partition's view of transactions: transactional batches open a producer's transaction,
// markers close it, the last stable offset stops before the oldest open one, aborted
// transactions are indexed for read_committed fetches, and all of it is rebuilt on open.
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "broker/log/partition_log.h"
#include "broker/protocol/control_batch.h"
#include "broker/testing/batch_builder.h"

namespace floe::broker {
namespace {

using testing::BatchSpec;
using testing::BuildBatch;

class TransactionIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           fmt::format("floe-txnidx-test-{}-{}", ::getpid(), ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    config_.index_interval_bytes = 256;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::shared_ptr<PartitionLog> Open() {
    auto log = PartitionLog::Open(dir_.string(), config_, clock_, nullptr);
    EXPECT_TRUE(log.has_value()) << log.error().ToString();
    return *log;
  }

  int64_t Append(PartitionLog& log, const BatchSpec& spec) {
    std::string batch = BuildBatch(spec);
    auto split = SplitBatches(batch, 1 << 20);
    EXPECT_TRUE(split.has_value());
    auto result = log.Append(batch.data(), *split);
    EXPECT_TRUE(result.has_value());
    EXPECT_EQ(result->error, ErrorCode::kNone);
    return result->base_offset;
  }
  static BatchSpec Txn(int64_t producer, int32_t sequence, int records = 2) {
    return {.records = records, .producer_id = producer, .producer_epoch = 0, .base_sequence = sequence,
            .attributes = 0x10};
  }
  int64_t Marker(PartitionLog& log, int64_t producer, ControlType type, int16_t epoch = 0) {
    auto offset = log.AppendMarker({producer, epoch, type, 0, 5000});
    EXPECT_TRUE(offset.has_value()) << offset.error().ToString();
    return *offset;
  }

  std::filesystem::path dir_;
  LogConfig config_;
  ManualClock clock_{1'000'000};
};

TEST_F(TransactionIndexTest, ControlBatchRoundTrips) {
  for (ControlType type : {ControlType::kAbort, ControlType::kCommit}) {
    std::string batch = BuildControlBatch({42, 3, type, 7, 1234});
    auto header = ValidateBatch(batch);
    ASSERT_TRUE(header.has_value()) << header.error().ToString();
    EXPECT_TRUE(header->control());
    EXPECT_TRUE(header->transactional());
    EXPECT_EQ(header->producer_id, 42);
    EXPECT_EQ(header->producer_epoch, 3);
    EXPECT_EQ(header->base_sequence, -1);
    auto parsed = ParseControlType(batch);
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, type);
  }
  // A data batch, and every truncation of a control batch, is refused with a reason.
  EXPECT_FALSE(ParseControlType(BuildBatch({})).has_value());
  std::string batch = BuildControlBatch({1, 0, ControlType::kCommit, 0, 0});
  for (size_t n = 0; n < batch.size(); ++n) EXPECT_FALSE(ParseControlType(batch.substr(0, n)).has_value()) << n;
  std::string bad_type = batch;
  bad_type[kBatchHeaderSize + 7] = 9;  // the key's type byte
  EXPECT_FALSE(ParseControlType(bad_type).has_value());
}

TEST_F(TransactionIndexTest, LastStableOffsetAndAbortedIndex) {
  auto log = Open();
  Append(*log, {.records = 1});                        // 0: plain
  int64_t a_first = Append(*log, Txn(100, 0));        // 1-2: producer 100
  Append(*log, {.records = 1});                        // 3: plain
  int64_t b_first = Append(*log, Txn(200, 0));        // 4-5: producer 200
  EXPECT_EQ(a_first, 1);
  EXPECT_EQ(log->high_watermark(), 6);
  EXPECT_EQ(log->last_stable_offset(), 1);
  Append(*log, Txn(100, 2));                           // 6-7: producer 100 again
  int64_t abort_at = Marker(*log, 100, ControlType::kAbort);  // 8
  EXPECT_EQ(log->last_stable_offset(), b_first);
  int64_t commit_at = Marker(*log, 200, ControlType::kCommit);  // 9
  EXPECT_EQ(log->last_stable_offset(), log->high_watermark());
  EXPECT_EQ(commit_at, 9);

  auto aborted = log->AbortedTransactions(0, log->high_watermark());
  ASSERT_EQ(aborted.size(), 1u);
  EXPECT_EQ(aborted[0].producer_id, 100);
  EXPECT_EQ(aborted[0].first_offset, 1);
  EXPECT_EQ(aborted[0].last_offset, abort_at);
  // Ranges after the abort marker, or ending before the transaction's first offset, have none.
  EXPECT_TRUE(log->AbortedTransactions(abort_at + 1, 20).empty());
  EXPECT_TRUE(log->AbortedTransactions(0, 1).empty());
  // A second marker with nothing open changes nothing.
  Marker(*log, 100, ControlType::kAbort);
  EXPECT_EQ(log->AbortedTransactions(0, 20).size(), 1u);

  // All of it comes back from the files.
  log.reset();
  log = Open();
  EXPECT_EQ(log->last_stable_offset(), log->high_watermark());
  aborted = log->AbortedTransactions(0, log->high_watermark());
  ASSERT_EQ(aborted.size(), 1u);
  EXPECT_EQ(aborted[0].first_offset, 1);
  EXPECT_EQ(aborted[0].last_offset, abort_at);
}

TEST_F(TransactionIndexTest, OpenTransactionSurvivesReopenAndSegmentRolls) {
  config_.segment_bytes = 300;  // A roll every batch or two.
  auto log = Open();
  Append(*log, {.records = 1});
  int64_t first = Append(*log, Txn(7, 0));
  for (int i = 0; i < 5; ++i) Append(*log, {.records = 1, .value = std::string(200, 'x')});
  log.reset();
  EXPECT_TRUE(std::filesystem::exists(dir_ / "transactional"));
  log = Open();
  EXPECT_EQ(log->last_stable_offset(), first);
  Marker(*log, 7, ControlType::kAbort);
  EXPECT_EQ(log->last_stable_offset(), log->high_watermark());
  ASSERT_EQ(log->AbortedTransactions(0, 100).size(), 1u);
  EXPECT_EQ(log->AbortedTransactions(0, 100)[0].first_offset, first);
}

TEST_F(TransactionIndexTest, ReadCommittedRegionStopsAtTheLastStableOffset) {
  auto log = Open();
  Append(*log, {.records = 3});                 // 0-2
  int64_t open_at = Append(*log, Txn(9, 0));    // 3-4
  Append(*log, {.records = 3});                 // 5-7
  const int64_t lso = log->last_stable_offset();
  ASSERT_EQ(lso, open_at);
  auto committed = log->ReadRegion(0, 1 << 20, lso);
  auto everything = log->ReadRegion(0, 1 << 20);
  ASSERT_TRUE(committed.has_value());
  ASSERT_TRUE(everything.has_value());
  EXPECT_EQ(committed->length, BuildBatch({.records = 3}).size());
  EXPECT_GT(everything->length, committed->length);
  auto at_lso = log->ReadRegion(lso, 1 << 20, lso);
  ASSERT_TRUE(at_lso.has_value());
  EXPECT_EQ(at_lso->length, 0u);
}

TEST_F(TransactionIndexTest, NewerEpochMarkerFencesTheOldEpoch) {
  auto log = Open();
  Append(*log, Txn(5, 0));
  Marker(*log, 5, ControlType::kAbort, 1);  // Aborted for a new producer with epoch 1.
  std::string stale = BuildBatch(Txn(5, 2));
  auto split = SplitBatches(stale, 1 << 20);
  ASSERT_TRUE(split.has_value());
  auto refused = log->Append(stale.data(), *split);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->error, ErrorCode::kInvalidProducerEpoch);
  // The new epoch starts its sequence at 0.
  BatchSpec fresh = Txn(5, 0);
  fresh.producer_epoch = 1;
  Append(*log, fresh);
}

}  // namespace
}  // namespace floe::broker
