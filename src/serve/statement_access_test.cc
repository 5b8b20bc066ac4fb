#include "serve/statement_access.h"

#include <gtest/gtest.h>

namespace floe::serve {
namespace {

using auth::Operation;

Operation Of(std::string_view sql) {
  auto tokens = sql::Tokenize(sql);
  EXPECT_TRUE(tokens.has_value()) << sql;
  return StatementOperation(*tokens);
}

TEST(StatementAccess, ReadsWritesAndStructureChanges) {
  EXPECT_EQ(Of("SELECT * FROM orders WHERE status = 'delete'"), Operation::kRead);
  EXPECT_EQ(Of("SELECT \"drop\" FROM t"), Operation::kRead);  // A quoted name is not a keyword.
  EXPECT_EQ(Of("SHOW TABLES"), Operation::kRead);
  EXPECT_EQ(Of("EXPLAIN SELECT 1"), Operation::kRead);
  EXPECT_EQ(Of("SET TIME ZONE 'UTC'"), Operation::kRead);
  EXPECT_EQ(Of("INSERT INTO t VALUES (1)"), Operation::kWrite);
  EXPECT_EQ(Of("delete from t"), Operation::kWrite);
  EXPECT_EQ(Of("UPDATE t SET a = 1"), Operation::kWrite);
  EXPECT_EQ(Of("MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE"), Operation::kWrite);
  EXPECT_EQ(Of("TRUNCATE t"), Operation::kWrite);
  EXPECT_EQ(Of("CREATE TABLE t (a int)"), Operation::kCreate);
  EXPECT_EQ(Of("CREATE SCHEMA s"), Operation::kCreate);
  EXPECT_EQ(Of("CREATE TABLE t AS SELECT * FROM u"), Operation::kCreate);
  EXPECT_EQ(Of("DROP TABLE t"), Operation::kDelete);
  EXPECT_EQ(Of("CREATE OR REPLACE VIEW v AS SELECT * FROM t"), Operation::kCreate);
  EXPECT_EQ(Of("DROP VIEW v"), Operation::kDelete);
  EXPECT_EQ(Of("SHOW CREATE VIEW v"), Operation::kRead);
  EXPECT_EQ(Of("drop schema s"), Operation::kDelete);
  EXPECT_EQ(Of("ALTER TABLE t ADD COLUMN b int"), Operation::kAlter);
  EXPECT_EQ(Of("ALTER TABLE t EXECUTE optimize"), Operation::kAlter);
  EXPECT_EQ(Of("CALL system.expire_snapshots('default', 't')"), Operation::kAlter);
  EXPECT_EQ(Of("GRANT SELECT ON t TO bob"), Operation::kAlter);  // Unknown: the strongest.
  EXPECT_EQ(Of(""), Operation::kRead);
}

TEST(StatementAccess, ReadingFormsWrappingWritesNeedTheWrite) {
  EXPECT_EQ(Of("WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x"), Operation::kWrite);
  EXPECT_EQ(Of("EXPLAIN ANALYZE DELETE FROM t"), Operation::kWrite);
  EXPECT_EQ(Of("EXPLAIN ANALYZE SELECT * FROM t"), Operation::kRead);
  EXPECT_EQ(Of("ANALYZE t"), Operation::kWrite);
  EXPECT_EQ(Of("SELECT * INTO copy FROM t"), Operation::kCreate);
  EXPECT_EQ(Of("PREPARE p AS DROP TABLE t"), Operation::kDelete);
  EXPECT_EQ(Of("PREPARE p AS ALTER TABLE t DROP COLUMN a"), Operation::kAlter);  // The strongest of the two.
  EXPECT_EQ(Of("EXPLAIN CREATE TABLE t (a int)"), Operation::kCreate);
}

}  // namespace
}  // namespace floe::serve
