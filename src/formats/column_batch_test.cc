#include "formats/column_batch.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace floe::formats {
namespace {

// id bigint, name string (with a null), tags list<string>, point struct<x int>.
ColumnBatch SampleBatch() {
  std::vector<Field> fields = {
      {"id", 1, false, Primitive(TypeId::kInt64)},
      {"name", 2, true, Primitive(TypeId::kString)},
      {"tags", 3, true, ListType({"element", 4, true, Primitive(TypeId::kString)})},
      {"point", 5, true, StructType({{"x", 6, true, Primitive(TypeId::kInt32)}})},
  };
  ColumnBatch b = MakeEmptyBatch(fields);
  for (int64_t row = 0; row < 5; ++row) {
    b.columns[0].Append<int64_t>(row * 10);
    if (row == 2) {
      b.columns[1].AppendNull();
    } else {
      b.columns[1].AppendString(fmt::format("name{}", row));
    }
    for (int64_t t = 0; t < row; ++t) b.columns[2].children[0].AppendString(fmt::format("t{}{}", row, t));
    b.columns[2].AppendListEnd();
    b.columns[3].children[0].Append<int32_t>(static_cast<int32_t>(row));
    b.columns[3].AppendStructSlot();
  }
  b.num_rows = 5;
  return b;
}

TEST(SliceBatch, CopiesTheRowsOfEveryColumnWithRebasedOffsets) {
  ColumnBatch b = SampleBatch();
  ColumnBatch s = SliceBatch(b, 2, 2);  // Rows 2 and 3.
  ASSERT_EQ(s.num_rows, 2);
  ASSERT_EQ(s.fields.size(), 4u);
  EXPECT_EQ(s.columns[0].Data<int64_t>()[0], 20);
  EXPECT_EQ(s.columns[0].Data<int64_t>()[1], 30);
  EXPECT_FALSE(s.columns[1].IsValid(0));
  EXPECT_TRUE(s.columns[1].IsValid(1));
  EXPECT_EQ(s.columns[1].StringAt(1), "name3");
  EXPECT_EQ(s.columns[1].offsets.front(), 0);
  const ColumnVector& tags = s.columns[2];
  ASSERT_EQ(tags.offsets.size(), 3u);
  EXPECT_EQ(tags.offsets[0], 0);
  EXPECT_EQ(tags.offsets[1], 2);  // Row 2 has two tags,
  EXPECT_EQ(tags.offsets[2], 5);  // row 3 three.
  EXPECT_EQ(tags.children[0].length, 5);
  EXPECT_EQ(tags.children[0].StringAt(0), "t20");
  EXPECT_EQ(tags.children[0].StringAt(4), "t32");
  EXPECT_EQ(s.columns[3].children[0].length, 2);
  EXPECT_EQ(s.columns[3].children[0].Data<int32_t>()[1], 3);
}

TEST(SliceBatch, EmptyAndWholeRanges) {
  ColumnBatch b = SampleBatch();
  ColumnBatch none = SliceBatch(b, 5, 0);
  EXPECT_EQ(none.num_rows, 0);
  EXPECT_EQ(none.columns[1].offsets.size(), 1u);
  EXPECT_EQ(none.columns[2].children[0].length, 0);
  ColumnBatch all = SliceBatch(b, 0, 5);
  EXPECT_EQ(all.columns[1].StringAt(4), "name4");
  EXPECT_EQ(all.columns[2].children[0].length, 10);
  EXPECT_EQ(all.columns[1].validity, b.columns[1].validity);
}

// Rows out of order and repeated: every column, nested ones included, holds exactly those rows.
TEST(GatherRows, TakesTheChosenRowsInOrderFromEveryKindOfColumn) {
  ColumnBatch b = SampleBatch();
  const uint32_t rows[] = {4, 2, 2, 0, 3};
  std::vector<ColumnVector> g;
  for (const ColumnVector& c : b.columns) g.push_back(GatherRows(c, rows, 5));
  for (int i = 0; i < 5; ++i) {
    const auto r = static_cast<int64_t>(rows[i]);
    EXPECT_EQ(g[0].Data<int64_t>()[i], r * 10);
    EXPECT_EQ(g[1].IsValid(i), r != 2);
    if (r != 2) {
      EXPECT_EQ(g[1].StringAt(i), fmt::format("name{}", r));
    }
    ASSERT_EQ(g[2].offsets[i + 1] - g[2].offsets[i], r) << "row " << r << " has " << r << " tags";
    for (int64_t t = 0; t < r; ++t) EXPECT_EQ(g[2].children[0].StringAt(g[2].offsets[i] + t), fmt::format("t{}{}", r, t));
    EXPECT_EQ(g[3].children[0].Data<int32_t>()[i], r);
  }
  EXPECT_EQ(g[2].children[0].length, 4 + 2 + 2 + 0 + 3);
  ColumnVector empties(Primitive(TypeId::kString));
  empties.AppendString("");
  empties.AppendString("");
  const uint32_t twice[] = {1, 0};
  ColumnVector gathered = GatherRows(empties, twice, 2);
  EXPECT_EQ(gathered.length, 2);
  EXPECT_EQ(gathered.StringAt(0), "");
  ColumnVector none = GatherRows(b.columns[2], rows, 0);
  EXPECT_EQ(none.length, 0);
  EXPECT_EQ(none.offsets.size(), 1u);
}

TEST(SameSlots, ComparesValidityValuesOffsetsAndChildren) {
  const ColumnBatch a = SampleBatch();
  for (size_t c = 0; c < a.columns.size(); ++c) EXPECT_TRUE(SameSlots(a.columns[c], SampleBatch().columns[c]));
  ColumnBatch b = SampleBatch();
  b.columns[0].MutableData<int64_t>()[4] = 41;
  EXPECT_FALSE(SameSlots(a.columns[0], b.columns[0]));
  b = SampleBatch();
  b.columns[0].AppendNull();
  ColumnBatch longer = SampleBatch();
  longer.columns[0].Append<int64_t>(0);
  EXPECT_FALSE(SameSlots(longer.columns[0], b.columns[0])) << "a null and a zero have the same bytes";
  ColumnVector all_valid = a.columns[1];
  all_valid.validity.clear();
  EXPECT_FALSE(SameSlots(a.columns[1], all_valid));
  b = SampleBatch();
  b.columns[2].children[0].MutableData<char>()[0] = 'x';
  EXPECT_FALSE(SameSlots(a.columns[2], b.columns[2]));
  b = SampleBatch();
  b.columns[3].children[0].MutableData<int32_t>()[1] = 7;
  EXPECT_FALSE(SameSlots(a.columns[3], b.columns[3]));
}

}  // namespace
}  // namespace floe::formats
