// The transaction coordinator's state machine (KIP-98) driven directly with a ManualClock, its
// markers and offsets captured by the hooks; and the transaction log's replay, including torn
// and garbage tails.
#include "broker/txn/transaction_coordinator.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include <gtest/gtest.h>

namespace floe::broker {
namespace {

struct MarkerWritten {
  TxnPartition partition;
  int64_t producer_id;
  int16_t epoch;
  bool commit;
};

class TransactionCoordinatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           fmt::format("floe-txn-test-{}-{}", ::getpid(), ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::unique_ptr<TransactionCoordinator> Open() {
    TransactionCoordinator::Hooks hooks;
    hooks.write_marker = [this](const TxnPartition& p, int64_t producer, int16_t epoch, bool commit) -> Status {
      if (fail_markers_) return IoError("disk on fire");
      if (p.topic == "deleted") return NotFound("gone");
      markers_.push_back({p, producer, epoch, commit});
      return OkStatus();
    };
    hooks.commit_offset = [this](const OffsetStore::Key& key, const CommittedOffset& value) {
      offsets_[key] = value.offset;
      return OkStatus();
    };
    hooks.next_producer_id = [this] { return next_producer_id_++; };
    auto opened = TransactionCoordinator::Open(dir_.string(), true, clock_, std::move(hooks), {.max_timeout_ms = 60000});
    EXPECT_TRUE(opened.has_value()) << opened.error().ToString();
    return std::move(*opened);
  }
  std::string LogPath() const { return (dir_ / "transactions" / "transactions.log").string(); }

  std::filesystem::path dir_;
  ManualClock clock_{1'000'000};
  bool fail_markers_ = false;
  int64_t next_producer_id_ = 1000;
  std::vector<MarkerWritten> markers_;
  std::map<OffsetStore::Key, int64_t> offsets_;
};

TEST_F(TransactionCoordinatorTest, InitBumpsTheEpochAndFencesTheOlderProducer) {
  auto tc = Open();
  auto first = tc->InitProducerId("tx", 10000);
  ASSERT_EQ(first.error, ErrorCode::kNone);
  EXPECT_EQ(first.producer_id, 1000);
  EXPECT_EQ(first.producer_epoch, 0);
  auto second = tc->InitProducerId("tx", 10000);
  ASSERT_EQ(second.error, ErrorCode::kNone);
  EXPECT_EQ(second.producer_id, 1000);
  EXPECT_EQ(second.producer_epoch, 1);
  // The first producer is fenced everywhere.
  EXPECT_EQ(tc->AddPartitions("tx", 1000, 0, {{"t", 0}}), ErrorCode::kProducerFenced);
  EXPECT_EQ(tc->AddOffsets("tx", 1000, 0, "g"), ErrorCode::kProducerFenced);
  EXPECT_EQ(tc->EndTxn("tx", 1000, 0, true), ErrorCode::kProducerFenced);
  EXPECT_EQ(tc->CheckProduce("tx", 1000, 0, {"t", 0}), ErrorCode::kInvalidProducerEpoch);
  // KIP-360: a client naming an epoch that is not current is fenced too.
  EXPECT_EQ(tc->InitProducerId("tx", 10000, std::pair<int64_t, int16_t>{1000, 0}).error, ErrorCode::kProducerFenced);
  EXPECT_EQ(tc->InitProducerId("tx", 10000, std::pair<int64_t, int16_t>{1000, 1}).producer_epoch, 2);
  // Another transactional id gets another producer id.
  EXPECT_EQ(tc->InitProducerId("other", 10000).producer_id, 1001);
}

TEST_F(TransactionCoordinatorTest, UnknownIdsWrongStatesAndBadTimeouts) {
  auto tc = Open();
  EXPECT_EQ(tc->InitProducerId("tx", 0).error, ErrorCode::kInvalidTransactionTimeout);
  EXPECT_EQ(tc->InitProducerId("tx", 60001).error, ErrorCode::kInvalidTransactionTimeout);
  EXPECT_EQ(tc->Find("tx"), nullptr);
  EXPECT_EQ(tc->AddPartitions("nobody", 1, 0, {{"t", 0}}), ErrorCode::kInvalidProducerIdMapping);
  EXPECT_EQ(tc->EndTxn("nobody", 1, 0, true), ErrorCode::kInvalidProducerIdMapping);
  EXPECT_EQ(tc->CheckProduce("nobody", 1, 0, {"t", 0}), ErrorCode::kInvalidProducerIdMapping);
  EXPECT_EQ(tc->CheckTxnOffsetCommit("nobody", 1, 0, "g"), ErrorCode::kInvalidProducerIdMapping);
  auto init = tc->InitProducerId("tx", 10000);
  EXPECT_EQ(tc->AddPartitions("tx", init.producer_id + 1, 0, {{"t", 0}}), ErrorCode::kInvalidProducerIdMapping);
  // Nothing begun: EndTxn either way, TxnOffsetCommit and transactional produce are refused.
  EXPECT_EQ(tc->EndTxn("tx", init.producer_id, 0, true), ErrorCode::kInvalidTxnState);
  EXPECT_EQ(tc->EndTxn("tx", init.producer_id, 0, false), ErrorCode::kInvalidTxnState);
  EXPECT_EQ(tc->CheckTxnOffsetCommit("tx", init.producer_id, 0, "g"), ErrorCode::kInvalidTxnState);
  EXPECT_EQ(tc->CheckProduce("tx", init.producer_id, 0, {"t", 0}), ErrorCode::kInvalidTxnState);
  // A partition not added is refused even while the transaction is ongoing.
  ASSERT_EQ(tc->AddPartitions("tx", init.producer_id, 0, {{"t", 0}}), ErrorCode::kNone);
  EXPECT_EQ(tc->CheckProduce("tx", init.producer_id, 0, {"t", 1}), ErrorCode::kInvalidTxnState);
  EXPECT_EQ(tc->CheckProduce("tx", init.producer_id, 0, {"t", 0}), ErrorCode::kNone);
  // A group not added via AddOffsetsToTxn cannot commit offsets in the transaction.
  EXPECT_EQ(tc->CheckTxnOffsetCommit("tx", init.producer_id, 0, "g"), ErrorCode::kInvalidTxnState);
  EXPECT_TRUE(markers_.empty());
}

TEST_F(TransactionCoordinatorTest, CommitWritesMarkersAndAppliesOffsets) {
  auto tc = Open();
  auto init = tc->InitProducerId("tx", 10000);
  const int64_t pid = init.producer_id;
  ASSERT_EQ(tc->AddPartitions("tx", pid, 0, {{"t", 0}, {"t", 1}}), ErrorCode::kNone);
  ASSERT_EQ(tc->AddPartitions("tx", pid, 0, {{"t", 1}, {"deleted", 0}}), ErrorCode::kNone);
  ASSERT_EQ(tc->AddOffsets("tx", pid, 0, "g"), ErrorCode::kNone);
  ASSERT_EQ(tc->CheckTxnOffsetCommit("tx", pid, 0, "g"), ErrorCode::kNone);
  ASSERT_TRUE(tc->AddPendingOffset("tx", {"g", "in", 0}, {42, std::nullopt}).has_value());
  EXPECT_TRUE(offsets_.empty());  // Not visible before the commit.
  EXPECT_EQ(tc->Find("tx")->state, TxnState::kOngoing);
  ASSERT_EQ(tc->EndTxn("tx", pid, 0, true), ErrorCode::kNone);
  ASSERT_EQ(markers_.size(), 2u);  // The deleted topic's partition is skipped.
  for (const MarkerWritten& m : markers_) {
    EXPECT_TRUE(m.commit);
    EXPECT_EQ(m.producer_id, pid);
    EXPECT_EQ(m.epoch, 0);
  }
  EXPECT_EQ(offsets_.at({"g", "in", 0}), 42);
  EXPECT_EQ(tc->Find("tx")->state, TxnState::kCompleteCommit);
  // A retried commit is answered the same; an abort of a committed transaction is not.
  EXPECT_EQ(tc->EndTxn("tx", pid, 0, true), ErrorCode::kNone);
  EXPECT_EQ(tc->EndTxn("tx", pid, 0, false), ErrorCode::kInvalidTxnState);
  EXPECT_EQ(markers_.size(), 2u);

  // The next transaction aborts: markers say so and its offsets never reach the group.
  ASSERT_EQ(tc->AddPartitions("tx", pid, 0, {{"t", 0}}), ErrorCode::kNone);
  ASSERT_EQ(tc->AddOffsets("tx", pid, 0, "g"), ErrorCode::kNone);
  ASSERT_TRUE(tc->AddPendingOffset("tx", {"g", "in", 0}, {99, std::nullopt}).has_value());
  ASSERT_EQ(tc->EndTxn("tx", pid, 0, false), ErrorCode::kNone);
  ASSERT_EQ(markers_.size(), 3u);
  EXPECT_FALSE(markers_.back().commit);
  EXPECT_EQ(offsets_.at({"g", "in", 0}), 42);
  EXPECT_EQ(tc->Find("tx")->state, TxnState::kCompleteAbort);
}

TEST_F(TransactionCoordinatorTest, TimeoutAbortsWithABumpedEpoch) {
  auto tc = Open();
  auto init = tc->InitProducerId("tx", 5000);
  ASSERT_EQ(tc->AddPartitions("tx", init.producer_id, 0, {{"t", 0}}), ErrorCode::kNone);
  clock_.AdvanceMillis(4999);
  tc->Tick();
  EXPECT_EQ(tc->Find("tx")->state, TxnState::kOngoing);
  clock_.AdvanceMillis(1);
  tc->Tick();
  EXPECT_EQ(tc->Find("tx")->state, TxnState::kCompleteAbort);
  ASSERT_EQ(markers_.size(), 1u);
  EXPECT_FALSE(markers_[0].commit);
  EXPECT_EQ(markers_[0].epoch, 1);
  // The producer that let it time out is fenced.
  EXPECT_EQ(tc->EndTxn("tx", init.producer_id, 0, true), ErrorCode::kProducerFenced);
}

TEST_F(TransactionCoordinatorTest, ReinitAbortsTheOngoingTransaction) {
  auto tc = Open();
  auto init = tc->InitProducerId("tx", 10000);
  ASSERT_EQ(tc->AddPartitions("tx", init.producer_id, 0, {{"t", 3}}), ErrorCode::kNone);
  auto again = tc->InitProducerId("tx", 10000);
  ASSERT_EQ(again.error, ErrorCode::kNone);
  ASSERT_EQ(markers_.size(), 1u);
  EXPECT_FALSE(markers_[0].commit);
  EXPECT_EQ(markers_[0].epoch, 1);       // The abort fences epoch 0 on the partition.
  EXPECT_EQ(again.producer_epoch, 2);    // And the new producer is newer still.
  EXPECT_EQ(tc->Find("tx")->state, TxnState::kEmpty);
}

TEST_F(TransactionCoordinatorTest, StateSurvivesRestart) {
  {
    auto tc = Open();
    auto init = tc->InitProducerId("tx", 10000);
    ASSERT_EQ(tc->AddPartitions("tx", init.producer_id, 0, {{"t", 0}}), ErrorCode::kNone);
    ASSERT_EQ(tc->AddOffsets("tx", init.producer_id, 0, "g"), ErrorCode::kNone);
    tc->InitProducerId("done", 10000);
  }
  auto tc = Open();
  const TransactionMetadata* tx = tc->Find("tx");
  ASSERT_NE(tx, nullptr);
  EXPECT_EQ(tx->state, TxnState::kOngoing);
  EXPECT_EQ(tx->producer_id, 1000);
  EXPECT_EQ(tx->partitions, (std::set<TxnPartition>{{"t", 0}}));
  EXPECT_EQ(tx->groups, (std::set<std::string>{"g"}));
  EXPECT_EQ(tx->started_ms, 1'000'000);
  ASSERT_NE(tc->Find("done"), nullptr);
  EXPECT_EQ(tc->Find("done")->producer_id, 1001);
  // After the restart the ongoing transaction still times out.
  clock_.AdvanceMillis(10000);
  tc->Tick();
  EXPECT_EQ(tc->Find("tx")->state, TxnState::kCompleteAbort);
  ASSERT_EQ(markers_.size(), 1u);
}

TEST_F(TransactionCoordinatorTest, RecoveryFinishesAPreparedCommit) {
  {
    auto tc = Open();
    auto init = tc->InitProducerId("tx", 10000);
    ASSERT_EQ(tc->AddPartitions("tx", init.producer_id, 0, {{"t", 0}, {"t", 1}}), ErrorCode::kNone);
    ASSERT_EQ(tc->AddOffsets("tx", init.producer_id, 0, "g"), ErrorCode::kNone);
    ASSERT_TRUE(tc->AddPendingOffset("tx", {"g", "in", 2}, {7, "meta"}).has_value());
    fail_markers_ = true;  // The decision is logged, the markers cannot be written: a crash.
    EXPECT_EQ(tc->EndTxn("tx", init.producer_id, 0, true), ErrorCode::kNone);
    EXPECT_EQ(tc->Find("tx")->state, TxnState::kPrepareCommit);
    EXPECT_EQ(tc->EndTxn("tx", init.producer_id, 0, true), ErrorCode::kConcurrentTransactions);
    EXPECT_EQ(tc->AddPartitions("tx", init.producer_id, 0, {{"t", 0}}), ErrorCode::kConcurrentTransactions);
  }
  fail_markers_ = false;
  auto tc = Open();
  EXPECT_EQ(tc->Find("tx")->state, TxnState::kPrepareCommit);
  ASSERT_TRUE(tc->Recover().has_value());
  EXPECT_EQ(tc->Find("tx")->state, TxnState::kCompleteCommit);
  ASSERT_EQ(markers_.size(), 2u);
  EXPECT_TRUE(markers_[0].commit && markers_[1].commit);
  EXPECT_EQ(offsets_.at({"g", "in", 2}), 7);  // Pending offsets were logged with the decision.
}

TEST_F(TransactionCoordinatorTest, TornAndGarbageTailsAreCut) {
  {
    auto tc = Open();
    tc->InitProducerId("a", 10000);
    tc->InitProducerId("b", 10000);
  }
  const auto intact = std::filesystem::file_size(LogPath());
  {
    auto tc = Open();
    tc->InitProducerId("c", 10000);
  }
  // Cut the last record in half: "c" is lost, "a" and "b" are kept.
  std::filesystem::resize_file(LogPath(), intact + 10);
  {
    auto tc = Open();
    EXPECT_EQ(tc->log().truncated_bytes(), 10u);
    EXPECT_NE(tc->Find("a"), nullptr);
    EXPECT_NE(tc->Find("b"), nullptr);
    EXPECT_EQ(tc->Find("c"), nullptr);
    EXPECT_EQ(std::filesystem::file_size(LogPath()), intact);
    // Appending after the cut replays cleanly.
    tc->InitProducerId("d", 10000);
  }
  // Garbage after the records, including a huge length prefix, is cut and nothing allocated.
  {
    std::ofstream out(LogPath(), std::ios::app | std::ios::binary);
    out << std::string("\x7f\xff\xff\xff\x00\x00\x00\x00garbage", 15);
  }
  {
    auto tc = Open();
    EXPECT_EQ(tc->log().truncated_bytes(), 15u);
    EXPECT_NE(tc->Find("d"), nullptr);
  }
  // A record whose CRC matches but whose body does not decode ends the log too.
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::string body = EncodeTransactionRecord({.transactional_id = "x", .producer_id = 1, .producer_epoch = 0,
                                                .timeout_ms = 1000, .partitions = {{"t", 1}}});
    size_t cut = rng() % body.size();
    std::string mutated = body.substr(0, cut);
    if (rng() % 2) mutated += std::string(1 + rng() % 8, static_cast<char>(rng()));
    auto decoded = DecodeTransactionRecord(mutated);
    if (decoded) {
      EXPECT_LE(decoded->partitions.size(), 1u);
    }
  }
  std::string huge_count = EncodeTransactionRecord({.transactional_id = "x", .producer_id = 1, .producer_epoch = 0,
                                                    .timeout_ms = 1000});
  huge_count[huge_count.size() - 12] = '\x7f';  // The partitions count's high byte.
  EXPECT_FALSE(DecodeTransactionRecord(huge_count).has_value());
}

TEST_F(TransactionCoordinatorTest, IdleIdsExpireAndStayForgotten) {
  const int64_t week = 7LL * 24 * 3600 * 1000;
  {
    auto tc = Open();
    auto idle = tc->InitProducerId("idle", 10000);
    auto busy = tc->InitProducerId("busy", 10000);
    clock_.AdvanceMillis(week - 1000);
    ASSERT_EQ(tc->AddPartitions("busy", busy.producer_id, 0, {{"t", 0}}), ErrorCode::kNone);
    ASSERT_EQ(tc->EndTxn("busy", busy.producer_id, 0, true), ErrorCode::kNone);
    clock_.AdvanceMillis(1000);
    tc->Tick();
    EXPECT_EQ(tc->Find("idle"), nullptr);
    ASSERT_NE(tc->Find("busy"), nullptr);  // Its last transaction was a second ago.
    // A forgotten id starts over with a new producer id.
    EXPECT_NE(tc->InitProducerId("idle", 10000).producer_id, idle.producer_id);
    // "busy" completed at week - 1000, "idle" came back at week: each lasts a week from then.
    clock_.AdvanceMillis(week - 1001);
    tc->Tick();
    EXPECT_NE(tc->Find("busy"), nullptr);
    clock_.AdvanceMillis(1);
    tc->Tick();
    EXPECT_EQ(tc->Find("busy"), nullptr);
    EXPECT_NE(tc->Find("idle"), nullptr);
    clock_.AdvanceMillis(1000);
    tc->Tick();
    EXPECT_EQ(tc->Find("idle"), nullptr);
    tc->InitProducerId("fresh", 10000);
  }
  auto tc = Open();  // Dead records replay as forgotten ids.
  EXPECT_EQ(tc->Find("busy"), nullptr);
  EXPECT_EQ(tc->Find("idle"), nullptr);
  EXPECT_NE(tc->Find("fresh"), nullptr);
}

TEST_F(TransactionCoordinatorTest, RecordRoundTrips) {
  TransactionMetadata txn{.transactional_id = "tx", .producer_id = 5, .producer_epoch = 3, .timeout_ms = 900,
                          .state = TxnState::kPrepareCommit, .started_ms = 77,
                          .partitions = {{"a", 0}, {"b", 9}}, .groups = {"g1", "g2"}};
  txn.offsets[{"g1", "a", 0}] = {12, std::nullopt};
  txn.offsets[{"g2", "b", 1}] = {13, "meta"};
  auto decoded = DecodeTransactionRecord(EncodeTransactionRecord(txn));
  ASSERT_TRUE(decoded.has_value()) << decoded.error().ToString();
  EXPECT_TRUE(*decoded == txn);
}

}  // namespace
}  // namespace floe::broker
