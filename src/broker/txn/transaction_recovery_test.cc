// Recovery of a real broker folder after a crash between a transaction's decision and its
// markers: the transaction log says PrepareCommit (or PrepareAbort), the partition holds the
// transaction's batches but no marker. Opening the broker writes the markers, applies the
// held offsets, and the partition's last stable offset reaches its high watermark.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "base/bytes.h"
#include "base/crc32c.h"
#include "broker/protocol/control_batch.h"
#include "broker/server/broker.h"
#include "broker/testing/batch_builder.h"

namespace floe::broker {
namespace {

class TransactionRecoveryTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           fmt::format("floe-txn-recovery-{}-{}", ::getpid(), GetParam() ? "commit" : "abort");
    std::filesystem::remove_all(dir_);
    config_.data_dir = dir_.string();
    config_.fsync = FsyncPolicy::kBatch;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Appends one framed record to the transaction log, as the coordinator would have.
  void LogRecord(const TransactionMetadata& txn) {
    std::string body = EncodeTransactionRecord(txn);
    std::string frame;
    ByteWriter w(&frame);
    w.AppendBig<uint32_t>(static_cast<uint32_t>(body.size()));
    w.AppendBig<uint32_t>(crc32c::Value(body.data(), body.size()));
    w.AppendBytes(body);
    std::ofstream out(dir_ / "transactions" / "transactions.log", std::ios::app | std::ios::binary);
    out << frame;
  }

  std::filesystem::path dir_;
  BrokerConfig config_;
};

TEST_P(TransactionRecoveryTest, PreparedTransactionGetsItsMarkersOnOpen) {
  const bool commit = GetParam();
  const int64_t producer_id = 4242;
  {
    auto broker = Broker::Open(config_);
    ASSERT_TRUE(broker.has_value()) << broker.error().ToString();
    ASSERT_TRUE((*broker)->topics().Create("t", 2, {}).has_value());
    Topic* topic = (*broker)->topics().Find("t");
    for (auto& log : topic->partitions) {
      std::string batch = testing::BuildBatch(
          {.records = 3, .producer_id = producer_id, .producer_epoch = 0, .base_sequence = 0, .attributes = 0x10});
      auto split = SplitBatches(batch, 1 << 20);
      ASSERT_TRUE(split.has_value());
      auto appended = log->Append(batch.data(), *split);
      ASSERT_TRUE(appended.has_value());
      ASSERT_EQ(appended->error, ErrorCode::kNone);
      EXPECT_EQ(log->last_stable_offset(), 0);
    }
  }
  // The decision was logged; then the process died before any marker was written.
  TransactionMetadata txn{.transactional_id = "tx", .producer_id = producer_id, .producer_epoch = 0,
                          .timeout_ms = 60000, .state = TxnState::kOngoing, .started_ms = 1,
                          .partitions = {{"t", 0}, {"t", 1}}, .groups = {"g"}};
  LogRecord(txn);
  txn.state = commit ? TxnState::kPrepareCommit : TxnState::kPrepareAbort;
  txn.offsets[{"g", "t", 0}] = {3, std::nullopt};
  LogRecord(txn);

  auto broker = Broker::Open(config_);
  ASSERT_TRUE(broker.has_value()) << broker.error().ToString();
  const TransactionMetadata* recovered = (*broker)->transactions().Find("tx");
  ASSERT_NE(recovered, nullptr);
  EXPECT_EQ(recovered->state, commit ? TxnState::kCompleteCommit : TxnState::kCompleteAbort);
  Topic* topic = (*broker)->topics().Find("t");
  for (auto& log : topic->partitions) {
    EXPECT_EQ(log->high_watermark(), 4);  // Three records and the marker.
    EXPECT_EQ(log->last_stable_offset(), 4);
    auto marker = log->Read(3, 1 << 20);
    ASSERT_TRUE(marker.has_value());
    auto type = ParseControlType(*marker);
    ASSERT_TRUE(type.has_value()) << type.error().ToString();
    EXPECT_EQ(*type, commit ? ControlType::kCommit : ControlType::kAbort);
    EXPECT_EQ(log->AbortedTransactions(0, 4).size(), commit ? 0u : 1u);
  }
  auto offset = (*broker)->groups().offsets().Fetch("g", "t", 0);
  EXPECT_EQ(offset.has_value(), commit);
  // Opening again finds nothing left to do.
  broker->reset();
  broker = Broker::Open(config_);
  ASSERT_TRUE(broker.has_value());
  EXPECT_EQ((*broker)->topics().Find("t")->partitions[0]->high_watermark(), 4);
}

INSTANTIATE_TEST_SUITE_P(CommitAndAbort, TransactionRecoveryTest, ::testing::Bool());

}  // namespace
}  // namespace floe::broker
