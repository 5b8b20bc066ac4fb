// Drives `floe sql` as a user would: exit codes and one-line messages.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "support/run_process.h"

namespace floe::sql {
namespace {

using floe::testing::FloeBinary;
using floe::testing::RunProcess;

TEST(SqlCommandTest, ConstantQueryPrintsCsv) {
  auto out = RunProcess({FloeBinary(), "sql", "--format", "csv", "-e", "SELECT 1 + 1 AS two, 'a,b' AS s"});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out, "two,s\n2,\"a,b\"\n");
}

TEST(SqlCommandTest, ExplainPrintsThePlan) {
  auto out = RunProcess({FloeBinary(), "sql", "-e", "EXPLAIN SELECT x FROM (VALUES (1), (2)) AS t(x) WHERE x > 1 + 0"});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(out.out.find("Filter (x#1 > 1)"), std::string::npos) << out.out;
}

TEST(SqlCommandTest, SyntaxErrorExitsOneWithPosition) {
  auto out = RunProcess({FloeBinary(), "sql", "-e", "SELECT * FORM t"});
  EXPECT_EQ(out.exit_code, 1);
  EXPECT_EQ(out.err, "floe sql: line 1:10: syntax error at or near \"FORM\"\n");
}

TEST(SqlCommandTest, CatalogAndWarehouseOptions) {
  auto out = RunProcess({FloeBinary(), "sql", "--warehouse", ::testing::TempDir() + "/sql_command_wh", "-e", "SHOW SCHEMAS"});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  auto bad = RunProcess({FloeBinary(), "sql", "--catalog", "nosuch://x", "-e", "SELECT 1"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
}

// Dynamic filtering: the join's build side (one customer) holds keys 2001..2002 only, so the
// probe scan of `sales` reads the one file of four whose bounds overlap them; the answer is
// the one the join gives without the filter.
TEST(SqlCommandTest, JoinKeyRangeSkipsProbeFiles) {
  std::string warehouse = ::testing::TempDir() + "/sql_dynamic_filter_wh";
  std::filesystem::remove_all(warehouse);
  std::string setup = "CREATE SCHEMA s; CREATE TABLE s.sales (customer bigint, amount bigint); "
                      "CREATE TABLE s.customers (id bigint, name varchar);";
  for (int file = 0; file < 4; ++file) {
    setup += " INSERT INTO s.sales VALUES";
    for (int i = 0; i < 10; ++i) setup += fmt::format("{}({}, {})", i ? ", " : " ", file * 1000 + i + 1, i);
    setup += ";";
  }
  setup += " INSERT INTO s.customers VALUES (2001, 'kept'), (2002, 'kept'), (3005, 'other');";
  auto created = RunProcess({FloeBinary(), "sql", "--warehouse", warehouse, "-e", setup});
  ASSERT_EQ(created.exit_code, 0) << created.err;
  std::string query = "SELECT count(*), sum(amount) FROM s.sales JOIN s.customers ON customer = id WHERE name = 'kept'";
  auto answer = RunProcess({FloeBinary(), "sql", "--warehouse", warehouse, "--format", "csv", "-e", query});
  ASSERT_EQ(answer.exit_code, 0) << answer.err;
  EXPECT_EQ(answer.out, "_col0,_col1\n2,1\n");
  auto explained = RunProcess({FloeBinary(), "sql", "--warehouse", warehouse, "-e", "EXPLAIN ANALYZE " + query});
  ASSERT_EQ(explained.exit_code, 0) << explained.err;
  EXPECT_NE(explained.out.find("dynamic filter: customer >= 2001 AND customer <= 2002"), std::string::npos) << explained.out;
  EXPECT_NE(explained.out.find("files 1 of 4 after pruning"), std::string::npos) << explained.out;
}

TEST(SqlCommandTest, WritesAndReadsAnInMemoryTable) {
  auto out = RunProcess({FloeBinary(), "sql", "--threads", "2", "--format", "csv", "-e",
                         "CREATE SCHEMA s; CREATE TABLE s.t (k varchar, v bigint); "
                         "INSERT INTO s.t VALUES ('a', 1), ('b', 2), ('a', 3); "
                         "SELECT k, sum(v) AS total FROM s.t GROUP BY k ORDER BY k"});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out, "CREATE SCHEMA\nCREATE TABLE\nINSERT: 3 rows\nk,total\na,4\nb,2\n");
}

TEST(SqlCommandTest, RuntimeErrorExitsOneWithPosition) {
  auto out = RunProcess({FloeBinary(), "sql", "-e", "SELECT x / (x - 1) FROM (VALUES (1)) AS t(x)"});
  EXPECT_EQ(out.exit_code, 1);
  EXPECT_EQ(out.err, "floe sql: line 1:10: Division by zero\n");
}

}  // namespace
}  // namespace floe::sql
