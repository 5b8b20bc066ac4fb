#include "stream/table_setup.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

namespace floe::stream {
namespace {

// "name:type" of each column, in order.
std::string Columns(const iceberg::Schema& schema) {
  std::string out;
  for (const iceberg::NestedField& f : schema.fields()) {
    out += fmt::format("{}{}:{}{}", out.empty() ? "" : " ", f.name, f.type->ToString(), f.required ? "!" : "");
  }
  return out;
}

TEST(TableSetup, JsonFirstRecordGivesOneOptionalColumnPerScalarKey) {
  auto schema = SchemaOfJsonValue(R"({"b":1,"a":"x","c":true,"d":1.5,"n":null,"o":{"k":1},"l":[1]})",
                                  formats::EpochUnit::kMillis);
  ASSERT_TRUE(schema) << schema.error().message();
  EXPECT_EQ(Columns(*schema), "a:string b:long c:boolean d:double");
}

TEST(TableSetup, JsonFirstRecordWithoutColumnsOrNotJsonIsRefused) {
  const auto unit = formats::EpochUnit::kMillis;
  EXPECT_EQ(SchemaOfJsonValue("{}", unit).error().message(), "the first record has no key a column can be made from");
  EXPECT_EQ(SchemaOfJsonValue(R"({"n":null,"o":{}})", unit).error().message(),
            "the first record has no key a column can be made from");
  EXPECT_FALSE(SchemaOfJsonValue("not json", unit));        // Garbage.
  EXPECT_FALSE(SchemaOfJsonValue(R"({"a":"trunc)", unit));  // Truncated.
  EXPECT_FALSE(SchemaOfJsonValue("[1,2]", unit));           // Not an object.
  std::string deep = fmt::format("{{\"a\":{}1{}}}", std::string(5000, '['), std::string(5000, ']'));
  EXPECT_FALSE(SchemaOfJsonValue(deep, unit));  // Deep nesting: refused, no crash.
}

}  // namespace
}  // namespace floe::stream
