#include "iceberg/expression.h"

#include <gtest/gtest.h>

#include "iceberg/evaluators.h"

namespace floe::iceberg {
namespace {

Schema TestSchema() {
  return Schema(0, {NestedField{1, "qty", false, Type::Decimal(15, 2)},
                    NestedField{2, "ship", false, Type::Primitive(TypeId::kDate)},
                    NestedField{3, "name", false, Type::Primitive(TypeId::kString)},
                    NestedField{4, "n", false, Type::Primitive(TypeId::kLong)},
                    NestedField{5, "x", false, Type::Primitive(TypeId::kDouble)}});
}

ExprPtr BindText(const std::string& text) {
  auto parsed = ParseFilter(text);
  EXPECT_TRUE(parsed.has_value()) << text << ": " << (parsed ? "" : parsed.error().ToString());
  if (!parsed) return False();
  auto bound = Bind(*parsed, TestSchema());
  EXPECT_TRUE(bound.has_value()) << text << ": " << (bound ? "" : bound.error().ToString());
  return bound ? *bound : False();
}

TEST(Filter, ParsesBindsAndEvaluatesRows) {
  ExprPtr q6 = BindText(
      "ship >= date '1994-01-01' AND ship < '1995-01-01' and qty between 0.05 and 0.07 and n < 24");
  EXPECT_EQ(ToString(q6),
            "(((ship >= '1994-01-01' and ship < '1995-01-01') and (qty >= '0.05' and qty <= '0.07')) and n < 24)");
  auto row = [](Literal qty, int32_t ship, int64_t n) {
    return [=](int32_t id) -> Literal {
      if (id == 1) return qty;
      if (id == 2) return Literal::Int(ship);
      if (id == 4) return Literal::Long(n);
      return Literal();
    };
  };
  EXPECT_TRUE(EvaluateRow(q6, row(Literal::Decimal(6, 2), 8800, 3)));
  EXPECT_FALSE(EvaluateRow(q6, row(Literal::Decimal(8, 2), 8800, 3)));
  EXPECT_FALSE(EvaluateRow(q6, row(Literal::Decimal(6, 2), 8000, 3)));
  EXPECT_FALSE(EvaluateRow(q6, row(Literal(), 8800, 3)));

  ExprPtr n = BindText("not (n in (1, 2, 3) or name like 'ab%') and name is not null");
  auto r2 = [](int64_t n, std::optional<std::string> name) {
    return [=](int32_t id) -> Literal {
      if (id == 4) return Literal::Long(n);
      if (id == 3) return name ? Literal::String(*name) : Literal();
      return Literal();
    };
  };
  EXPECT_TRUE(EvaluateRow(n, r2(4, "xyz")));
  EXPECT_FALSE(EvaluateRow(n, r2(2, "xyz")));
  EXPECT_FALSE(EvaluateRow(n, r2(4, "abc")));
  EXPECT_FALSE(EvaluateRow(n, r2(4, std::nullopt)));
  EXPECT_TRUE(EvaluateRow(BindText("x is nan"), [](int32_t) { return Literal::Double(std::nan("")); }));
  EXPECT_EQ(BindText("name is nan")->op, ExprOp::kFalse);
}

TEST(Filter, RejectsBadText) {
  for (std::string bad : {"n <", "n = = 1", "(n = 1", "n in (1,", "n between 1", "'abc' = n", "n = 'unterminated",
                          "n is maybe", "n = 99999999999999999999"}) {
    auto p = ParseFilter(bad);
    EXPECT_FALSE(p.has_value()) << bad;
    if (!p) {
      EXPECT_NE(p.error().message().find("position"), std::string::npos) << p.error().message();
    }
  }
  auto parsed = ParseFilter("ship = 'not a date'");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_FALSE(Bind(*parsed, TestSchema()).has_value());
}

TEST(Evaluators, InclusiveProjectionThroughEveryTransform) {
  Schema schema(0, {NestedField{1, "ts", false, Type::Primitive(TypeId::kTimestamp)},
                    NestedField{2, "id", false, Type::Primitive(TypeId::kLong)},
                    NestedField{3, "s", false, Type::Primitive(TypeId::kString)}});
  PartitionSpec spec(0, {PartitionField{1, 1000, "ts_day", Transform::Day()},
                         PartitionField{2, 1001, "id_bucket", Transform::Bucket(16)},
                         PartitionField{3, 1002, "s_trunc", Transform::Truncate(2)},
                         PartitionField{1, 1003, "ts_hour", Transform::Hour()}});
  auto bind = [&](const std::string& text) { return *Bind(*ParseFilter(text), schema); };
  auto partition_type = *spec.PartitionType(schema);
  auto matches = [&](const std::string& filter, std::vector<Literal> tuple) {
    return PartitionMatches(ProjectInclusive(bind(filter), spec, schema), tuple, *partition_type);
  };
  int32_t b7 = Transform::Bucket(16).Apply(*Type::Primitive(TypeId::kLong), Literal::Long(7)).as_int();
  std::vector<Literal> day100 = {Literal::Int(100), Literal::Int(b7), Literal::String("ab"), Literal::Int(2400 + 5)};
  EXPECT_TRUE(matches("ts >= '1970-04-11T05:30:00'", day100));   // day 100, hour 2405
  EXPECT_TRUE(matches("ts < '1970-04-11T05:30:00'", day100));    // same hour: might match
  EXPECT_FALSE(matches("ts < '1970-04-11T00:00:00'", day100));   // day 100 starts later
  EXPECT_FALSE(matches("ts > '1970-04-12T00:00:00'", day100));
  EXPECT_TRUE(matches("id = 7", day100));
  EXPECT_FALSE(matches("id = 8", day100) && matches("id = 9", day100) && matches("id = 10", day100));
  EXPECT_TRUE(matches("id > 1000", day100));  // bucket cannot prune ranges
  EXPECT_TRUE(matches("s = 'abc'", day100));
  EXPECT_FALSE(matches("s = 'xyz'", day100));
  EXPECT_TRUE(matches("s starts with 'abz'", day100));
  EXPECT_FALSE(matches("s starts with 'b'", day100));
  EXPECT_TRUE(matches("s is null or id = 7", day100));
  EXPECT_FALSE(matches("ts is null", day100));
  EXPECT_TRUE(matches("ts is null", {Literal(), Literal(), Literal(), Literal()}));
}

TEST(Evaluators, MetricsPruneByBoundsAndCounts) {
  Schema schema = TestSchema();
  DataFile f;
  f.record_count = 10;
  auto L = Type::Primitive(TypeId::kLong);
  f.lower_bounds = {{4, ToBinary(*L, Literal::Long(10))}, {3, "apple"}};
  f.upper_bounds = {{4, ToBinary(*L, Literal::Long(20))}, {3, "banana"}};
  f.value_counts = {{4, 10}, {3, 10}, {1, 10}};
  f.null_value_counts = {{4, 0}, {3, 2}, {1, 10}};
  auto might = [&](const std::string& text) {
    return FileMightMatch(*Bind(*ParseFilter(text), schema), f, schema);
  };
  EXPECT_TRUE(might("n = 15"));
  EXPECT_FALSE(might("n = 21"));
  EXPECT_FALSE(might("n < 10"));
  EXPECT_TRUE(might("n <= 10"));
  EXPECT_FALSE(might("n > 20"));
  EXPECT_TRUE(might("n in (1, 2, 12)"));
  EXPECT_FALSE(might("n in (1, 2, 22)"));
  EXPECT_FALSE(might("n is null"));
  EXPECT_TRUE(might("name is null"));
  EXPECT_FALSE(might("qty > 1"));      // all null
  EXPECT_TRUE(might("qty is null"));
  EXPECT_FALSE(might("name starts with 'c'"));
  EXPECT_TRUE(might("name starts with 'b'"));
  EXPECT_TRUE(might("n != 15"));
  EXPECT_TRUE(might("x > 3"));  // no metrics
}

}  // namespace
}  // namespace floe::iceberg
