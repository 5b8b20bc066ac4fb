#include "serve/parameter_substitution.h"

#include <gtest/gtest.h>

#include "serve/session_functions.h"

namespace floe::serve {
namespace {

TEST(ParameterSubstitutionTest, ReplacesPlaceholdersOutsideLiterals) {
  auto sql = SubstituteParameters("SELECT $2, '$1', \"$1\", $1 -- $1\n", {"'a'", "2"});
  ASSERT_TRUE(sql.has_value()) << sql.error().ToString();
  EXPECT_EQ(*sql, "SELECT 2, '$1', \"$1\", 'a' -- $1\n");
  EXPECT_EQ(*SubstituteParameters("SELECT ?, ?", {"1", "2"}), "SELECT 1, 2");
  EXPECT_FALSE(SubstituteParameters("SELECT $3", {"1"}).has_value());
  EXPECT_FALSE(SubstituteParameters("SELECT ?, ?", {"1"}).has_value());
  EXPECT_EQ(*CountParameters("SELECT $1, $3, '$9'"), 3);
  EXPECT_EQ(*CountParameters("SELECT ?, ?"), 2);
  EXPECT_EQ(*CountParameters("SELECT 1"), 0);
  EXPECT_FALSE(CountParameters("SELECT 'unterminated").has_value());
}

TEST(ParameterSubstitutionTest, UntypedLiterals) {
  EXPECT_EQ(UntypedLiteral(std::string("12")), "12");
  EXPECT_EQ(UntypedLiteral(std::string("-1.5e3")), "-1.5e3");
  EXPECT_EQ(UntypedLiteral(std::string("0.5")), "0.5");
  EXPECT_EQ(UntypedLiteral(std::string("0012")), "'0012'");
  EXPECT_EQ(UntypedLiteral(std::string("1 OR 1=1")), "'1 OR 1=1'");
  EXPECT_EQ(UntypedLiteral(std::string("")), "''");
  EXPECT_EQ(UntypedLiteral(std::nullopt), "NULL");
}

TEST(SessionFunctionsTest, ReplacesSessionFunctionsKeepingColumnNames) {
  SessionState session;
  session.schema = "shop";
  session.user = "ann";
  SessionFunctionValues values{.version = "PostgreSQL 15.0",
                               .setting = [](std::string_view name) -> std::optional<std::string> {
                                 if (name == "server_version_num") return "150000";
                                 return std::nullopt;
                               }};
  auto rewrite = [&](std::string_view sql) {
    auto tokens = sql::Tokenize(sql);
    return RewriteSessionFunctions(sql, *tokens, session, values);
  };
  EXPECT_EQ(rewrite("SELECT version()"), "SELECT 'PostgreSQL 15.0' AS \"version\"");
  EXPECT_EQ(rewrite("select pg_catalog.version(), current_schema()"),
            "select 'PostgreSQL 15.0' AS \"version\", 'shop' AS \"current_schema\"");
  EXPECT_EQ(rewrite("SELECT current_setting('server_version_num')::int / 100"), "SELECT '150000'::int / 100");
  EXPECT_EQ(rewrite("SELECT current_user"), "SELECT 'ann' AS \"current_user\"");
  EXPECT_EQ(rewrite("SELECT t.version FROM t"), std::nullopt);
  EXPECT_EQ(rewrite("SELECT current_setting('unknown')"), std::nullopt);
  EXPECT_EQ(rewrite("SELECT 1"), std::nullopt);
}

}  // namespace
}  // namespace floe::serve
