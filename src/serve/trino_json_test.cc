// Values and types as Trino's client protocol carries them: rows are JSON arrays of their field
// values (names travel in the typeSignature), nested rows nest, null fields are JSON null.
#include "serve/trino_json.h"

#include <gtest/gtest.h>

namespace floe::serve {
namespace {

using sql::RowField;
using sql::SqlType;
using sql::Value;

TEST(TrinoJson, RowsAreArraysOfTheirFields) {
  SqlType geo = SqlType::Row({RowField{"lat", SqlType::Double()}, RowField{"lon", SqlType::Double()}});
  SqlType payload = SqlType::Row({RowField{"customer", SqlType::Varchar()}, RowField{"geo", geo}});
  Value v = Value::Row(payload, {Value::String(SqlType::Varchar(), "ann"),
                                 Value::Row(geo, {Value::Double(SqlType::Double(), 1.5), Value::Null(SqlType::Double())})});
  EXPECT_EQ(TrinoValue(v).dump(), R"(["ann",[1.5,null]])");
  EXPECT_TRUE(TrinoValue(Value::Null(payload)).is_null());
  nlohmann::json column = TrinoColumn("payload", payload);
  EXPECT_EQ(column["type"], "row(customer varchar, geo row(lat double, lon double))");
  EXPECT_EQ(column["typeSignature"]["rawType"], "row");
  EXPECT_EQ(column["typeSignature"]["arguments"][0]["value"]["fieldName"]["name"], "customer");
}

// Arrays are JSON arrays and maps JSON objects keyed by the key's text, as Trino's client
// protocol carries them; the typeSignature names the element, key and value types.
TEST(TrinoJson, ArraysAndMaps) {
  SqlType ints = SqlType::Array(SqlType::Bigint());
  Value array = Value::Array(ints, {Value::Int(SqlType::Bigint(), 1), Value::Null(SqlType::Bigint())});
  EXPECT_EQ(TrinoValue(array).dump(), "[1,null]");
  SqlType map_type = SqlType::Map(SqlType::Bigint(), ints);
  Value map = Value::Map(
      map_type, {Value::Int(SqlType::Bigint(), 7), array, Value::Int(SqlType::Bigint(), 8), Value::Null(ints)});
  EXPECT_EQ(TrinoValue(map).dump(), R"({"7":[1,null],"8":null})");
  nlohmann::json column = TrinoColumn("m", map_type);
  EXPECT_EQ(column["type"], "map(bigint, array(bigint))");
  EXPECT_EQ(column["typeSignature"]["rawType"], "map");
  EXPECT_EQ(column["typeSignature"]["arguments"][1]["value"]["rawType"], "array");
}

}  // namespace
}  // namespace floe::serve
