#include "stream/route.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace floe::stream {
namespace {

RoutedTableName Shop() { return {.ns = {"shop"}, .prefix = ""}; }

// The message of a failed parse, or "" when it parsed.
std::string ParseError(std::string_view text) {
  auto rules = ParseRouteFile(text, "routes.txt", Shop());
  return rules ? std::string() : rules.error().message();
}

TEST(Route, ParsesRulesCommentsAndBlankLines) {
  auto rules = ParseRouteFile(
      "# orders by region\n\n  orders-(eu|us) -> orders \r\nclicks\\..* -> web.clicks\n"
      "a->b->c -> x.y\n",
      "routes.txt", Shop());
  ASSERT_TRUE(rules) << rules.error().message();
  ASSERT_EQ(rules->size(), 3u);
  EXPECT_EQ((*rules)[0].pattern, "orders-(eu|us)");
  EXPECT_EQ((*rules)[0].table, (catalog::TableIdentifier{{"shop"}, "orders"}));
  EXPECT_EQ((*rules)[0].line, 3);
  EXPECT_EQ((*rules)[1].table, (catalog::TableIdentifier{{"web"}, "clicks"}));
  // The last arrow separates: a pattern may contain "->".
  EXPECT_EQ((*rules)[2].pattern, "a->b->c");
  EXPECT_EQ((*rules)[2].table, (catalog::TableIdentifier{{"x"}, "y"}));
}

TEST(Route, GarbageGetsPositionedErrors) {
  EXPECT_EQ(ParseError("orders -> shop.orders\n  no arrow here\n"),
            "route file routes.txt line 2, column 3: expected 'REGEX -> TABLE'");
  EXPECT_EQ(ParseError("  -> shop.x\n"),
            "route file routes.txt line 1, column 3: the regular expression before '->' is "
            "empty");
  EXPECT_EQ(ParseError("orders ->   \n"), "route file routes.txt line 1, column 10: no table after '->'");
  EXPECT_EQ(ParseError("ok -> shop.a\nx\x01y -> shop.b\n"),
            "route file routes.txt line 2, column 2: control byte (not a text file?)");
  EXPECT_EQ(ParseError("ok -> shop.a/b\n"),
            "route file routes.txt line 1, column 7: table name 'a/b' contains a path separator");
  EXPECT_EQ(ParseError("ok -> shop..b\n").rfind("route file routes.txt line 1, column 7: ", 0), 0u);
  EXPECT_EQ(ParseError("# only comments\n\n"), "route file routes.txt has no routes ('REGEX -> TABLE' lines)");
  // Binary garbage: the first control byte is named with its line and column.
  std::string binary("\x89PNG\r\n\x1a\n\0\0", 10);
  EXPECT_EQ(ParseError(binary), "route file routes.txt line 2, column 1: control byte (not a text file?)");
}

TEST(Route, BadRegexIsRefusedWithItsLine) {
  std::string error = ParseError("fine -> shop.a\n\n   orders-(eu -> shop.b\n");
  EXPECT_EQ(error.rfind("route file routes.txt line 3, column 4: bad regular expression 'orders-(eu': ", 0), 0u)
      << error;
  error = ParseError("[z-a] -> shop.c\n");
  EXPECT_EQ(error.rfind("route file routes.txt line 1, column 1: bad regular expression '[z-a]': ", 0), 0u) << error;
}

TEST(Route, OversizeFilesPatternsAndRuleCountsAreRefused) {
  std::string big(64 * 1024 + 1, '#');
  EXPECT_EQ(ParseError(big), "route file routes.txt: 65537 bytes, more than the 65536 a route file may have");
  EXPECT_EQ(ParseError(fmt::format("{} -> shop.a\n", std::string(1001, 'a'))),
            "route file routes.txt line 1, column 1: the regular expression has 1001 bytes, more than 1000");
  std::string many;
  for (int i = 0; i < 1001; ++i) many += fmt::format("t{} -> shop.t\n", i);
  EXPECT_EQ(ParseError(many), "route file routes.txt line 1001, column 1: more than 1000 routes");
  // Deep nesting in a pattern: compiled (or refused) as the regex library does, never a crash.
  std::string deep = fmt::format("{}a{} -> shop.deep\n", std::string(400, '('), std::string(400, ')'));
  auto rules = ParseRouteFile(deep, "routes.txt", Shop());
  if (rules) {
    Router router({}, Shop(), std::move(*rules), {{"shop"}, "dlq"});
    EXPECT_EQ(router.Resolve("a").tables.size(), 1u);
  }
}

TEST(Route, TableFromAndRoutedTableFlags) {
  EXPECT_EQ(ParseTableFrom("topic")->kind, RouteValueSource::Kind::kTopic);
  auto field = ParseTableFrom("field:event_type");
  ASSERT_TRUE(field);
  EXPECT_EQ(field->kind, RouteValueSource::Kind::kField);
  EXPECT_EQ(field->field, "event_type");
  EXPECT_FALSE(ParseTableFrom("field:"));
  EXPECT_FALSE(ParseTableFrom("key"));
  EXPECT_FALSE(ParseTableFrom(fmt::format("field:{}", std::string(256, 'x'))));
  auto ns = ParseRoutedTable("lake.raw");
  ASSERT_TRUE(ns);
  EXPECT_EQ(ns->ns, (catalog::Namespace{"lake", "raw"}));
  EXPECT_EQ(ns->prefix, "");
  auto prefixed = ParseRoutedTable("shop.kafka_*");
  ASSERT_TRUE(prefixed);
  EXPECT_EQ(prefixed->ns, (catalog::Namespace{"shop"}));
  EXPECT_EQ(prefixed->prefix, "kafka_");
  EXPECT_FALSE(ParseRoutedTable("kafka_*"));
  EXPECT_FALSE(ParseRoutedTable("shop.a*b*"));
  EXPECT_FALSE(ParseRoutedTable("shop.a/b*"));
  EXPECT_FALSE(ParseRoutedTable(""));
}

TEST(Route, ValuesNameTablesOrDeadLetterReasons) {
  Router dynamic({}, {.ns = {"shop"}, .prefix = "t_"}, {}, {{"shop"}, "t_dlq"});
  EXPECT_EQ(dynamic.Resolve("orders-eu").tables, (std::vector<catalog::TableIdentifier>{{{"shop"}, "t_orders-eu"}}));
  EXPECT_EQ(dynamic.Resolve("shop.orders").reason,
            "route: 'shop.orders' is not a table name (1 to 198 letters, digits, '_' or '-'; map other values with "
            "--route)");
  EXPECT_FALSE(dynamic.Resolve("").reason.empty());
  EXPECT_FALSE(dynamic.Resolve("../x").reason.empty());
  EXPECT_EQ(dynamic.Resolve("dlq").reason, "route: 'dlq' names the dead-letter table shop.t_dlq");
  // A long value is shown cut at 64 bytes.
  EXPECT_EQ(dynamic.Resolve(std::string(300, 'a')).reason,
            fmt::format("route: the value '{}...' has 300 bytes, more than 255", std::string(64, 'a')));

  auto rules =
      ParseRouteFile("orders\\..* -> orders\norders\\.eu -> shop.eu_orders\nclicks -> web.clicks\n", "r", Shop());
  ASSERT_TRUE(rules);
  Router mapped({}, Shop(), std::move(*rules), {{"shop"}, "dlq"});
  // Every matching line routes (fan-out, as Connect's route-regex), each table once.
  EXPECT_EQ(mapped.Resolve("orders.eu").tables,
            (std::vector<catalog::TableIdentifier>{{{"shop"}, "orders"}, {{"shop"}, "eu_orders"}}));
  EXPECT_EQ(mapped.Resolve("orders.us").tables, (std::vector<catalog::TableIdentifier>{{{"shop"}, "orders"}}));
  // The whole value must match.
  EXPECT_EQ(mapped.Resolve("xclicks").reason, "route: no route matches 'xclicks'");
}

TEST(Route, FieldValuesComeFromTheJsonValue) {
  RouteValueReader reader({.kind = RouteValueSource::Kind::kField, .field = "kind"});
  EXPECT_EQ(*reader.Read("t", R"({"a":1,"kind":"click"})", false), "click");
  EXPECT_EQ(*reader.Read("t", R"({"kind":42})", false), "42");
  EXPECT_EQ(reader.Read("t", R"({"a":1})", false).error().message(), "route: the value has no field 'kind'");
  EXPECT_EQ(reader.Read("t", R"({"kind":null})", false).error().message(), "route: field 'kind' is null, not a string");
  EXPECT_EQ(reader.Read("t", R"({"kind":{"x":1}})", false).error().message(),
            "route: field 'kind' is not a string or an integer");
  EXPECT_EQ(reader.Read("t", "[1,2]", false).error().message(), "route: the value is not a JSON object");
  EXPECT_EQ(reader.Read("t", "", true).error().message(), "route: a null value has no field 'kind'");
  EXPECT_FALSE(reader.Read("t", "{\"kind\":\"cl", false));        // Truncated.
  EXPECT_FALSE(reader.Read("t", std::string(3, '\xff'), false));  // Garbage.
  std::string deep = fmt::format("{}{}", std::string(5000, '['), std::string(5000, ']'));
  EXPECT_FALSE(reader.Read("t", deep, false));  // Deep nesting: refused by the parser's depth limit, no crash.
  RouteValueReader topics({});
  EXPECT_EQ(*topics.Read("orders", "not json", false), "orders");
}

}  // namespace
}  // namespace floe::stream
