#include "serve/result_stream.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace floe::serve {
namespace {

std::vector<ResultRow> Rows(int n, int width) {
  std::vector<ResultRow> rows;
  for (int i = 0; i < n; ++i) {
    rows.push_back({sql::Value::Int(sql::SqlType::Bigint(), i),
                    sql::Value::String(sql::SqlType::Varchar(), std::string(static_cast<size_t>(width), 'x'))});
  }
  return rows;
}

int64_t Bytes(const std::vector<ResultRow>& rows) {
  int64_t bytes = 0;
  for (const auto& row : rows) bytes += EstimateRowBytes(row);
  return bytes;
}

int64_t CountRows(const std::vector<StreamItem>& items) {
  int64_t n = 0;
  for (const auto& item : items) n += static_cast<int64_t>(item.rows.size());
  return n;
}

TEST(ResultStreamTest, AFullBufferHoldsTheProducerUntilTheConsumerTakes) {
  auto batch = Rows(100, 100);
  ResultStream stream(Bytes(batch) + 10);  // Room for one batch, not two.
  ASSERT_TRUE(stream.Push(Rows(100, 100)).has_value());
  std::atomic<bool> pushed{false};
  std::thread producer([&] {
    EXPECT_TRUE(stream.Push(Rows(100, 100)).has_value());
    pushed = true;
  });
  // The producer cannot have pushed while the first batch is untaken; a blocking consumer sees
  // it waiting on the full buffer.
  stream.WaitReadable(1 << 30, std::chrono::seconds(60));
  EXPECT_FALSE(pushed.load());
  EXPECT_EQ(CountRows(stream.Take(1 << 30)), 100);
  producer.join();
  EXPECT_TRUE(pushed.load());
  EXPECT_LE(stream.peak_bytes(), Bytes(batch));
}

TEST(ResultStreamTest, TakeSplitsABatchToTheBudgetAndKeepsOrder) {
  ResultStream stream(1 << 30);
  StatementOutcome header;
  header.verb = "SELECT";
  header.has_rows = true;
  stream.Begin(header);
  ASSERT_TRUE(stream.Push(Rows(1000, 10)).has_value());
  stream.End(header);
  stream.Close(/*discard=*/false);
  int64_t one_row = EstimateRowBytes(Rows(1, 10)[0]);
  auto first = stream.Take(one_row * 10);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].kind, StreamItem::Kind::kBegin);
  EXPECT_EQ(first[1].rows.size(), 10u);
  EXPECT_EQ(first[1].rows[0][0].as_int(), 0);
  auto rest = stream.Take(1 << 30);
  EXPECT_EQ(CountRows(rest), 990);
  EXPECT_EQ(rest.front().rows.front()[0].as_int(), 10);
  EXPECT_EQ(rest.back().kind, StreamItem::Kind::kEnd);
  EXPECT_TRUE(stream.Finished());
}

TEST(ResultStreamTest, ClosingWithDiscardUnblocksTheProducerWithAnError) {
  auto batch = Rows(10, 10);
  ResultStream stream(Bytes(batch));
  ASSERT_TRUE(stream.Push(Rows(10, 10)).has_value());
  Status second;
  std::thread producer([&] { second = stream.Push(Rows(10, 10)); });
  stream.WaitReadable(1 << 30, std::chrono::seconds(60));  // Until the producer is blocked.
  stream.Close(/*discard=*/true);
  producer.join();
  EXPECT_FALSE(second.has_value());
  EXPECT_TRUE(stream.Take(1 << 30).empty());
  EXPECT_TRUE(stream.Finished());
}

TEST(ResultStreamTest, TheListenerRunsOnceAfterATakeFoundNothing) {
  ResultStream stream(1 << 20);
  int calls = 0;
  stream.SetListener([&] { ++calls; });
  ASSERT_TRUE(stream.Push(Rows(1, 1)).has_value());
  EXPECT_EQ(calls, 0);  // Nobody was waiting.
  EXPECT_EQ(CountRows(stream.Take(1 << 20)), 1);
  EXPECT_TRUE(stream.Take(1 << 20).empty());  // Arms it.
  ASSERT_TRUE(stream.Push(Rows(1, 1)).has_value());
  ASSERT_TRUE(stream.Push(Rows(1, 1)).has_value());
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(CountRows(stream.Take(1 << 20)), 2);
  EXPECT_TRUE(stream.Take(1 << 20).empty());
  stream.Close(/*discard=*/false);
  EXPECT_EQ(calls, 2);  // The end wakes the consumer too.
  EXPECT_TRUE(stream.Finished());
}

}  // namespace
}  // namespace floe::serve
