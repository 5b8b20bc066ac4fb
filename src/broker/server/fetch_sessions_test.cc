// The fetch session cache (KIP-227): epochs, users, eviction of the least recently used
// session, and the partition budget across sessions.
#include "broker/server/fetch_sessions.h"

#include <gtest/gtest.h>

namespace floe::broker {
namespace {

TEST(FetchSessionCacheTest, EpochsAdvanceOnlyAsTheSessionExpects) {
  FetchSessionCache cache;
  auto session = cache.Create("ana", 2);
  ASSERT_NE(session, nullptr);
  EXPECT_GT(session->id, 0);
  ErrorCode error;
  EXPECT_EQ(cache.Find(session->id, "ana", 1, &error), session);
  EXPECT_EQ(error, ErrorCode::kNone);
  EXPECT_EQ(cache.Find(session->id, "ana", 2, &error), nullptr);
  EXPECT_EQ(error, ErrorCode::kInvalidFetchSessionEpoch);
  // Another user's session is as good as unknown.
  EXPECT_EQ(cache.Find(session->id, "bo", 1, &error), nullptr);
  EXPECT_EQ(error, ErrorCode::kFetchSessionIdNotFound);
  EXPECT_EQ(cache.Find(session->id + 1, "ana", 1, &error), nullptr);
  EXPECT_EQ(error, ErrorCode::kFetchSessionIdNotFound);
  cache.Remove(session->id);
  EXPECT_EQ(cache.Find(session->id, "ana", 1, &error), nullptr);
  EXPECT_EQ(error, ErrorCode::kFetchSessionIdNotFound);
}

TEST(FetchSessionCacheTest, PartitionsAreAddedUpdatedAndForgottenInOrder) {
  FetchSession session;
  session.Upsert("a", 0, 10, 100);
  session.Upsert("b", 1, 5, 100);
  session.Upsert("a", 0, 12, 200);
  ASSERT_EQ(session.partitions.size(), 2u);
  EXPECT_EQ(session.partitions[0].fetch_offset, 12);
  EXPECT_EQ(session.partitions[0].max_bytes, 200);
  session.Forget("a", 0);
  session.Forget("c", 3);
  ASSERT_EQ(session.partitions.size(), 1u);
  EXPECT_EQ(session.partitions[0].topic, "b");
}

TEST(FetchSessionCacheTest, TheLeastRecentlyUsedSessionMakesRoom) {
  FetchSessionCache cache(2, 100);
  auto first = cache.Create("u", 1);
  auto second = cache.Create("u", 1);
  ErrorCode error;
  ASSERT_NE(cache.Find(first->id, "u", 1, &error), nullptr);  // `second` is now the oldest.
  auto third = cache.Create("u", 1);
  ASSERT_NE(third, nullptr);
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.Find(second->id, "u", 1, &error), nullptr);
  EXPECT_NE(cache.Find(first->id, "u", 1, &error), nullptr);
}

TEST(FetchSessionCacheTest, ThePartitionBudgetBoundsEverySession) {
  FetchSessionCache cache(10, 5);
  EXPECT_EQ(cache.Create("u", 6), nullptr);  // Alone over the budget.
  auto session = cache.Create("u", 3);
  ASSERT_NE(session, nullptr);
  for (int p = 0; p < 5; ++p) session->Upsert("t", p, 0, 1);
  EXPECT_TRUE(cache.Resized(*session));
  // Another session evicts it to fit; one that grows past the budget is closed.
  auto other = cache.Create("u", 2);
  ASSERT_NE(other, nullptr);
  ErrorCode error;
  EXPECT_EQ(cache.Find(session->id, "u", 1, &error), nullptr);
  for (int p = 0; p < 6; ++p) other->Upsert("t", p, 0, 1);
  EXPECT_FALSE(cache.Resized(*other));
  EXPECT_EQ(cache.size(), 0u);
}

}  // namespace
}  // namespace floe::broker
