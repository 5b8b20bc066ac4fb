// Drives `floe sql` as a user would: exit codes and one-line messages.
#include <algorithm>

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
