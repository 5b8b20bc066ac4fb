// The executor through SqlSession on larger in-memory tables: parallel results equal serial
// ones, streaming hands out batches, and the per-query limits (memory, time, cancellation)
// stop a query with a clear error.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <thread>

#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "sql/catalog/memory_catalog.h"
#include "sql/sql_session.h"

namespace floe::sql {
namespace {

// orders(id bigint, region varchar, amount decimal(10,2), ts timestamptz) with `rows` rows in
// batches of 10000, values derived from the id so every answer can be computed here too.
void FillOrders(MemoryCatalog& catalog, int64_t rows) {
  SqlSession session(catalog);
  ASSERT_TRUE(session.Run("CREATE TABLE orders (id bigint, region varchar, amount decimal(10,2), ts timestamp(6) with time zone)").has_value());
  auto table = catalog.GetTable(QualifiedTableName{"floe", "default", "orders"}, TableVersion{});
  ASSERT_TRUE(table.has_value());
  static const char* kRegions[] = {"eu", "us", "ap", "sa"};
  std::vector<formats::ColumnBatch> batches;
  for (int64_t start = 0; start < rows; start += 10000) {
    formats::ColumnBatch batch;
    batch.fields = {formats::Field{"id", 1, true, formats::Primitive(formats::TypeId::kInt64)},
                    formats::Field{"region", 2, true, formats::Primitive(formats::TypeId::kString)},
                    formats::Field{"amount", 3, true, formats::DecimalType(10, 2)},
                    formats::Field{"ts", 4, true, formats::Primitive(formats::TypeId::kTimestampTz)}};
    for (const auto& f : batch.fields) batch.columns.emplace_back(f.type);
    int64_t end = std::min(rows, start + 10000);
    for (int64_t id = start; id < end; ++id) {
      batch.columns[0].Append<int64_t>(id);
      if (id % 97 == 0) {
        batch.columns[1].AppendNull();
      } else {
        batch.columns[1].AppendString(kRegions[id % 4]);
      }
      batch.columns[2].Append<__int128>(static_cast<__int128>(id % 1000) * 25);
      batch.columns[3].Append<int64_t>(int64_t{1704067200} * 1000000 + id * 1000000);  // One per second from 2024-01-01.
    }
    batch.num_rows = end - start;
    batches.push_back(std::move(batch));
  }
  ASSERT_TRUE(catalog.AppendRows(QualifiedTableName{"floe", "default", "orders"}, std::move(batches)).has_value());
}

std::vector<std::vector<std::string>> Texts(const StatementResult& result) {
  std::vector<std::vector<std::string>> out;
  for (const auto& row : result.rows) {
    std::vector<std::string> line;
    for (const auto& v : row) line.push_back(v.ToText());
    out.push_back(std::move(line));
  }
  return out;
}

class ExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog_.AddSchema("default");
    catalog_.set_split_rows(1000);
    FillOrders(catalog_, 50000);
  }

  Result<StatementResult> Query(const std::string& sql, int threads) {
    SqlSession session(catalog_);
    QueryOptions options;
    options.threads = threads;
    FLOE_ASSIGN_OR_RETURN(auto results, session.Run(sql, options));
    return std::move(results.back());
  }

  MemoryCatalog catalog_;
};

TEST_F(ExecutorTest, DashboardQueriesAgreeAcrossThreadCounts) {
  const char* queries[] = {
      "SELECT count(*), sum(amount), min(ts), max(id) FROM orders",
      "SELECT region, count(*), sum(amount) FROM orders GROUP BY region ORDER BY region",
      "SELECT date_trunc('minute', ts) AS m, count(*) FROM orders WHERE ts >= TIMESTAMP '2024-01-01 01:00:00 UTC' "
      "AND ts < TIMESTAMP '2024-01-01 02:00:00 UTC' GROUP BY 1 ORDER BY 1",
      "SELECT id % 100 AS customer, sum(amount) AS s FROM orders GROUP BY 1 ORDER BY s DESC, customer LIMIT 5",
      "SELECT count(DISTINCT id % 1000), approx_distinct(id % 1000) FROM orders",
      "SELECT a.region, count(*) FROM orders a JOIN (SELECT id FROM orders WHERE id % 10 = 0) b ON a.id = b.id GROUP BY 1 ORDER BY 1",
      "SELECT id FROM orders ORDER BY amount DESC, id LIMIT 3 OFFSET 2",
  };
  for (const char* sql : queries) {
    auto serial = Query(sql, 1);
    auto parallel = Query(sql, 4);
    ASSERT_TRUE(serial.has_value()) << sql << ": " << serial.error().ToString();
    ASSERT_TRUE(parallel.has_value()) << sql << ": " << parallel.error().ToString();
    EXPECT_EQ(Texts(*serial), Texts(*parallel)) << sql;
    EXPECT_FALSE(serial->rows.empty()) << sql;
  }
}

TEST_F(ExecutorTest, AnswersMatchValuesComputedHere) {
  auto count = Query("SELECT count(*), count(region), sum(id) FROM orders WHERE region = 'eu'", 4);
  ASSERT_TRUE(count.has_value()) << count.error().ToString();
  int64_t n = 0, sum = 0;
  for (int64_t id = 0; id < 50000; ++id) {
    if (id % 97 != 0 && id % 4 == 0) {
      ++n;
      sum += id;
    }
  }
  EXPECT_EQ(Texts(*count), (std::vector<std::vector<std::string>>{{std::to_string(n), std::to_string(n), std::to_string(sum)}}));
  auto minutes = Query("SELECT count(*) FROM (SELECT date_trunc('minute', ts) FROM orders GROUP BY 1) AS m", 4);
  ASSERT_TRUE(minutes.has_value());
  EXPECT_EQ(minutes->rows[0][0].as_int(), (50000 + 59) / 60);
}

// Integer IN lists take three paths by their values: a sorted search (a few values), a bitmap
// (values within a small range) and a hash set (values spread wide). Each answers as counted
// here, for IN and NOT IN, with NULL subjects (a NULL region's id made NULL by NULLIF) and with
// a NULL item (NOT IN then holds for no row).
TEST_F(ExecutorTest, IntegerInListsAnswerAlikeOnEveryPath) {
  std::vector<int64_t> few = {3, 97, 40000, int64_t{1} << 40}, near, wide;
  for (int64_t v = 100; v < 400; v += 7) near.push_back(v);
  for (int64_t v = 0; v < 40; ++v) wide.push_back(v * 1000003 % 49999 + (v % 3 == 0 ? int64_t{1} << 40 : 0));
  for (const auto* values : {&few, &near, &wide}) {
    std::string list;
    for (int64_t v : *values) list += (list.empty() ? "" : ", ") + std::to_string(v);
    int64_t in = 0, not_in = 0, null_subjects = 0;
    for (int64_t id = 0; id < 50000; ++id) {
      if (id % 97 == 0) {
        ++null_subjects;
        continue;
      }
      bool member = std::find(values->begin(), values->end(), id) != values->end();
      in += member;
      not_in += !member;
    }
    std::string subject = "CASE WHEN region IS NULL THEN NULL ELSE id END";
    auto result = Query(fmt::format("SELECT count(*) FILTER (WHERE {0} IN ({1})), count(*) FILTER (WHERE {0} NOT IN ({1})), "
                                    "count(*) FILTER (WHERE ({0} IN ({1})) IS NULL), count(*) FILTER (WHERE {0} NOT IN ({1}, NULL)), "
                                    "count(*) FILTER (WHERE {0} IN ({1}, NULL)) FROM orders",
                                    subject, list),
                        2);
    ASSERT_TRUE(result.has_value()) << result.error().ToString();
    EXPECT_EQ(Texts(*result), (std::vector<std::vector<std::string>>{{std::to_string(in), std::to_string(not_in),
                                                                     std::to_string(null_subjects), "0", std::to_string(in)}}))
        << list;
  }
}

// Joins whose build side has more than 2^16 keys (the hash join's Bloom filter is on), with
// repeated and NULL keys, on one integer key and on two keys (the encoded-key table), whichever
// side the planner builds: answers counted here.
TEST_F(ExecutorTest, LargeJoinsWithRepeatedAndNullKeys) {
  // a.x: id + 50000 k for k in {0, 1}, NULL where id % 1000 = 7; b.y: id + 50000 k + 30000 for
  // k in {0, 1, 1} (keys from 80000 appear twice).
  std::map<int64_t, int> b_count;
  for (int64_t id = 0; id < 50000; ++id) {
    for (int k : {0, 1, 1}) ++b_count[id + 50000 * k + 30000];
  }
  int64_t count = 0, sum = 0;
  for (int64_t id = 0; id < 50000; ++id) {
    if (id % 1000 == 7) continue;
    for (int k : {0, 1}) {
      int64_t x = id + 50000 * k;
      auto it = b_count.find(x);
      if (it == b_count.end()) continue;
      count += it->second;
      sum += x * it->second;
    }
  }
  const std::string a = "(SELECT CASE WHEN id % 1000 = 7 THEN NULL ELSE id + 50000 * k END AS x FROM orders CROSS JOIN (VALUES (0), (1)) t(k)) a";
  const std::string b = "(SELECT id + 50000 * k + 30000 AS y FROM orders CROSS JOIN (VALUES (0), (1), (1)) t(k)) b";
  for (const std::string& on : {std::string("a.x = b.y"), std::string("a.x = b.y AND a.x % 7 = b.y % 7")}) {
    SCOPED_TRACE(on);
    auto joined = Query("SELECT count(*), sum(x) FROM " + a + " JOIN " + b + " ON " + on, 2);
    ASSERT_TRUE(joined.has_value()) << joined.error().ToString();
    EXPECT_EQ(Texts(*joined), (std::vector<std::vector<std::string>>{{std::to_string(count), std::to_string(sum)}}));
  }
}

// A CTE referenced twice (TPC-H Q15's shape) is aggregated once; one with a volatile function
// is not (each reference evaluates it anew, as Trino inlines CTEs).
TEST_F(ExecutorTest, IdenticalAggregationsRunOnce) {
  const std::string cte = "WITH r AS (SELECT id % 10 AS k, sum(amount) AS s FROM orders GROUP BY 1) ";
  auto top = Query(cte + "SELECT k, s FROM r WHERE s = (SELECT max(s) FROM r)", 2);
  ASSERT_TRUE(top.has_value()) << top.error().ToString();
  // amount = (id % 1000) * 0.25: k = 9 has the largest sum.
  int64_t quarters = 0;
  for (int64_t id = 9; id < 50000; id += 10) quarters += id % 1000;
  EXPECT_EQ(Texts(*top), (std::vector<std::vector<std::string>>{{"9", fmt::format("{}.{:02d}", quarters * 25 / 100, quarters * 25 % 100)}}));
  auto explained = Query("EXPLAIN ANALYZE " + cte + "SELECT k, s FROM r WHERE s = (SELECT max(s) FROM r)", 2);
  ASSERT_TRUE(explained.has_value());
  std::string plan = explained->rows[0][0].as_string();
  EXPECT_NE(plan.find("computed once for an identical subplan"), std::string::npos) << plan;

  auto volatile_cte = Query("WITH t AS (SELECT id % 3 AS k, sum(random()) AS s FROM orders GROUP BY 1) "
                            "SELECT count(*) FROM t a JOIN t b ON a.k = b.k AND a.s = b.s", 2);
  ASSERT_TRUE(volatile_cte.has_value()) << volatile_cte.error().ToString();
  EXPECT_EQ(Texts(*volatile_cte), (std::vector<std::vector<std::string>>{{"0"}}));
}

TEST_F(ExecutorTest, StreamsBatchesToTheCallback) {
  SqlSession session(catalog_);
  QueryOptions options;
  options.threads = 2;
  int64_t rows = 0, batches = 0;
  std::vector<std::string> names;
  StreamCallbacks callbacks;
  callbacks.on_columns = [&](const std::vector<std::string>& n, const std::vector<SqlType>&) -> Status {
    names = n;
    return OkStatus();
  };
  callbacks.on_batch = [&](const ResultBatch& batch) -> Status {
    rows += batch.rows();
    ++batches;
    EXPECT_EQ(batch.column_count(), 2u);
    return OkStatus();
  };
  auto summaries = session.RunStreaming("SELECT id, region FROM orders WHERE id >= 1000", options, callbacks);
  ASSERT_TRUE(summaries.has_value()) << summaries.error().ToString();
  EXPECT_EQ(rows, 49000);
  EXPECT_GT(batches, 1);
  EXPECT_EQ(names, (std::vector<std::string>{"id", "region"}));
  EXPECT_EQ(summaries->back().rows, 49000);
  EXPECT_EQ(summaries->back().scan.rows_read, 50000);
}

TEST_F(ExecutorTest, CallbackErrorStopsTheQuery) {
  SqlSession session(catalog_);
  StreamCallbacks callbacks;
  callbacks.on_batch = [](const ResultBatch&) -> Status { return Unavailable("client went away"); };
  auto summaries = session.RunStreaming("SELECT id FROM orders", QueryOptions{}, callbacks);
  ASSERT_FALSE(summaries.has_value());
  EXPECT_EQ(summaries.error().message(), "client went away");
}

TEST_F(ExecutorTest, MemoryLimitNamesTheOperator) {
  SqlSession session(catalog_);
  QueryOptions options;
  options.memory_limit_bytes = 64 * 1024;
  options.spill = false;
  auto grouped = session.Run("SELECT id, count(*) FROM orders GROUP BY id", options);
  ASSERT_FALSE(grouped.has_value());
  EXPECT_EQ(grouped.error().kind(), ErrorKind::kResourceExhausted);
  EXPECT_EQ(grouped.error().message(), "Query exceeded memory limit of 64 KiB in HashAggregate");
  auto sorted = session.Run("SELECT id, region FROM orders ORDER BY region, id", options);
  ASSERT_FALSE(sorted.has_value());
  EXPECT_EQ(sorted.error().message(), "Query exceeded memory limit of 64 KiB in Sort");
  auto joined = session.Run("SELECT count(*) FROM orders a JOIN orders b ON a.id = b.id", options);
  ASSERT_FALSE(joined.has_value());
  EXPECT_NE(joined.error().message().find("Query exceeded memory limit of 64 KiB in"), std::string::npos) << joined.error().message();
}

// Joins and aggregations whose state is several times the memory limit spill to disk and give
// the answer they give in memory; without spilling the same queries fail at the limit; the
// spill folder is gone afterwards, also when even the partitions do not fit.
TEST_F(ExecutorTest, SpillingJoinsAndAggregationsAgreeWithInMemory) {
  std::string spill_dir = ::testing::TempDir() + "/executor_spill_" + std::to_string(::getpid());
  std::filesystem::remove_all(spill_dir);
  std::filesystem::create_directories(spill_dir);
  const char* queries[] = {
      "SELECT id % 20000 AS k, count(*), sum(amount), min(region) FROM orders GROUP BY 1",
      "SELECT count(*), sum(b.amount), count(b.region) FROM orders a JOIN orders b ON a.id = b.id + 1",
      "SELECT count(*), count(b.id), sum(a.amount) FROM orders a LEFT JOIN (SELECT * FROM orders WHERE id % 3 = 0) b ON a.id = b.id * 2",
      "SELECT count(*), count(a.id), count(b.id) FROM (SELECT * FROM orders WHERE id % 2 = 0) a FULL JOIN orders b ON a.id = b.id + 7",
      "SELECT count(*) FROM orders a WHERE NOT EXISTS (SELECT 1 FROM orders b WHERE b.id = a.id * 2)",
  };
  for (const char* sql : queries) {
    SCOPED_TRACE(sql);
    SqlSession session(catalog_);
    QueryOptions unlimited;
    unlimited.threads = 2;
    auto expected = session.Run(sql, unlimited);
    ASSERT_TRUE(expected.has_value()) << expected.error().ToString();

    QueryOptions limited = unlimited;
    limited.memory_limit_bytes = 512 * 1024;  // Peak memory without a limit: 2.6 to 9.4 times this.
    limited.spill_dir = spill_dir;
    limited.spill = false;
    auto refused = session.Run(sql, limited);
    ASSERT_FALSE(refused.has_value()) << "the state fits the limit: this query would not spill";
    EXPECT_EQ(refused.error().kind(), ErrorKind::kResourceExhausted);

    limited.spill = true;
    auto spilled = session.Run(sql, limited);
    ASSERT_TRUE(spilled.has_value()) << spilled.error().ToString();
    // Partitions come back in their own order: compare the rows as sets.
    auto rows = [](const StatementResult& r) {
      auto t = Texts(r);
      std::sort(t.begin(), t.end());
      return t;
    };
    EXPECT_EQ(rows(spilled->back()), rows(expected->back()));
    EXPECT_TRUE(std::filesystem::is_empty(spill_dir));
  }
  // Partitions that still do not fit: a clean error, and nothing left behind.
  SqlSession session(catalog_);
  QueryOptions tiny;
  tiny.memory_limit_bytes = 2 * 1024;
  tiny.spill_dir = spill_dir;
  auto failed = session.Run(queries[0], tiny);
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().kind(), ErrorKind::kResourceExhausted);
  EXPECT_TRUE(std::filesystem::is_empty(spill_dir));
  std::filesystem::remove_all(spill_dir);
}

// ORDER BY over several times the memory limit writes sorted runs and merges them: the same rows
// in the same order as in memory (keys unique, so the order is fully defined), NULLs where the
// query puts them, EXPLAIN ANALYZE saying it spilled, and no spill file left behind.
TEST_F(ExecutorTest, SpillingSortsAgreeWithInMemory) {
  std::string spill_dir = ::testing::TempDir() + "/executor_sort_spill_" + std::to_string(::getpid());
  std::filesystem::remove_all(spill_dir);
  std::filesystem::create_directories(spill_dir);
  const char* queries[] = {
      "SELECT id, region, amount, ts FROM orders ORDER BY region NULLS FIRST, amount DESC, id",
      "SELECT region, id FROM orders ORDER BY id DESC",
      "SELECT id % 7 AS k, region, id FROM orders ORDER BY region DESC NULLS LAST, k, id DESC",
  };
  for (const char* sql : queries) {
    SCOPED_TRACE(sql);
    SqlSession session(catalog_);
    QueryOptions unlimited;
    unlimited.threads = 2;
    auto expected = session.Run(sql, unlimited);
    ASSERT_TRUE(expected.has_value()) << expected.error().ToString();
    ASSERT_EQ(expected->back().rows.size(), 50000u);

    QueryOptions limited = unlimited;
    limited.memory_limit_bytes = 256 * 1024;  // The rows sorted are 4 to 9 times this.
    limited.spill_dir = spill_dir;
    limited.spill = false;
    auto refused = session.Run(sql, limited);
    ASSERT_FALSE(refused.has_value()) << "the rows fit the limit: this sort would not spill";
    EXPECT_EQ(refused.error().kind(), ErrorKind::kResourceExhausted);

    limited.spill = true;
    auto spilled = session.Run(sql, limited);
    ASSERT_TRUE(spilled.has_value()) << spilled.error().ToString();
    EXPECT_EQ(Texts(spilled->back()), Texts(expected->back()));
    EXPECT_TRUE(std::filesystem::is_empty(spill_dir));
  }
  SqlSession session(catalog_);
  QueryOptions limited;
  limited.memory_limit_bytes = 256 * 1024;
  limited.spill_dir = spill_dir;
  auto explained = session.Run(std::string("EXPLAIN ANALYZE ") + queries[0], limited);
  ASSERT_TRUE(explained.has_value()) << explained.error().ToString();
  std::string text;
  for (const auto& row : explained->back().rows) text += row[0].ToText() + "\n";
  EXPECT_NE(text.find("Sort"), std::string::npos) << text;
  EXPECT_NE(text.find("spilled to disk"), std::string::npos) << text;
  EXPECT_TRUE(std::filesystem::is_empty(spill_dir));
  std::filesystem::remove_all(spill_dir);
}

// Joins on two integer keys pack them into one integer when the build side's values allow
// (each spans under 2^32) and fall back to encoded keys when not; both must agree with the same
// join on text keys, which always takes the encoded path: NULL keys, negative values, probe
// values outside the build side's range, duplicate build keys.
TEST_F(ExecutorTest, TwoIntegerKeyJoinsAgreeWithEncodedKeys) {
  const char* sides[] = {
      // Small ranges: packed.
      "(SELECT CASE WHEN region IS NULL THEN NULL ELSE id % 100 END AS x, id % 7 - 3 AS y, id AS v FROM orders WHERE id % 3 = 0)",
      // One key spans 2^40: encoded.
      "(SELECT (id % 100) * 1099511627776 AS x, id % 7 - 3 AS y, id AS v FROM orders WHERE id % 3 = 0)",
  };
  for (const char* build : sides) {
    std::string probe = "(SELECT id % 150 - 20 AS x, id % 9 - 4 AS y, id AS w FROM orders)";
    std::string as_ints = fmt::format("SELECT count(*), sum(b.v), sum(a.w) FROM {} a JOIN {} b ON a.x = b.x AND a.y = b.y", probe, build);
    std::string as_text = fmt::format(
        "SELECT count(*), sum(b.v), sum(a.w) FROM {} a JOIN {} b ON CAST(a.x AS varchar) = CAST(b.x AS varchar) "
        "AND CAST(a.y AS varchar) = CAST(b.y AS varchar)",
        probe, build);
    SCOPED_TRACE(as_ints);
    auto ints = Query(as_ints, 2);
    auto text = Query(as_text, 2);
    ASSERT_TRUE(ints.has_value()) << ints.error().ToString();
    ASSERT_TRUE(text.has_value()) << text.error().ToString();
    EXPECT_EQ(Texts(*ints), Texts(*text));
    EXPECT_NE(Texts(*ints)[0][0], "0");
  }
}

TEST_F(ExecutorTest, CancelledQueryStops) {
  SqlSession session(catalog_);
  std::atomic<bool> cancel{true};
  QueryOptions options;
  options.cancel = &cancel;
  auto result = session.Run("SELECT count(*) FROM orders", options);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message(), "Query was cancelled");
}

TEST_F(ExecutorTest, CancelFromAnotherThreadWhileStreaming) {
  SqlSession session(catalog_);
  std::atomic<bool> cancel{false};
  QueryOptions options;
  options.cancel = &cancel;
  options.threads = 2;
  StreamCallbacks callbacks;
  int batches = 0;
  callbacks.on_batch = [&](const ResultBatch&) -> Status {
    if (++batches == 2) {
      std::thread([&] { cancel = true; }).join();
    }
    return OkStatus();
  };
  auto result = session.RunStreaming("SELECT id FROM orders", options, callbacks);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message(), "Query was cancelled");
  EXPECT_LT(batches, 50);
}

TEST_F(ExecutorTest, TimeLimitStopsAQueryThatRunsTooLong) {
  SqlSession session(catalog_);
  QueryOptions options;
  options.time_limit = std::chrono::milliseconds(1);
  // A join without an equality over 50000 x 50000 rows: far longer than a millisecond (a
  // correlated subquery is decorrelated into a join that may finish within one).
  auto result = session.Run("SELECT count(*) FROM orders a JOIN orders b ON a.amount + b.amount < a.id", options);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message(), "Query exceeded the time limit of 1 ms");
}

TEST_F(ExecutorTest, ExplainAnalyzeShowsActualRowsAndScanStatistics) {
  auto result = Query("EXPLAIN ANALYZE SELECT region, count(*) FROM orders WHERE id < 5000 GROUP BY region", 2);
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  std::string text = result->rows[0][0].ToText();
  EXPECT_NE(text.find("Aggregate"), std::string::npos) << text;
  EXPECT_NE(text.find("(actual rows 5)"), std::string::npos) << text;
  EXPECT_NE(text.find("(actual rows 5000) [files 5/5, row groups 50/50"), std::string::npos) << text;
  EXPECT_NE(text.find("50000 rows"), std::string::npos) << text;
}

// Parquet hands low-cardinality strings over with their dictionary codes and the hash
// aggregate groups by code combination. Each batch here gets its own dictionary (in a
// different order, with entries no row uses) so the same string has different codes across
// batches; the answers must equal those over the same rows without codes.
TEST(ExecutorDictionaries, GroupingByCodesEqualsGroupingByValues) {
  static const char* kRegions[] = {"eu", "us", "ap", "sa", ""};
  static const char* kKinds[] = {"buy", "sell", "refund"};
  auto fill = [](MemoryCatalog& catalog, bool codes) {
    catalog.AddSchema("default");
    catalog.set_split_rows(700);
    SqlSession session(catalog);
    ASSERT_TRUE(session.Run("CREATE TABLE t (id bigint, region varchar, kind varchar)").has_value());
    std::vector<formats::ColumnBatch> batches;
    for (int b = 0; b < 6; ++b) {
      formats::ColumnBatch batch;
      batch.fields = {formats::Field{"id", 1, true, formats::Primitive(formats::TypeId::kInt64)},
                      formats::Field{"region", 2, true, formats::Primitive(formats::TypeId::kString)},
                      formats::Field{"kind", 3, true, formats::Primitive(formats::TypeId::kString)}};
      for (const auto& f : batch.fields) batch.columns.emplace_back(f.type);
      // This batch's dictionaries: rotated by b, plus an unused entry.
      auto region_dict = std::make_shared<formats::ColumnVector>(batch.fields[1].type);
      for (int k = 0; k < 5; ++k) region_dict->AppendString(kRegions[(k + b) % 5]);
      region_dict->AppendString("unused");
      auto kind_dict = std::make_shared<formats::ColumnVector>(batch.fields[2].type);
      for (int k = 0; k < 3; ++k) kind_dict->AppendString(kKinds[(k + b) % 3]);
      std::vector<uint32_t> region_codes, kind_codes;
      for (int64_t i = 0; i < 3000; ++i) {
        int64_t id = b * 3000 + i;
        batch.columns[0].Append<int64_t>(id);
        int r = static_cast<int>(id * 7 % 5), k = static_cast<int>(id % 3);
        if (id % 11 == 0) {
          batch.columns[1].AppendNull();
          region_codes.push_back(0);
        } else {
          batch.columns[1].AppendString(kRegions[r]);
          region_codes.push_back(static_cast<uint32_t>((r - b % 5 + 5) % 5));
        }
        batch.columns[2].AppendString(kKinds[k]);
        kind_codes.push_back(static_cast<uint32_t>((k - b % 3 + 3) % 3));
      }
      if (codes) {
        batch.columns[1].dictionary = region_dict;
        batch.columns[1].dictionary_codes = std::move(region_codes);
        batch.columns[2].dictionary = kind_dict;
        batch.columns[2].dictionary_codes = std::move(kind_codes);
        ASSERT_TRUE(batch.columns[1].HasDictionary());
        for (int64_t i = 0; i < 3000; ++i) {
          if (!batch.columns[1].IsValid(i)) continue;
          ASSERT_EQ(region_dict->StringAt(batch.columns[1].dictionary_codes[static_cast<size_t>(i)]), batch.columns[1].StringAt(i));
        }
      }
      batch.num_rows = 3000;
      batches.push_back(std::move(batch));
    }
    ASSERT_TRUE(catalog.AppendRows(QualifiedTableName{"floe", "default", "t"}, std::move(batches)).has_value());
  };
  MemoryCatalog plain, coded;
  fill(plain, false);
  fill(coded, true);
  const char* queries[] = {
      "SELECT region, count(*), sum(id) FROM t GROUP BY region ORDER BY region",
      "SELECT region, kind, count(*), max(id) FROM t GROUP BY region, kind ORDER BY region, kind",
      "SELECT kind, count(*) FROM t WHERE id % 5 <> 2 GROUP BY kind ORDER BY kind",
      "SELECT DISTINCT kind, region FROM t ORDER BY kind, region",
      "SELECT region, count(DISTINCT kind) FROM t GROUP BY region ORDER BY region",
      // Comparisons with a constant are answered per dictionary entry.
      "SELECT region, count(*) FROM t WHERE kind = 'sell' GROUP BY region ORDER BY region",
      "SELECT count(*) FROM t WHERE 'eu' < region AND region <> '' AND kind >= 'refund'",
      "SELECT count(*) FROM t WHERE region = 'unused' OR region = NULL OR kind = 'nothing'",
  };
  for (const char* sql : queries) {
    for (int threads : {1, 3}) {
      QueryOptions options;
      options.threads = threads;
      SqlSession a(plain), b(coded);
      auto expected = a.Run(sql, options);
      auto actual = b.Run(sql, options);
      ASSERT_TRUE(expected.has_value()) << sql << ": " << expected.error().ToString();
      ASSERT_TRUE(actual.has_value()) << sql << ": " << actual.error().ToString();
      EXPECT_EQ(Texts(actual->back()), Texts(expected->back())) << sql << " with " << threads << " threads";
      EXPECT_FALSE(expected->back().rows.empty()) << sql;
    }
  }
}

TEST(ExecutorErrors, ReadOnlySessionRefusesWrites) {
  MemoryCatalog catalog;
  catalog.AddSchema("default");
  const SqlCatalog& read_only = catalog;
  SqlSession session(read_only);
  auto result = session.Run("CREATE TABLE t (x integer)");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind(), ErrorKind::kNotImplemented);
}

}  // namespace
}  // namespace floe::sql
