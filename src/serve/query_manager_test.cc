#include "serve/query_manager.h"

#include <gtest/gtest.h>

#include "sql/catalog/memory_catalog.h"

namespace floe::serve {
namespace {

class QueryManagerTest : public ::testing::Test {
 protected:
  QueryManagerTest() { catalog_.AddSchema("default"); }

  QueryRequest Request(std::string sql, int64_t delay_ms = 0) {
    QueryRequest request{.sql = std::move(sql), .session = {}, .protocol = "test", .interceptor = nullptr};
    if (delay_ms > 0) request.session.properties["testing_delay_ms"] = std::to_string(delay_ms);
    return request;
  }

  sql::MemoryCatalog catalog_;
};

TEST_F(QueryManagerTest, RunsStatementsAndKeepsEachOutcome) {
  QueryManager manager(catalog_, {}, nullptr);
  auto query = manager.Submit(Request("SELECT 1 AS a; SELECT 'x' AS b, 2 AS c"));
  ASSERT_TRUE(query->Wait(std::chrono::seconds(10)));
  ASSERT_EQ(query->state(), QueryState::kFinished);
  ASSERT_EQ(query->outcomes().size(), 2u);
  EXPECT_EQ(query->outcomes()[1].result.column_names, (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(query->outcomes()[0].verb, "SELECT");
  EXPECT_EQ(manager.Find(query->id()), query);
}

TEST_F(QueryManagerTest, StopsAtTheFirstErrorKeepingEarlierOutcomes) {
  QueryManager manager(catalog_, {}, nullptr);
  auto query = manager.Submit(Request("SELECT 1;\nSELECT nope FROM missing; SELECT 3"));
  ASSERT_TRUE(query->Wait(std::chrono::seconds(10)));
  EXPECT_EQ(query->state(), QueryState::kFailed);
  EXPECT_EQ(query->outcomes().size(), 1u);
  ASSERT_TRUE(query->error().has_value());
  EXPECT_EQ(query->error()->name, "TABLE_NOT_FOUND");
  EXPECT_EQ(query->error()->line, 2);  // Positions are true to the whole text.
  EXPECT_EQ(query->error()->column, 18);
  EXPECT_EQ(query->error()->position, 28);
}

TEST_F(QueryManagerTest, AdmissionQueuesBeyondMaxRunningAndRefusesBeyondTheQueue) {
  QueryManagerOptions options;
  options.max_running = 1;
  options.max_queued = 1;
  QueryManager manager(catalog_, options, nullptr);
  auto running = manager.Submit(Request("SELECT 1", 60'000));
  while (running->state() == QueryState::kQueued) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  auto waiting = manager.Submit(Request("SELECT 2"));
  auto refused = manager.Submit(Request("SELECT 3"));
  EXPECT_EQ(waiting->state(), QueryState::kQueued);
  EXPECT_EQ(refused->state(), QueryState::kFailed);
  EXPECT_EQ(refused->error()->name, "QUERY_QUEUE_FULL");
  EXPECT_EQ(manager.running(), 1);
  EXPECT_EQ(manager.queued(), 1);
  EXPECT_TRUE(manager.Cancel(running->id()));
  EXPECT_EQ(running->state(), QueryState::kCanceled);
  EXPECT_EQ(running->error()->name, "USER_CANCELED");
  ASSERT_TRUE(waiting->Wait(std::chrono::seconds(10)));
  EXPECT_EQ(waiting->state(), QueryState::kFinished);
}

TEST_F(QueryManagerTest, TimeLimitFailsARunningQuery) {
  QueryManagerOptions options;
  options.limits.max_run_time = std::chrono::milliseconds(50);
  QueryManager manager(catalog_, options, nullptr);
  auto query = manager.Submit(Request("SELECT 1", 60'000));
  ASSERT_TRUE(query->Wait(std::chrono::seconds(10)));
  EXPECT_EQ(query->error()->name, "EXCEEDED_TIME_LIMIT");
}

TEST_F(QueryManagerTest, MemoryLimitFailsALargeResult) {
  QueryManagerOptions options;
  options.limits.max_memory_bytes = 1000;
  QueryManager manager(catalog_, options, nullptr);
  std::string values;
  for (int i = 0; i < 100; ++i) values += fmt::format("{}('{}')", i ? "," : "", std::string(50, 'x'));
  auto query = manager.Submit(Request("SELECT * FROM (VALUES " + values + ") AS t(s)"));
  ASSERT_TRUE(query->Wait(std::chrono::seconds(10)));
  ASSERT_TRUE(query->error().has_value());
  EXPECT_EQ(query->error()->name, "EXCEEDED_LOCAL_MEMORY_LIMIT");
}

TEST_F(QueryManagerTest, AStreamedQueryHandsEachStatementToItsStream) {
  QueryManager manager(catalog_, {}, nullptr);
  QueryRequest request = Request("SELECT 1 AS a; SELECT n FROM (VALUES (1), (2), (3)) AS t(n)");
  request.stream = true;
  auto query = manager.Submit(std::move(request));
  std::vector<StreamItem::Kind> kinds;
  int64_t rows = 0;
  while (!query->stream()->Finished()) {
    query->stream()->WaitReadable(1, std::chrono::seconds(10));
    for (const auto& item : query->stream()->Take(1 << 20)) {
      kinds.push_back(item.kind);
      rows += static_cast<int64_t>(item.rows.size());
    }
  }
  using K = StreamItem::Kind;
  EXPECT_EQ(kinds, (std::vector<K>{K::kBegin, K::kRows, K::kEnd, K::kBegin, K::kRows, K::kEnd}));
  EXPECT_EQ(rows, 4);
  ASSERT_EQ(query->state(), QueryState::kFinished);
  ASSERT_EQ(query->outcomes().size(), 2u);
  EXPECT_TRUE(query->outcomes()[1].result.rows.empty());  // They went through the stream.
  EXPECT_EQ(query->outcomes()[1].rows, 3);
  EXPECT_EQ(query->result_rows(), 4);
}

TEST_F(QueryManagerTest, TheMemoryLimitBoundsTheEngineOfAStreamedQuery) {
  QueryManagerOptions options;
  options.limits.max_memory_bytes = 64 << 10;
  QueryManager manager(catalog_, options, nullptr);
  std::string values;
  for (int i = 0; i < 2000; ++i) values += fmt::format("{}({})", i ? "," : "", i);
  QueryRequest request = Request("SELECT a.n, count(*) FROM (VALUES " + values + ") AS a(n), (VALUES " + values +
                                 ") AS b(n) GROUP BY a.n * 10000 + b.n, a.n");
  request.stream = true;
  auto query = manager.Submit(std::move(request));
  ASSERT_TRUE(query->Wait(std::chrono::seconds(60)));
  ASSERT_TRUE(query->error().has_value());
  EXPECT_EQ(query->error()->name, "EXCEEDED_LOCAL_MEMORY_LIMIT");
}

TEST_F(QueryManagerTest, OnDoneRunsOnceWhenTheQueryEnds) {
  QueryManager manager(catalog_, {}, nullptr);
  std::atomic<int> calls{0};
  auto query = manager.Submit(Request("SELECT 1"), [&] { ++calls; });
  ASSERT_TRUE(query->Wait(std::chrono::seconds(10)));
  // Waiters wake when the state is final; the callbacks run right after, on the worker.
  for (int i = 0; i < 10'000 && calls.load() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  query->Cancel();  // Too late: it finished.
  EXPECT_EQ(query->state(), QueryState::kFinished);
  EXPECT_EQ(calls.load(), 1);
}

}  // namespace
}  // namespace floe::serve
