// Key encoding of nested values: equal exactly when the values are (NULL elements equal, as
// grouping wants; NULL and '' apart; maps in any entry order), and decoded back unchanged.
#include "sql/execution/key_table.h"

#include <gtest/gtest.h>

namespace floe::sql {
namespace {

const SqlType kPoint = SqlType::Row({RowField{"x", SqlType::Bigint()}, RowField{"label", SqlType::Varchar()}});
const SqlType kPoints = SqlType::Array(kPoint);
const SqlType kTags = SqlType::Map(SqlType::Varchar(), SqlType::Bigint());

Value Point(std::optional<int64_t> x, std::optional<std::string> label) {
  return Value::Row(kPoint, {x ? Value::Int(SqlType::Bigint(), *x) : Value::Null(SqlType::Bigint()),
                             label ? Value::String(SqlType::Varchar(), *label) : Value::Null(SqlType::Varchar())});
}

Value Tags(std::vector<std::pair<std::string, int64_t>> entries) {
  std::vector<Value> keys_and_values;
  for (auto& [key, value] : entries) {
    keys_and_values.push_back(Value::String(SqlType::Varchar(), key));
    keys_and_values.push_back(Value::Int(SqlType::Bigint(), value));
  }
  return Value::Map(kTags, std::move(keys_and_values));
}

VectorPtr VectorOf(const SqlType& type, const std::vector<Value>& values) {
  MutableVectorPtr v = NewVector(type);
  for (const Value& value : values) AppendValue(*v, value);
  return v;
}

std::vector<std::string> Keys(const std::vector<VectorPtr>& columns, int64_t rows) {
  std::vector<const ColumnVector*> raw;
  for (const auto& c : columns) raw.push_back(c.get());
  KeyEncoder encoder;
  encoder.Encode(raw, rows);
  std::vector<std::string> keys;
  for (int64_t i = 0; i < rows; ++i) {
    keys.emplace_back(encoder.key(i));
    std::string one;
    KeyEncoder::EncodeRow(raw, i, &one);
    EXPECT_EQ(one, keys.back()) << "row " << i << ": EncodeRow differs from Encode";
  }
  return keys;
}

TEST(NestedKeys, RowsAreEqualExactlyWhenTheirFieldsAre) {
  std::vector<Value> rows = {
      Point(1, "a"),       Point(1, "a"), Point(1, ""), Point(1, std::nullopt), Point(std::nullopt, std::nullopt),
      Value::Null(kPoint), Point(2, "a")};
  auto keys = Keys({VectorOf(kPoint, rows)}, static_cast<int64_t>(rows.size()));
  EXPECT_EQ(keys[0], keys[1]);
  for (size_t i = 1; i < keys.size(); ++i) {
    for (size_t j = i + 1; j < keys.size(); ++j) EXPECT_NE(keys[i], keys[j]) << i << " vs " << j;
  }
}

TEST(NestedKeys, ArraysOfRowsTellNullEmptyAndNullElementsApart) {
  std::vector<Value> rows = {Value::Array(kPoints, {Point(1, "a"), Point(2, "b")}),
                             Value::Array(kPoints, {Point(1, "a"), Point(2, "b")}),
                             Value::Array(kPoints, {Point(2, "b"), Point(1, "a")}),
                             Value::Array(kPoints, {}),
                             Value::Null(kPoints),
                             Value::Array(kPoints, {Value::Null(kPoint)}),
                             Value::Array(kPoints, {Point(std::nullopt, std::nullopt)})};
  auto keys = Keys({VectorOf(kPoints, rows)}, static_cast<int64_t>(rows.size()));
  EXPECT_EQ(keys[0], keys[1]);
  for (size_t i = 1; i < keys.size(); ++i) {
    for (size_t j = i + 1; j < keys.size(); ++j) EXPECT_NE(keys[i], keys[j]) << i << " vs " << j;
  }
}

TEST(NestedKeys, MapsAreEqualWhateverTheOrderOfTheirEntries) {
  std::vector<Value> rows = {Tags({{"a", 1}, {"b", 2}}), Tags({{"b", 2}, {"a", 1}}), Tags({{"a", 1}}),
                             Tags({{"a", 2}, {"b", 1}}), Tags({})};
  auto keys = Keys({VectorOf(kTags, rows)}, static_cast<int64_t>(rows.size()));
  EXPECT_EQ(keys[0], keys[1]);
  EXPECT_NE(keys[0], keys[2]);
  EXPECT_NE(keys[0], keys[3]);
  EXPECT_NE(keys[2], keys[4]);
}

TEST(NestedKeys, DecodeGivesBackEveryDistinctValueBesideScalarColumns) {
  std::vector<Value> points = {Value::Array(kPoints, {Point(1, "a"), Value::Null(kPoint)}), Value::Null(kPoints),
                               Value::Array(kPoints, {}), Value::Array(kPoints, {Point(1, "a"), Value::Null(kPoint)})};
  std::vector<Value> labels = {Value::String(SqlType::Varchar(), "x"), Value::Null(SqlType::Varchar()),
                               Value::String(SqlType::Varchar(), ""), Value::String(SqlType::Varchar(), "x")};
  std::vector<Value> tags = {Tags({{"k", 7}}), Tags({}), Value::Null(kTags), Tags({{"k", 7}})};
  std::vector<VectorPtr> columns = {VectorOf(SqlType::Varchar(), labels), VectorOf(kPoints, points),
                                    VectorOf(kTags, tags)};
  auto keys = Keys(columns, 4);
  KeyTable table;
  for (const std::string& key : keys) {
    bool inserted;
    table.FindOrInsert(key, HashKey(key), inserted);
  }
  ASSERT_EQ(table.size(), 3u);  // Rows 0 and 3 are one key.
  auto decoded = DecodeKeys(table, {SqlType::Varchar(), kPoints, kTags});
  ASSERT_EQ(decoded.size(), 3u);
  for (int64_t id = 0; id < 3; ++id) {
    auto row = static_cast<size_t>(id);
    EXPECT_TRUE(GetValue(*decoded[0], SqlType::Varchar(), id) == labels[row]) << "key " << id;
    EXPECT_TRUE(GetValue(*decoded[1], kPoints, id) == points[row]) << "key " << id;
    EXPECT_TRUE(GetValue(*decoded[2], kTags, id) == tags[row]) << "key " << id;
  }
}

}  // namespace
}  // namespace floe::sql
