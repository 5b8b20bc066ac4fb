#include "serve/statement_access.h"

#include <gtest/gtest.h>

namespace floe::serve {
namespace {

auth::Access Of(std::string_view sql) {
  auto tokens = sql::Tokenize(sql);
  EXPECT_TRUE(tokens.has_value()) << sql;
  return StatementAccess(*tokens);
}

TEST(StatementAccess, ReadsWritesAndStructureChanges) {
  EXPECT_EQ(Of("SELECT * FROM orders WHERE status = 'delete'"), auth::Access::kRead);
  EXPECT_EQ(Of("SELECT \"drop\" FROM t"), auth::Access::kRead);  // A quoted name is not a keyword.
  EXPECT_EQ(Of("SHOW TABLES"), auth::Access::kRead);
  EXPECT_EQ(Of("EXPLAIN SELECT 1"), auth::Access::kRead);
  EXPECT_EQ(Of("SET TIME ZONE 'UTC'"), auth::Access::kRead);
  EXPECT_EQ(Of("INSERT INTO t VALUES (1)"), auth::Access::kWrite);
  EXPECT_EQ(Of("delete from t"), auth::Access::kWrite);
  EXPECT_EQ(Of("UPDATE t SET a = 1"), auth::Access::kWrite);
  EXPECT_EQ(Of("MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE"), auth::Access::kWrite);
  EXPECT_EQ(Of("DROP TABLE t"), auth::Access::kAlter);
  EXPECT_EQ(Of("CREATE TABLE t (a int)"), auth::Access::kAlter);
  EXPECT_EQ(Of("ALTER TABLE t ADD COLUMN b int"), auth::Access::kAlter);
  EXPECT_EQ(Of("CALL system.expire_snapshots('default', 't')"), auth::Access::kAlter);
  EXPECT_EQ(Of("GRANT SELECT ON t TO bob"), auth::Access::kAlter);  // Unknown: the strongest.
}

TEST(StatementAccess, ReadingFormsWrappingWritesNeedTheWrite) {
  EXPECT_EQ(Of("WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x"), auth::Access::kWrite);
  EXPECT_EQ(Of("EXPLAIN ANALYZE DELETE FROM t"), auth::Access::kWrite);
  EXPECT_EQ(Of("SELECT * INTO copy FROM t"), auth::Access::kAlter);
  EXPECT_EQ(Of("PREPARE p AS DROP TABLE t"), auth::Access::kAlter);
}

}  // namespace
}  // namespace floe::serve
