#include "sql/parser/parser.h"

#include <gtest/gtest.h>

#include "sql/types/sql_error.h"

namespace floe::sql {
namespace {

using namespace ast;

StatementPtr MustParse(std::string_view sql) {
  auto statement = ParseStatement(sql);
  EXPECT_TRUE(statement.has_value()) << sql << ": " << statement.error().ToString();
  return statement.has_value() ? std::move(*statement) : nullptr;
}

// The "line:column" an error for `sql` points at.
std::string ErrorAt(std::string_view sql) {
  auto statement = Parse(sql);
  if (statement.has_value()) return "parsed";
  auto position = statement.error().position();
  if (!position) return "no position: " + statement.error().message();
  return fmt::format("{}:{}", position->line, position->column);
}

TEST(ParserTest, SelectShape) {
  auto s = MustParse("SELECT a, count(*) AS n FROM sales.orders o WHERE o.x > 1 GROUP BY a HAVING count(*) > 2 "
                     "ORDER BY n DESC NULLS LAST LIMIT 10 OFFSET 5");
  ASSERT_EQ(s->kind, StatementKind::kQuery);
  const Query& q = *s->query;
  ASSERT_EQ(q.kind, Query::Kind::kSelect);
  ASSERT_EQ(q.select.size(), 2u);
  EXPECT_EQ(q.select[1].alias, "n");
  EXPECT_TRUE(q.select[1].expr->As<FunctionCall>().star_arg);
  ASSERT_EQ(q.from.size(), 1u);
  EXPECT_EQ(q.from[0]->name, (std::vector<std::string>{"sales", "orders"}));
  EXPECT_EQ(q.from[0]->alias, "o");
  ASSERT_TRUE(q.where);
  EXPECT_EQ(q.where->kind, ExprKind::kBinary);
  EXPECT_EQ(q.where->As<Binary>().op, ">");
  EXPECT_EQ(q.group_by.expressions.size(), 1u);
  ASSERT_TRUE(q.having);
  ASSERT_EQ(q.order_by.size(), 1u);
  EXPECT_TRUE(q.order_by[0].descending);
  EXPECT_EQ(q.order_by[0].nulls_first, false);
  EXPECT_EQ(q.limit->As<Literal>().text, "10");
  EXPECT_EQ(q.offset->As<Literal>().text, "5");
}

TEST(ParserTest, LiteralsKeepTheirValuesIncludingZeroAndNegatives) {
  auto s = MustParse("SELECT 0, -3, - 7, 1.50, 1e3, 'it''s', TRUE, NULL, 9999999999, X'ff'");
  const auto& items = s->query->select;
  ASSERT_EQ(items.size(), 10u);
  EXPECT_EQ(items[0].expr->As<Literal>().text, "0");
  EXPECT_EQ(items[1].expr->As<Literal>().text, "-3");
  EXPECT_EQ(items[2].expr->As<Literal>().text, "-7");
  EXPECT_EQ(items[3].expr->As<Literal>().literal_kind, LiteralKind::kDecimal);
  EXPECT_EQ(items[3].expr->As<Literal>().text, "1.50");
  EXPECT_EQ(items[4].expr->As<Literal>().literal_kind, LiteralKind::kDouble);
  EXPECT_EQ(items[5].expr->As<Literal>().text, "it's");
  EXPECT_TRUE(items[6].expr->As<Literal>().bool_value);
  EXPECT_EQ(items[7].expr->As<Literal>().literal_kind, LiteralKind::kNull);
  EXPECT_EQ(items[8].expr->As<Literal>().literal_kind, LiteralKind::kInteger);
  EXPECT_EQ(items[8].expr->As<Literal>().text, "9999999999");
  EXPECT_EQ(items[9].expr->As<Literal>().literal_kind, LiteralKind::kBinary);
  EXPECT_EQ(items[9].expr->As<Literal>().text, "ff");
}

TEST(ParserTest, LocationsAreByteOffsetsIntoTheOriginalText) {
  std::string sql = "SELECT\n  x,\n  ? + y FROM t";
  auto s = MustParse(sql);
  const auto& items = s->query->select;
  EXPECT_EQ(items[0].expr->location, static_cast<int>(sql.find('x')));
  const Expr& plus = *items[1].expr;
  ASSERT_EQ(plus.kind, ExprKind::kBinary);
  EXPECT_EQ(plus.args[0]->kind, ExprKind::kParameter);
  EXPECT_EQ(plus.args[0]->As<Parameter>().parameter_index, 1);
  EXPECT_EQ(plus.args[0]->location, static_cast<int>(sql.find('?')));
  EXPECT_EQ(plus.args[1]->location, static_cast<int>(sql.find('y')));
}

TEST(ParserTest, QuestionPlaceholdersAreNumberedInOrder) {
  auto s = MustParse("SELECT * FROM t WHERE a = ? AND b IN (?, ?)");
  const Expr& where = *s->query->where;
  ASSERT_EQ(where.kind, ExprKind::kAnd);
  EXPECT_EQ(where.args[0]->args[1]->As<Parameter>().parameter_index, 1);
  EXPECT_EQ(where.args[1]->args[1]->As<Parameter>().parameter_index, 2);
  EXPECT_EQ(where.args[1]->args[2]->As<Parameter>().parameter_index, 3);
}

TEST(ParserTest, QuestionMarkInsideAStringIsText) {
  auto s = MustParse("SELECT 'what?' FROM t");
  EXPECT_EQ(s->query->select[0].expr->As<Literal>().text, "what?");
}

TEST(ParserTest, TimeTravelByVersionAndTimestamp) {
  std::string sql = "SELECT * FROM db.orders FOR VERSION AS OF 8744736658442914487 AS o "
                    "JOIN t2 FOR TIMESTAMP AS OF TIMESTAMP '2024-01-01 00:00:00 UTC' ON true";
  auto s = MustParse(sql);
  const TableRef& join = *s->query->from[0];
  ASSERT_EQ(join.kind, TableRef::Kind::kJoin);
  const TableRef& left = *join.left;
  ASSERT_TRUE(left.time_travel.has_value());
  EXPECT_EQ(left.time_travel->kind, TimeTravel::Kind::kVersion);
  EXPECT_EQ(left.time_travel->value->As<Literal>().text, "8744736658442914487");
  EXPECT_EQ(left.alias, "o");
  EXPECT_EQ(left.time_travel->location, static_cast<int>(sql.find("FOR VERSION")));
  const TableRef& right = *join.right;
  ASSERT_TRUE(right.time_travel.has_value());
  EXPECT_EQ(right.time_travel->kind, TimeTravel::Kind::kTimestamp);
  EXPECT_EQ(right.time_travel->value->kind, ExprKind::kCast);
  EXPECT_EQ(right.time_travel->value->As<Cast>().type.name, "timestamp");
  EXPECT_EQ(right.time_travel->value->args[0]->location, static_cast<int>(sql.find("'2024")));
}

TEST(ParserTest, TimeTravelByBranchName) {
  auto s = MustParse("SELECT * FROM orders FOR VERSION AS OF 'audit-branch'");
  ASSERT_TRUE(s->query->from[0]->time_travel.has_value());
  EXPECT_EQ(s->query->from[0]->time_travel->value->As<Literal>().literal_kind, LiteralKind::kString);
}

TEST(ParserTest, MetadataTablesKeepTheDollarName) {
  auto s = MustParse(R"(SELECT * FROM "orders$snapshots")");
  EXPECT_EQ(s->query->from[0]->name, (std::vector<std::string>{"orders$snapshots"}));
  auto unquoted = MustParse("SELECT * FROM db.orders$files");
  EXPECT_EQ(unquoted->query->from[0]->name, (std::vector<std::string>{"db", "orders$files"}));
}

TEST(ParserTest, TryCastIsMarked) {
  auto s = MustParse("SELECT try_cast(x AS integer), cast(y AS bigint), TRY_CAST('1' AS decimal(10, 2))");
  EXPECT_TRUE(s->query->select[0].expr->As<Cast>().try_cast);
  EXPECT_FALSE(s->query->select[1].expr->As<Cast>().try_cast);
  const auto& third = s->query->select[2].expr->As<Cast>();
  EXPECT_TRUE(third.try_cast);
  EXPECT_EQ(third.type.name, "decimal");
  EXPECT_EQ(third.type.parameters, (std::vector<int64_t>{10, 2}));
}

TEST(ParserTest, ShowDescribeUse) {
  EXPECT_EQ(MustParse("SHOW CATALOGS")->kind, StatementKind::kShowCatalogs);
  auto schemas = MustParse("SHOW SCHEMAS FROM floe LIKE 'sa%'");
  EXPECT_EQ(schemas->kind, StatementKind::kShowSchemas);
  EXPECT_EQ(schemas->name, std::vector<std::string>{"floe"});
  EXPECT_EQ(schemas->like_pattern, "sa%");
  auto tables = MustParse("show tables in floe.sales");
  EXPECT_EQ(tables->kind, StatementKind::kShowTables);
  EXPECT_EQ(tables->name, (std::vector<std::string>{"floe", "sales"}));
  auto columns = MustParse("SHOW COLUMNS FROM sales.orders");
  EXPECT_EQ(columns->kind, StatementKind::kShowColumns);
  auto describe = MustParse("DESCRIBE \"Sales\".orders");
  EXPECT_EQ(describe->kind, StatementKind::kShowColumns);
  EXPECT_EQ(describe->name, (std::vector<std::string>{"Sales", "orders"}));
  auto use = MustParse("USE floe.sales");
  EXPECT_EQ(use->kind, StatementKind::kUse);
  EXPECT_EQ(use->name, (std::vector<std::string>{"floe", "sales"}));
}

TEST(ParserTest, AlterTableExecute) {
  auto s = MustParse("ALTER TABLE sales.orders EXECUTE optimize(file_size_threshold => '128MB') WHERE day > DATE '2024-01-01'");
  ASSERT_EQ(s->kind, StatementKind::kAlterTableExecute);
  EXPECT_EQ(s->procedure, "optimize");
  ASSERT_EQ(s->procedure_args.size(), 1u);
  ASSERT_TRUE(s->where);
  auto bare = MustParse("ALTER TABLE t EXECUTE expire_snapshots");
  EXPECT_EQ(bare->procedure, "expire_snapshots");
  EXPECT_EQ(MustParse("ALTER TABLE t ADD COLUMN c bigint")->kind, StatementKind::kAlterTable);
}

TEST(ParserTest, NamedProcedureArguments) {
  auto s = MustParse("ALTER TABLE t EXECUTE expire_snapshots(retention_threshold => '7d', 3)");
  ASSERT_EQ(s->procedure_args.size(), 2u);
  EXPECT_EQ(s->procedure_args[0].name, "retention_threshold");
  EXPECT_EQ(s->procedure_args[0].value->As<Literal>().text, "7d");
  EXPECT_EQ(s->procedure_args[1].name, "");
}

// Each kind's fields are on its own class; the parser picks the class from the syntax.
TEST(ParserTest, EachKindCarriesItsOwnFields) {
  auto s = MustParse(
      "SELECT t.*, (r).f, a[2], current_date, x IS UNKNOWN, x IS NOT FALSE, x !~~* 'p', f(k => 1, 2), "
      "x <> ALL (SELECT 1), CASE x WHEN 1 THEN 2 ELSE 3 END FROM t");
  const auto& items = s->query->select;
  ASSERT_EQ(items.size(), 10u);
  EXPECT_EQ(items[0].expr->As<Star>().qualifier, std::vector<std::string>{"t"});
  EXPECT_EQ(items[1].expr->As<FieldAccess>().field, "f");
  EXPECT_EQ(items[2].expr->kind, ExprKind::kSubscript);
  EXPECT_EQ(items[3].expr->As<Current>().name, "current_date");
  EXPECT_FALSE(items[4].expr->As<IsNull>().negated);
  const auto& is_not_false = items[5].expr->As<IsBool>();
  EXPECT_FALSE(is_not_false.bool_value);
  EXPECT_TRUE(is_not_false.negated);
  const auto& like = items[6].expr->As<Like>();
  EXPECT_TRUE(like.negated);
  EXPECT_TRUE(like.case_insensitive);
  const auto& call = items[7].expr->As<FunctionCall>();
  EXPECT_EQ(call.args.size(), 2u);
  EXPECT_EQ(call.argument_names, (std::vector<std::string>{"k", ""}));
  EXPECT_TRUE(MustParse("SELECT f(1, 2)")->query->select[0].expr->As<FunctionCall>().argument_names.empty());
  const auto& all = items[8].expr->As<InSubquery>();
  EXPECT_EQ(all.op, "<>");
  EXPECT_TRUE(all.quantifier_all);
  ASSERT_TRUE(all.subquery);
  const auto& case_ = items[9].expr->As<Case>();
  ASSERT_TRUE(case_.case_operand);
  ASSERT_TRUE(case_.case_else);
  EXPECT_EQ(case_.args.size(), 2u);
}

// Reading a node as another kind's class is a bug: it aborts, naming both kinds, rather than
// read fields the node does not have.
TEST(ParserDeathTest, ReadingAnExpressionAsAnotherKindAborts) {
  auto s = MustParse("SELECT count(x) + 1");
  const Expr& plus = *s->query->select[0].expr;
  EXPECT_EQ(plus.As<Binary>().op, "+");
  EXPECT_EQ(plus.args[0]->As<FunctionCall>().names[0], "count");
  EXPECT_DEATH(plus.As<Unary>(), "a parsed Binary expression was read as a Unary expression");
  EXPECT_DEATH(plus.args[1]->As<ColumnRef>(), "a parsed Literal expression was read as a ColumnRef expression");
  EXPECT_STREQ(ExprKindName(ExprKind::kFunction), "FunctionCall");
}

TEST(ParserTest, DdlAndWrites) {
  auto create = MustParse("CREATE TABLE IF NOT EXISTS s.t (id bigint NOT NULL, ts timestamp with time zone, "
                          "amount decimal(12, 2), region varchar) PARTITIONED BY (day(ts), bucket(16, id), region)");
  ASSERT_EQ(create->kind, StatementKind::kCreateTable);
  EXPECT_TRUE(create->if_not_exists);
  ASSERT_EQ(create->columns.size(), 4u);
  EXPECT_TRUE(create->columns[0].not_null);
  EXPECT_EQ(create->columns[1].type.name, "timestamp with time zone");
  EXPECT_EQ(create->columns[2].type.parameters, (std::vector<int64_t>{12, 2}));
  ASSERT_EQ(create->partitioned_by.size(), 3u);
  EXPECT_EQ(create->partitioned_by[1]->As<FunctionCall>().names[0], "bucket");
  auto ctas = MustParse("CREATE TABLE s.t2 AS SELECT 1 AS x");
  EXPECT_EQ(ctas->kind, StatementKind::kCreateTableAs);
  auto insert = MustParse("INSERT INTO s.t (id, region) VALUES (1, 'eu'), (2, 'us')");
  EXPECT_EQ(insert->kind, StatementKind::kInsert);
  EXPECT_EQ(insert->insert_columns, (std::vector<std::string>{"id", "region"}));
  EXPECT_EQ(insert->query->values.size(), 2u);
  EXPECT_EQ(MustParse("DROP TABLE IF EXISTS s.t")->kind, StatementKind::kDropTable);
  EXPECT_EQ(MustParse("CREATE SCHEMA s")->kind, StatementKind::kCreateSchema);
}

TEST(ParserTest, ExplainWrapsAnyStatement) {
  auto s = MustParse("EXPLAIN ANALYZE SELECT 1");
  EXPECT_EQ(s->kind, StatementKind::kExplain);
  EXPECT_TRUE(s->analyze);
  EXPECT_EQ(s->explained->kind, StatementKind::kQuery);
  auto travel = MustParse("EXPLAIN SELECT * FROM t FOR VERSION AS OF 3");
  EXPECT_EQ(travel->explained->query->from[0]->time_travel->value->As<Literal>().text, "3");
}

TEST(ParserTest, WindowsSubqueriesAndSetOperations) {
  auto s = MustParse(
      "WITH c AS (SELECT 1 AS x) "
      "SELECT row_number() OVER (PARTITION BY a ORDER BY b ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), "
      "count(x) FILTER (WHERE x > 0), (SELECT max(y) FROM u WHERE u.k = t.k) "
      "FROM t WHERE EXISTS (SELECT 1) AND x NOT IN (SELECT 2) UNION ALL SELECT 1, 2, 3 FROM c");
  const Query& q = *s->query;
  ASSERT_EQ(q.kind, Query::Kind::kSetOp);
  EXPECT_TRUE(q.set_all);
  EXPECT_EQ(q.with.size(), 1u);
  const auto& rn = q.left->select[0].expr->As<FunctionCall>();
  ASSERT_TRUE(rn.window);
  EXPECT_TRUE(rn.window->has_frame);
  EXPECT_EQ(rn.window->frame_mode, FrameMode::kRows);
  EXPECT_EQ(rn.window->frame_start.kind, FrameBoundKind::kPreceding);
  EXPECT_EQ(rn.window->frame_end.kind, FrameBoundKind::kCurrentRow);
  EXPECT_TRUE(q.left->select[1].expr->As<FunctionCall>().filter);
  EXPECT_EQ(q.left->select[2].expr->kind, ExprKind::kSubquery);
  const Expr& where = *q.left->where;
  EXPECT_EQ(where.args[0]->kind, ExprKind::kExists);
  EXPECT_EQ(where.args[1]->kind, ExprKind::kUnary);  // NOT (x IN (subquery))
}

TEST(ParserTest, SeveralStatementsAndEmptyInput) {
  auto all = Parse("SELECT 1; ; SELECT 2;");
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->size(), 2u);
  auto none = Parse("  -- nothing\n /* here */ ");
  ASSERT_TRUE(none.has_value());
  EXPECT_TRUE(none->empty());
}

TEST(ParserTest, SyntaxErrorsCarryLineAndColumn) {
  EXPECT_EQ(ErrorAt("SELECT * FORM t"), "1:10");
  EXPECT_EQ(ErrorAt("SELECT 1;\nSELECT (1 + FROM t"), "2:13");
  // After a rewritten placeholder the position is still the user's.
  EXPECT_EQ(ErrorAt("SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM WHERE"), "1:45");
  EXPECT_EQ(ErrorAt("SELECT 'abc"), "1:8");
  EXPECT_EQ(ErrorAt("SELECT 1 /* open"), "1:10");
  EXPECT_EQ(ErrorAt("SHOW TABLES FROM"), "1:17");
  EXPECT_EQ(ErrorAt("SELECT * FROM t FOR VERSION AS OF WHERE x"), "1:35");
  // Columns count characters, not bytes.
  EXPECT_EQ(ErrorAt("SELECT 'héllo' FORM t"), "1:21");
}

TEST(ParserTest, UnsupportedConstructsAreNotImplementedWithPosition) {
  auto s = Parse("SELECT x FROM t GROUP BY DISTINCT a");
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().kind(), ErrorKind::kNotImplemented);
  EXPECT_TRUE(s.error().position().has_value()) << s.error().message();
}

// GROUP BY items multiply: a, ROLLUP (b, c), CUBE (d) is {a} x {bc, b, ()} x {d, ()}.
TEST(ParserTest, GroupingSetsAreSpelledOut) {
  auto s = MustParse("SELECT 1 FROM t GROUP BY a, ROLLUP (b, c), CUBE (d)");
  ASSERT_EQ(s->query->group_by.expressions.size(), 4u);
  std::vector<std::vector<int>> expected = {{0, 1, 2, 3}, {0, 1, 2}, {0, 1, 3}, {0, 1}, {0, 3}, {0}};
  EXPECT_EQ(s->query->group_by.grouping_sets, expected);

  s = MustParse("SELECT 1 FROM t GROUP BY GROUPING SETS ((a, b), a, ()), ROLLUP ((c, d))");
  expected = {{0, 1, 3, 4}, {0, 1}, {2, 3, 4}, {2}, {3, 4}, {}};
  EXPECT_EQ(s->query->group_by.grouping_sets, expected);

  EXPECT_TRUE(MustParse("SELECT 1 FROM t GROUP BY a, b")->query->group_by.grouping_sets.empty());
  // 13 cubes of one column: 8192 sets, past the bound.
  auto big = Parse("SELECT 1 FROM t GROUP BY CUBE (a), CUBE (b), CUBE (c), CUBE (d), CUBE (e), CUBE (f), CUBE (g), CUBE (h), "
                   "CUBE (i), CUBE (j), CUBE (k), CUBE (l), CUBE (m)");
  ASSERT_FALSE(big.has_value());
  EXPECT_NE(big.error().message().find("more than 4096 grouping sets"), std::string::npos);
  EXPECT_TRUE(big.error().position().has_value());
  // Few sets of many keys: 12 cubed elements of 40 columns each are 4096 sets of 240 keys on average.
  std::string columns;
  for (int c = 0; c < 40; ++c) columns += fmt::format("{}c{}", c ? ", " : "", c);
  std::string cube;
  for (int e = 0; e < 12; ++e) cube += fmt::format("{}({})", e ? ", " : "", columns);
  auto wide = Parse("SELECT 1 FROM t GROUP BY CUBE (" + cube + ")");
  ASSERT_FALSE(wide.has_value());
  EXPECT_NE(wide.error().message().find("keys in them all"), std::string::npos) << wide.error().message();
}

TEST(ParserTest, GarbageNeverCrashes) {
  const char* inputs[] = {"", ";;;", "\x01\x02\xff", "SELECT", "((((", "))))", "SELECT (((1", "'", "\"",
                          "$$", "$a$ unterminated", "SELECT 1 +", "EXPLAIN", "SHOW", "USE", "DESCRIBE",
                          "ALTER TABLE", "ALTER TABLE t EXECUTE", "SELECT * FROM t FOR", "SELECT try_cast(",
                          "CREATE TABLE t (a int) PARTITIONED BY (", "SELECT ?::", "\\", "SELECT 1 FROM t FOR VERSION AS OF (1"};
  for (const char* input : inputs) {
    auto result = Parse(input);
    if (!result.has_value()) {
      EXPECT_FALSE(result.error().message().empty()) << input;
    }
  }
  // Every prefix of a real query.
  std::string query = "SELECT a, sum(b) FILTER (WHERE c > 1) FROM s.t FOR VERSION AS OF 3 AS x WHERE d IN (1, ?) "
                      "GROUP BY 1 ORDER BY 2 DESC LIMIT 5";
  for (size_t n = 0; n <= query.size(); ++n) {
    auto result = Parse(query.substr(0, n));
    if (!result.has_value()) {
      EXPECT_FALSE(result.error().message().empty());
    }
  }
}

TEST(ParserTest, DeepNestingIsRefusedClearly) {
  std::string deep = "SELECT " + std::string(5000, '(') + "1" + std::string(5000, ')');
  auto result = Parse(deep);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind(), ErrorKind::kResourceExhausted);
  EXPECT_NE(result.error().message().find("nesting"), std::string::npos) << result.error().message();

  // A long operator chain nests deeply in the tree without any parentheses.
  std::string chain = "SELECT 1";
  for (int i = 0; i < 30000; ++i) chain += "+1";
  auto chained = Parse(chain);
  ASSERT_FALSE(chained.has_value());
  EXPECT_EQ(chained.error().kind(), ErrorKind::kResourceExhausted) << chained.error().ToString();
}

TEST(ParserTest, OversizeInputIsRefusedAndLargeLiteralsWork) {
  std::string huge(17 << 20, ' ');
  auto result = Parse(huge);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind(), ErrorKind::kResourceExhausted);

  std::string literal(1 << 20, 'x');
  auto big = ParseStatement("SELECT '" + literal + "'");
  ASSERT_TRUE(big.has_value()) << big.error().ToString();
  EXPECT_EQ((*big)->query->select[0].expr->As<Literal>().text.size(), literal.size());

  std::string many = "SELECT x FROM t WHERE x IN (";
  for (int i = 0; i < 20000; ++i) {
    if (i > 0) many.push_back(',');
    many.append(std::to_string(i));
  }
  many += ")";
  auto list = ParseStatement(many);
  ASSERT_TRUE(list.has_value()) << list.error().ToString();
  EXPECT_EQ((*list)->query->where->args.size(), 20001u);
}

TEST(ParserTest, ParseExpression) {
  auto e = ParseExpression("a.b.c + 1");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ((*e)->args[0]->As<ColumnRef>().names.size(), 3u);
  EXPECT_FALSE(ParseExpression("1, 2").has_value());
}

}  // namespace
}  // namespace floe::sql
