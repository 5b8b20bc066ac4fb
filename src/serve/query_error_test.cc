// QueryError classifies the engine's errors by their codes: real failing SQL through a session
// gets Trino's names and PostgreSQL's SQLSTATEs, and a message that merely mentions a failure
// does not stand for it.
#include "serve/query_error.h"

#include <gtest/gtest.h>

#include "sql/catalog/memory_catalog.h"
#include "sql/sql_session.h"

namespace floe::serve {
namespace {

class QueryErrorTest : public ::testing::Test {
 protected:
  void SetUp() override { catalog_.AddSchema("default"); }

  // The error `sql` fails with, as the protocols report it.
  QueryError Fail(std::string_view sql) {
    sql::SqlSession session(static_cast<const sql::SqlCatalog&>(catalog_));
    auto result = session.Run(sql);
    EXPECT_FALSE(result.has_value()) << sql;
    if (result.has_value()) return {};
    return QueryError::From(result.error(), sql);
  }

  sql::MemoryCatalog catalog_;
};

TEST_F(QueryErrorTest, EngineErrorsMapByCode) {
  struct Case {
    const char* sql;
    const char* name;
    const char* sqlstate;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"SELEC 1", "SYNTAX_ERROR", "42601"},
           {"SELECT 'unterminated", "SYNTAX_ERROR", "42601"},
           {"SELECT nope FROM (VALUES (1)) t(x)", "COLUMN_NOT_FOUND", "42703"},
           {"SELECT * FROM missing", "TABLE_NOT_FOUND", "42P01"},
           {"SELECT * FROM nowhere.t", "SCHEMA_NOT_FOUND", "3F000"},
           {"SELECT no_such_function(1)", "FUNCTION_NOT_FOUND", "42883"},
           {"SELECT x / 0 FROM (VALUES (1)) t(x)", "DIVISION_BY_ZERO", "22012"},
           {"SELECT true + 1", "TYPE_MISMATCH", "42804"},
       }) {
    QueryError e = Fail(c.sql);
    EXPECT_EQ(e.name, c.name) << c.sql << ": " << e.message;
    EXPECT_EQ(e.sqlstate, c.sqlstate) << c.sql << ": " << e.message;
  }
}

TEST_F(QueryErrorTest, PositionsComeFromTheErrorNotItsText) {
  QueryError e = Fail("SELECT 1,\n  nope");
  ASSERT_TRUE(e.line.has_value()) << e.message;
  EXPECT_EQ(*e.line, 2);
  EXPECT_EQ(*e.column, 3);
  EXPECT_EQ(*e.position, 13);  // 1-based characters: "SELECT 1,\n" is 10, then two spaces.

  // Text that looks like a position, or like a known failure, stands for neither.
  QueryError plain = QueryError::From(Error(ErrorKind::kInvalidArgument, "see line 4:2: Division by zero"), "");
  EXPECT_FALSE(plain.line.has_value());
  EXPECT_EQ(plain.name, "GENERIC_USER_ERROR");
}

}  // namespace
}  // namespace floe::serve
