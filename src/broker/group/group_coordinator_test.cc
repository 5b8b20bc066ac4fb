#include "broker/group/group_coordinator.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "broker/protocol/wire.h"

namespace floe::broker {
namespace {

class GroupCoordinatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           fmt::format("floe-group-test-{}-{}", ::getpid(), ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    auto store = OffsetStore::Open(dir_.string(), false);
    ASSERT_TRUE(store.has_value());
    groups_ = std::make_unique<GroupCoordinator>(GroupCoordinatorOptions{}, clock_, std::move(*store));
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  JoinRequest Request(const std::string& member, const std::string& protocol = "range") {
    JoinRequest r;
    r.group_id = "g";
    r.member_id = member;
    r.session_timeout_ms = 10000;
    r.rebalance_timeout_ms = 30000;
    r.protocol_type = "consumer";
    r.protocols = {{protocol, fmt::format("meta-{}", member)}};
    r.client_id = "c";
    return r;
  }

  // Joins and returns a slot that is filled when the join completes.
  std::shared_ptr<std::optional<JoinResult>> Join(const JoinRequest& r) {
    auto slot = std::make_shared<std::optional<JoinResult>>();
    groups_->Join(r, [slot](const JoinResult& result) { *slot = result; });
    return slot;
  }

  std::shared_ptr<std::optional<SyncResult>> Sync(const std::string& member, int32_t generation,
                                                  std::vector<std::pair<std::string, std::string>> assignments = {}) {
    auto slot = std::make_shared<std::optional<SyncResult>>();
    groups_->Sync("g", generation, member, assignments, [slot](const SyncResult& r) { *slot = r; });
    return slot;
  }

  std::filesystem::path dir_;
  ManualClock clock_{1'000'000};
  std::unique_ptr<GroupCoordinator> groups_;
};

TEST_F(GroupCoordinatorTest, RebalanceBarrierWaitsForEveryKnownMember) {
  auto a = Join(Request(""));
  ASSERT_TRUE(a->has_value());
  EXPECT_EQ((*a)->generation, 1);
  std::string id_a = (*a)->member_id;
  EXPECT_EQ((*a)->leader, id_a);
  ASSERT_TRUE(Sync(id_a, 1, {{id_a, "all"}})->has_value());

  // B joins: the barrier holds its answer until A rejoins.
  auto b = Join(Request(""));
  EXPECT_FALSE(b->has_value());
  EXPECT_EQ(groups_->Heartbeat("g", 1, id_a), ErrorCode::kRebalanceInProgress);
  auto a2 = Join(Request(id_a));
  ASSERT_TRUE(a2->has_value());
  ASSERT_TRUE(b->has_value());
  EXPECT_EQ((*a2)->generation, 2);
  EXPECT_EQ((*b)->generation, 2);
  EXPECT_EQ((*a2)->members.size(), 2u);  // The leader sees every member's metadata.
  EXPECT_TRUE((*b)->members.empty());
  std::string id_b = (*b)->member_id;

  // The follower's SyncGroup waits for the leader's assignment.
  auto sync_b = Sync(id_b, 2);
  EXPECT_FALSE(sync_b->has_value());
  auto sync_a = Sync(id_a, 2, {{id_a, "p0,p1"}, {id_b, "p2,p3"}});
  ASSERT_TRUE(sync_a->has_value() && sync_b->has_value());
  EXPECT_EQ((*sync_a)->assignment, "p0,p1");
  EXPECT_EQ((*sync_b)->assignment, "p2,p3");
  EXPECT_EQ(groups_->StateName("g"), "Stable");
  EXPECT_EQ(groups_->Heartbeat("g", 2, id_b), ErrorCode::kNone);
  EXPECT_EQ(groups_->Heartbeat("g", 1, id_b), ErrorCode::kIllegalGeneration);
  EXPECT_EQ(groups_->Heartbeat("g", 2, "nobody"), ErrorCode::kUnknownMemberId);
}

TEST_F(GroupCoordinatorTest, ExpiredSessionTriggersRebalanceAndMissingMembersAreDropped) {
  auto a = Join(Request(""));
  std::string id_a = (*a)->member_id;
  Sync(id_a, 1, {{id_a, "x"}});
  auto b = Join(Request(""));
  auto a2 = Join(Request(id_a));
  std::string id_b = (*b)->member_id;
  Sync(id_a, 2, {});
  Sync(id_b, 2, {});
  // B stops heartbeating; A keeps going.
  for (int i = 0; i < 12; ++i) {
    clock_.AdvanceMillis(1000);
    EXPECT_NE(groups_->Heartbeat("g", 2, id_a), ErrorCode::kUnknownMemberId);
    groups_->Tick();
  }
  EXPECT_EQ(groups_->Heartbeat("g", 2, id_b), ErrorCode::kUnknownMemberId);
  EXPECT_EQ(groups_->Heartbeat("g", 2, id_a), ErrorCode::kRebalanceInProgress);
  auto a3 = Join(Request(id_a));
  ASSERT_TRUE(a3->has_value());
  EXPECT_EQ((*a3)->generation, 3);
  EXPECT_EQ((*a3)->members.size(), 1u);
}

TEST_F(GroupCoordinatorTest, RebalanceTimeoutRemovesMembersThatDoNotRejoin) {
  auto a = Join(Request(""));
  std::string id_a = (*a)->member_id;
  Sync(id_a, 1, {});
  auto b = Join(Request(""));
  EXPECT_FALSE(b->has_value());
  // A stays alive (heartbeats) but never rejoins: only the rebalance timeout removes it.
  for (int i = 0; i < 29; ++i) {
    clock_.AdvanceMillis(1000);
    groups_->Heartbeat("g", 1, id_a);
    groups_->Tick();
  }
  EXPECT_FALSE(b->has_value());
  clock_.AdvanceMillis(2000);
  groups_->Tick();
  ASSERT_TRUE(b->has_value());
  EXPECT_EQ((*b)->members.size(), 1u);  // A did not rejoin: B leads alone.
  EXPECT_EQ((*b)->leader, (*b)->member_id);
}

TEST_F(GroupCoordinatorTest, ADeadMemberDoesNotHoldARebalanceBeyondItsSession) {
  auto a = Join(Request(""));
  std::string id_a = (*a)->member_id;
  Sync(id_a, 1, {});
  auto b = Join(Request(""));  // A was killed: no heartbeat, no rejoin.
  EXPECT_FALSE(b->has_value());
  for (int i = 0; i < 12 && !b->has_value(); ++i) {
    clock_.AdvanceMillis(1000);
    groups_->Tick();
  }
  ASSERT_TRUE(b->has_value()) << "the join waited past A's session timeout";
  EXPECT_EQ((*b)->members.size(), 1u);
}

TEST_F(GroupCoordinatorTest, LeaveAndProtocolMismatch) {
  auto a = Join(Request(""));
  std::string id_a = (*a)->member_id;
  auto other = Join(Request("", "roundrobin"));
  ASSERT_TRUE(other->has_value());
  EXPECT_EQ((*other)->error, ErrorCode::kInconsistentGroupProtocol);
  EXPECT_EQ(groups_->Leave("g", id_a), ErrorCode::kNone);
  EXPECT_EQ(groups_->StateName("g"), "Empty");
  EXPECT_EQ(groups_->Leave("g", id_a), ErrorCode::kUnknownMemberId);
}

TEST_F(GroupCoordinatorTest, CommitsNeedTheCurrentGenerationAndPersist) {
  auto a = Join(Request(""));
  std::string id_a = (*a)->member_id;
  EXPECT_EQ(groups_->CheckCommit("g", 1, id_a), ErrorCode::kRebalanceInProgress);  // Before SyncGroup.
  Sync(id_a, 1, {});
  EXPECT_EQ(groups_->CheckCommit("g", 1, id_a), ErrorCode::kNone);
  EXPECT_EQ(groups_->CheckCommit("g", 0, id_a), ErrorCode::kIllegalGeneration);
  EXPECT_EQ(groups_->CheckCommit("g", -1, ""), ErrorCode::kUnknownMemberId);  // A live group owns it.
  ASSERT_TRUE(groups_->offsets().Commit("g", "t", 3, {42, "meta"}).has_value());
  ASSERT_TRUE(groups_->offsets().Commit("g", "t", 3, {43, std::nullopt}).has_value());
  groups_.reset();
  auto store = OffsetStore::Open(dir_.string(), false);
  ASSERT_TRUE(store.has_value());
  auto committed = (*store)->Fetch("g", "t", 3);
  ASSERT_TRUE(committed.has_value());
  EXPECT_EQ(committed->offset, 43);
  EXPECT_FALSE(committed->metadata.has_value());
  EXPECT_FALSE((*store)->Fetch("g", "t", 4).has_value());
}

// DeleteGroups: refused while members remain, then the group and its offsets are gone, also
// after a restart (the removal is in the offsets log).
TEST_F(GroupCoordinatorTest, DeleteGroupNeedsAnEmptyGroupAndForgetsItsOffsets) {
  EXPECT_EQ(groups_->DeleteGroup("g"), ErrorCode::kGroupIdNotFound);
  auto a = Join(Request(""));
  std::string id_a = (*a)->member_id;
  Sync(id_a, 1, {});
  ASSERT_TRUE(groups_->offsets().Commit("g", "t", 0, {7, std::nullopt}).has_value());
  ASSERT_TRUE(groups_->offsets().Commit("other", "t", 0, {9, std::nullopt}).has_value());
  EXPECT_EQ(groups_->DeleteGroup("g"), ErrorCode::kNonEmptyGroup);
  EXPECT_EQ(groups_->Leave("g", id_a), ErrorCode::kNone);
  EXPECT_EQ(groups_->DeleteGroup("g"), ErrorCode::kNone);
  EXPECT_EQ(groups_->StateName("g"), "Dead");
  EXPECT_EQ(groups_->DeleteGroup("g"), ErrorCode::kGroupIdNotFound);
  groups_.reset();
  auto store = OffsetStore::Open(dir_.string(), false);
  ASSERT_TRUE(store.has_value());
  EXPECT_FALSE((*store)->Fetch("g", "t", 0).has_value());
  EXPECT_EQ((*store)->Fetch("other", "t", 0)->offset, 9);
}

// OffsetDelete: what a member subscribes to is read from its ConsumerProtocolSubscription; bytes
// that are not one (garbage, cut short, an absurd topic count) count as every topic, so a
// running consumer's offsets are never deleted by mistake. A deleted offset stays deleted after
// a restart.
TEST_F(GroupCoordinatorTest, OffsetDeleteChecksSubscriptionsAndIsDurable) {
  EXPECT_EQ(groups_->CheckOffsetDelete("g"), ErrorCode::kGroupIdNotFound);
  ASSERT_TRUE(groups_->offsets().Commit("g", "orders", 0, {7, std::nullopt}).has_value());
  ASSERT_TRUE(groups_->offsets().Commit("g", "orders", 1, {8, std::nullopt}).has_value());
  EXPECT_EQ(groups_->CheckOffsetDelete("g"), ErrorCode::kNone);
  EXPECT_FALSE(groups_->SubscribesTo("g", "orders"));

  std::string subscription;
  WireWriter w(&subscription, false);
  w.Int16(1);
  w.ArrayLength(2);
  w.String("orders");
  w.String("payments");
  w.Bytes("");
  JoinRequest member = Request("");
  member.protocols = {{"range", subscription}};
  auto joined = Join(member);
  ASSERT_TRUE(joined->has_value());
  EXPECT_EQ(groups_->CheckOffsetDelete("g"), ErrorCode::kNone);
  EXPECT_TRUE(groups_->SubscribesTo("g", "orders"));
  EXPECT_TRUE(groups_->SubscribesTo("g", "payments"));
  EXPECT_FALSE(groups_->SubscribesTo("g", "shipments"));
  EXPECT_EQ(groups_->Leave("g", (*joined)->member_id), ErrorCode::kNone);

  const std::string absurd_count = std::string("\x00\x01\x7f\xff\xff\xff", 6);
  for (const std::string& bad : {std::string("garbage"), subscription.substr(0, 9), std::string(), absurd_count}) {
    JoinRequest odd = Request("");
    odd.protocols = {{"range", bad}};
    auto slot = Join(odd);
    ASSERT_TRUE(slot->has_value());
    EXPECT_TRUE(groups_->SubscribesTo("g", "shipments")) << bad.size();
    EXPECT_EQ(groups_->Leave("g", (*slot)->member_id), ErrorCode::kNone);
  }

  // A group of members that are not consumers (Kafka Connect workers, say) is not touched.
  JoinRequest connect = Request("");
  connect.protocol_type = "connect";
  auto worker = Join(connect);
  ASSERT_TRUE(worker->has_value());
  EXPECT_EQ(groups_->CheckOffsetDelete("g"), ErrorCode::kNonEmptyGroup);
  EXPECT_EQ(groups_->Leave("g", (*worker)->member_id), ErrorCode::kNone);

  ASSERT_TRUE(groups_->offsets().Remove("g", "orders", 0).has_value());
  ASSERT_TRUE(groups_->offsets().Remove("g", "orders", 5).has_value());  // Nothing there: fine.
  groups_.reset();
  auto store = OffsetStore::Open(dir_.string(), false);
  ASSERT_TRUE(store.has_value());
  EXPECT_FALSE((*store)->Fetch("g", "orders", 0).has_value());
  EXPECT_EQ((*store)->Fetch("g", "orders", 1)->offset, 8);
}

TEST(OffsetStoreTest, TornTailAndGarbageAreCut) {
  auto dir = std::filesystem::temp_directory_path() / fmt::format("floe-offsets-{}", ::getpid());
  std::filesystem::remove_all(dir);
  {
    auto store = OffsetStore::Open(dir.string(), true);
    ASSERT_TRUE(store.has_value());
    for (int i = 0; i < 10; ++i) ASSERT_TRUE((*store)->Commit("g", "t", i, {i * 10, std::nullopt}).has_value());
  }
  auto path = dir / "groups" / "offsets.log";
  auto good = std::filesystem::file_size(path);
  {
    std::ofstream out(path, std::ios::app | std::ios::binary);
    out << std::string("\x00\x00\x00\x30garbage that is not a record", 32);
  }
  auto store = OffsetStore::Open(dir.string(), true);
  ASSERT_TRUE(store.has_value());
  EXPECT_EQ(std::filesystem::file_size(path), good);
  EXPECT_EQ((*store)->Fetch("g", "t", 9)->offset, 90);
  EXPECT_EQ((*store)->ForGroup("g").size(), 10u);
  std::filesystem::remove_all(dir);
}

TEST(OffsetStoreTest, RecordDecoderRejectsTruncation) {
  std::string record = EncodeOffsetRecord({"group", "topic", 1}, {5, "m"});
  ASSERT_TRUE(DecodeOffsetRecord(record).has_value());
  for (size_t cut = 0; cut < record.size(); ++cut) {
    EXPECT_FALSE(DecodeOffsetRecord(std::string_view(record).substr(0, cut)).has_value()) << cut;
  }
  EXPECT_FALSE(DecodeOffsetRecord(record + "x").has_value());
}

}  // namespace
}  // namespace floe::broker
