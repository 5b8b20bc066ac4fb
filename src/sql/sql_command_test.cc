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

TEST(SqlCommandTest, StorageQueriesSayNotBuiltWithExitThree) {
  auto out = RunProcess({FloeBinary(), "sql", "--warehouse", ::testing::TempDir() + "/sql_command_wh", "-e", "SHOW SCHEMAS"});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  auto bad = RunProcess({FloeBinary(), "sql", "--catalog", "nosuch://x", "-e", "SELECT 1"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  auto write = RunProcess({FloeBinary(), "sql", "-e", "CREATE SCHEMA s"});
  EXPECT_EQ(write.exit_code, 3);
  EXPECT_NE(write.err.find("not built yet"), std::string::npos) << write.err;
}

}  // namespace
}  // namespace floe::sql
