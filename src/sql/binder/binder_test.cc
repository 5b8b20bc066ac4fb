#include "sql/binder/binder.h"

#include <gtest/gtest.h>

#include "sql/catalog/memory_catalog.h"
#include "sql/planner/optimizer.h"
#include "sql/parser/parser.h"
#include "sql/types/sql_error.h"
#include "sql/types/type_rules.h"

namespace floe::sql {
namespace {

class BinderTest : public ::testing::Test {
 protected:
  BinderTest() {
    CatalogTable orders;
    orders.name = {"", "sales", "orders"};
    orders.columns = {{"id", SqlType::Bigint()},
                      {"amount", SqlType::Decimal(12, 2)},
                      {"qty", SqlType::Integer()},
                      {"ts", SqlType::TimestampTz()},
                      {"info", SqlType::Row({{"device", SqlType::Varchar()}, {"ip", SqlType::Varchar()}})},
                      {"tags", SqlType::Array(SqlType::Varchar())}};
    orders.estimated_rows = 1000;
    catalog_.AddTable(orders);
  }

  Result<BoundStatement> BindSql(const std::string& sql) {
    FLOE_ASSIGN_OR_RETURN(auto statement, ParseStatement(sql));
    return Bind(*statement, sql, catalog_, BindOptions{"floe", "sales"});
  }

  // The type of the only output column.
  std::string TypeOf(const std::string& expression) {
    auto bound = BindSql("SELECT " + expression + " FROM orders");
    if (!bound.has_value()) return "error: " + bound.error().message();
    return bound->plan->output.at(0).type.ToString();
  }

  MemoryCatalog catalog_;
};

TEST_F(BinderTest, ResultTypesFollowTrinoRules) {
  EXPECT_EQ(TypeOf("amount + 1"), "decimal(13,2)");  // integer -> decimal(10,0); 1 + max(10, 10) + 2
  EXPECT_EQ(TypeOf("amount * amount"), "decimal(24,4)");
  EXPECT_EQ(TypeOf("amount / 3"), "decimal(12,2)");
  EXPECT_EQ(TypeOf("qty + id"), "bigint");
  EXPECT_EQ(TypeOf("qty / 2.0"), "decimal(12,1)");  // p = 10 + 1 + max(0, 1 - 0)
  EXPECT_EQ(TypeOf("qty * 1e0"), "double");
  EXPECT_EQ(TypeOf("sum(amount)"), "decimal(38,2)");
  EXPECT_EQ(TypeOf("avg(qty)"), "double");
  EXPECT_EQ(TypeOf("count(DISTINCT id)"), "bigint");
  EXPECT_EQ(TypeOf("approx_percentile(amount, 0.5)"), "decimal(12,2)");
  EXPECT_EQ(TypeOf("ts - INTERVAL '1' HOUR"), "timestamp(6) with time zone");
  EXPECT_EQ(TypeOf("date_trunc('hour', ts)"), "timestamp(6) with time zone");
  EXPECT_EQ(TypeOf("extract(hour FROM ts)"), "bigint");
  EXPECT_EQ(TypeOf("CASE WHEN qty > 1 THEN qty ELSE id END"), "bigint");
  EXPECT_EQ(TypeOf("coalesce(qty, 0.5)"), "decimal(11,1)");
  EXPECT_EQ(TypeOf("info.device"), "varchar");
  EXPECT_EQ(TypeOf("orders.info.ip"), "varchar");
  EXPECT_EQ(TypeOf("tags[1]"), "varchar");
  EXPECT_EQ(TypeOf("row_number() OVER (ORDER BY ts)"), "bigint");
  EXPECT_EQ(TypeOf("lag(amount, 1, 0) OVER (ORDER BY ts)"), "decimal(12,2)");
}

TEST_F(BinderTest, DecimalScaleOverflowIsAnError) {
  EXPECT_FALSE(DecimalArithmeticType(ArithmeticOp::kMultiply, SqlType::Decimal(38, 20), SqlType::Decimal(38, 20)).has_value());
}

TEST_F(BinderTest, ErrorsPointAtTheOffendingText) {
  auto bound = BindSql("SELECT info.nope FROM orders");
  ASSERT_FALSE(bound.has_value());
  EXPECT_EQ(bound.error().message(), "line 1:8: Field 'nope' not found in row(device varchar, ip varchar)");
  auto ambiguous = BindSql("SELECT id FROM orders a, orders b");
  ASSERT_FALSE(ambiguous.has_value());
  EXPECT_EQ(ambiguous.error().message(), "line 1:8: Column 'id' is ambiguous");
  auto multi_line = BindSql("SELECT id,\n       nope\nFROM orders");
  ASSERT_FALSE(multi_line.has_value());
  auto position = multi_line.error().position();
  ASSERT_TRUE(position.has_value());
  EXPECT_EQ(position->line, 2);
  EXPECT_EQ(position->column, 8);
}

TEST_F(BinderTest, CorrelatedSubqueryRecordsOuterColumns) {
  auto bound = BindSql("SELECT id FROM orders o WHERE amount > (SELECT avg(amount) FROM orders i WHERE i.qty = o.qty)");
  ASSERT_TRUE(bound.has_value()) << bound.error().ToString();
  const LogicalOperator* filter = bound->plan->children.at(0).get();
  ASSERT_EQ(filter->kind, LogicalKind::kFilter);
  const BoundExpr& subquery = *filter->As<LogicalFilter>().predicate->args.at(1);
  ASSERT_EQ(subquery.kind, BoundKind::kSubquery);
  ASSERT_EQ(subquery.As<BoundSubquery>().correlated.size(), 1u);
}

TEST_F(BinderTest, PushedScanPredicateNamesTableColumnsAndFieldIds) {
  CatalogTable t;
  t.name = {"", "sales", "events"};
  t.columns = {{"a", SqlType::Bigint(), true, 7}, {"b", SqlType::Varchar(), true, 9}};
  catalog_.AddTable(t);
  auto bound = BindSql("SELECT a FROM events WHERE 5 < a AND b LIKE 'x%' AND b IS NOT NULL AND a + 1 > 2");
  ASSERT_TRUE(bound.has_value()) << bound.error().ToString();
  auto plan = Optimize(std::move(bound->plan));
  ASSERT_TRUE(plan.has_value());
  const LogicalOperator* node = plan->get();
  while (node->kind != LogicalKind::kScan) node = node->children.at(0).get();
  const auto* scan = &node->As<LogicalScan>();
  ASSERT_EQ(scan->pushed.terms.size(), 3u);
  EXPECT_EQ(scan->pushed.terms[0].column, "a");
  EXPECT_EQ(scan->pushed.terms[0].field_id, 7);
  EXPECT_EQ(scan->pushed.terms[0].op, ColumnPredicate::Op::kGt);  // 5 < a, flipped
  EXPECT_EQ(scan->pushed.terms[1].op, ColumnPredicate::Op::kStartsWith);
  EXPECT_EQ(scan->pushed.terms[1].values.at(0).as_string(), "x");
  EXPECT_EQ(scan->pushed.terms[2].op, ColumnPredicate::Op::kIsNotNull);
  EXPECT_EQ(scan->pushed.residual.size(), 1u);  // a + 1 > 2 is evaluated after decoding
}

TEST_F(BinderTest, FoldingLeavesFailingExpressionsForRunTime) {
  auto bound = BindSql("SELECT 1 / 0, 2 * 3 FROM orders");
  ASSERT_TRUE(bound.has_value());
  auto plan = Optimize(std::move(bound->plan));
  ASSERT_TRUE(plan.has_value());
  const auto& expressions = (*plan)->As<LogicalProject>().expressions;
  EXPECT_EQ(expressions.at(0)->kind, BoundKind::kCall);
  ASSERT_EQ(expressions.at(1)->kind, BoundKind::kConstant);
  EXPECT_EQ(expressions.at(1)->As<BoundConstant>().value.as_int(), 6);
}

// A plan node is read only as its own kind's class: the wrong one stops the process instead of
// reading memory of another shape.
TEST(LogicalPlanTest, ReadingANodeAsAnotherKindAborts) {
  LogicalFilter filter;
  LogicalOperator& node = filter;
  EXPECT_EQ(&node.As<LogicalFilter>(), &filter);
  EXPECT_DEATH(node.As<LogicalJoin>(), "a Filter plan node was read as a Join node");
}

// An expression, too, is read only as its own kind's class.
TEST(BoundExprTest, ReadingAnExpressionAsAnotherKindAborts) {
  std::vector<BoundExprPtr> args;
  args.push_back(MakeColumn(ColumnId(3), SqlType::Bigint(), "price"));
  args.push_back(MakeConstant(Value::Int(SqlType::Bigint(), 2)));
  BoundExprPtr call = MakeCall("multiply", SqlType::Bigint(), std::move(args));
  const BoundExpr& e = *call;
  EXPECT_EQ(e.As<BoundCall>().name, "multiply");
  EXPECT_EQ(e.args[0]->As<BoundColumnRef>().column, ColumnId(3));
  EXPECT_DEATH(e.As<BoundCast>(), "a Call expression was read as a Cast expression");
  EXPECT_DEATH(e.args[1]->As<BoundColumnRef>(), "a Constant expression was read as a Column expression");
}

// One expression of every kind, its own fields set away from their defaults.
std::vector<BoundExprPtr> OneOfEachKind() {
  auto price = [] { return MakeColumn(ColumnId(3), SqlType::Bigint(), "price"); };
  auto two = [] { return MakeConstant(Value::Int(SqlType::Bigint(), 2)); };
  std::vector<BoundExprPtr> out;
  out.push_back(two());
  out.push_back(price());
  auto parameter = std::make_unique<BoundParameter>(SqlType::Unknown());
  parameter->parameter_index = 4;
  out.push_back(std::move(parameter));
  std::vector<BoundExprPtr> args;
  args.push_back(price());
  args.push_back(two());
  out.push_back(MakeCall("multiply", SqlType::Bigint(), std::move(args)));
  out.push_back(MakeCast(price(), SqlType::Double(), /*try_cast=*/true));
  auto is_null = std::make_unique<BoundIsNull>(SqlType::Boolean());
  is_null->negated = true;
  is_null->args.push_back(price());
  auto case_ = std::make_unique<BoundCase>(SqlType::Bigint());
  case_->args.push_back(is_null->Clone());
  case_->args.push_back(two());
  case_->args.push_back(price());
  case_->has_else = true;
  out.push_back(std::move(case_));
  auto and_ = std::make_unique<BoundAnd>(SqlType::Boolean());
  and_->args.push_back(is_null->Clone());
  and_->args.push_back(is_null->Clone());
  out.push_back(std::move(and_));
  auto or_ = std::make_unique<BoundOr>(SqlType::Boolean());
  or_->args.push_back(is_null->Clone());
  or_->args.push_back(is_null->Clone());
  out.push_back(std::move(or_));
  auto not_ = std::make_unique<BoundNot>(SqlType::Boolean());
  not_->args.push_back(is_null->Clone());
  out.push_back(std::move(not_));
  out.push_back(std::move(is_null));
  auto in_list = std::make_unique<BoundInList>(SqlType::Boolean());
  in_list->negated = true;
  in_list->args.push_back(price());
  in_list->args.push_back(two());
  out.push_back(std::move(in_list));
  auto subquery = std::make_unique<BoundSubquery>(SqlType::Boolean());
  subquery->subquery_kind = SubqueryKind::kQuantified;
  subquery->compare_op = "lt";
  subquery->quantifier_all = true;
  subquery->plan = std::make_shared<LogicalEmpty>();
  subquery->correlated = {ColumnId(5)};
  subquery->args.push_back(price());
  out.push_back(std::move(subquery));
  for (size_t i = 0; i < out.size(); ++i) out[i]->location = static_cast<int>(10 + i);
  return out;
}

// A clone is the same expression, its kind's fields included; a subquery's plan is shared.
TEST(BoundExprTest, CloneKeepsEveryKindsFields) {
  std::vector<BoundExprPtr> exprs = OneOfEachKind();
  std::vector<std::string> shown;
  for (const auto& e : exprs) {
    BoundExprPtr copy = e->Clone();
    ASSERT_EQ(copy->kind, e->kind) << BoundKindName(e->kind);
    EXPECT_EQ(copy->type, e->type);
    EXPECT_EQ(copy->location, e->location);
    EXPECT_EQ(copy->ToString(), e->ToString());
    EXPECT_EQ(copy->ColumnsRead(), e->ColumnsRead());
    // Two subqueries are never the same expression, not even a copy.
    EXPECT_EQ(copy->Equals(*e), e->kind != BoundKind::kSubquery) << BoundKindName(e->kind);
    shown.push_back(copy->ToString());
  }
  EXPECT_EQ(shown, (std::vector<std::string>{
                       "2",
                       "price#3",
                       "$4",
                       "(price#3 * 2)",
                       "TRY_CAST(price#3 AS double)",
                       "CASE WHEN (price#3 IS NOT NULL) THEN 2 ELSE price#3 END",
                       "((price#3 IS NOT NULL) AND (price#3 IS NOT NULL))",
                       "((price#3 IS NOT NULL) OR (price#3 IS NOT NULL))",
                       "(NOT (price#3 IS NOT NULL))",
                       "(price#3 IS NOT NULL)",
                       "(price#3 NOT IN (2))",
                       "(price#3 lt ALL (subquery correlated: #5))",
                   }));
  const auto& subquery = exprs.back()->As<BoundSubquery>();
  BoundExprPtr copy = subquery.Clone();
  EXPECT_EQ(copy->As<BoundSubquery>().plan, subquery.plan);
  EXPECT_EQ(copy->As<BoundSubquery>().correlated, subquery.correlated);
}

// Equality compares each kind's own fields (a column by its id, not its display name).
TEST(BoundExprTest, EqualsComparesTheKindsFields) {
  std::vector<BoundExprPtr> exprs = OneOfEachKind();
  for (size_t i = 0; i < exprs.size(); ++i) {
    for (size_t j = 0; j < exprs.size(); ++j) {
      if (i == j) continue;
      EXPECT_FALSE(exprs[i]->Equals(*exprs[j])) << i << " vs " << j;
    }
  }
  auto changed = [&](BoundKind kind, auto&& change) {
    for (const auto& e : exprs) {
      if (e->kind != kind) continue;
      BoundExprPtr copy = e->Clone();
      change(*copy);
      return copy->Equals(*e);
    }
    ADD_FAILURE() << "no " << BoundKindName(kind);
    return true;
  };
  EXPECT_FALSE(changed(BoundKind::kConstant,
                       [](BoundExpr& e) { e.As<BoundConstant>().value = Value::Int(SqlType::Bigint(), 3); }));
  EXPECT_FALSE(changed(BoundKind::kColumn, [](BoundExpr& e) { e.As<BoundColumnRef>().column = ColumnId(4); }));
  EXPECT_TRUE(changed(BoundKind::kColumn, [](BoundExpr& e) { e.As<BoundColumnRef>().name = "cost"; }));
  EXPECT_FALSE(changed(BoundKind::kParameter, [](BoundExpr& e) { e.As<BoundParameter>().parameter_index = 5; }));
  EXPECT_FALSE(changed(BoundKind::kCall, [](BoundExpr& e) { e.As<BoundCall>().name = "add"; }));
  EXPECT_FALSE(changed(BoundKind::kCast, [](BoundExpr& e) { e.As<BoundCast>().try_cast = false; }));
  EXPECT_FALSE(changed(BoundKind::kCase, [](BoundExpr& e) { e.As<BoundCase>().has_else = false; }));
  EXPECT_FALSE(changed(BoundKind::kIsNull, [](BoundExpr& e) { e.As<BoundIsNull>().negated = false; }));
  EXPECT_FALSE(changed(BoundKind::kInList, [](BoundExpr& e) { e.As<BoundInList>().negated = false; }));
  EXPECT_TRUE(changed(BoundKind::kAnd, [](BoundExpr& e) { e.location = 99; }));
}

}  // namespace
}  // namespace floe::sql
