// Page skipping: SelectRows turns the page index of the predicates' columns into row ranges,
// and a row group opened on those ranges returns exactly those rows (stepping over whole pages
// without decompressing them), for pages v1 and v2, nullable and dictionary-coded columns.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include <fmt/format.h>

#include "formats/parquet/file_reader.h"
#include "formats/parquet/file_writer.h"
#include "formats/parquet/local_file.h"

namespace floe::parquet {
namespace {

using formats::ColumnBatch;
using formats::ColumnVector;
using formats::Field;
using formats::TypeId;

Field F(std::string name, int id, TypeId type, bool nullable = true) {
  Field f;
  f.name = std::move(name);
  f.id = id;
  f.nullable = nullable;
  f.type = formats::Primitive(type);
  return f;
}

// `rows` events: ts ascending (one per second from 0), a low-cardinality region, a nullable
// amount that is null over rows [2000, 3000) and on every 13th row, and an id.
ColumnBatch Events(int64_t rows) {
  std::vector<Field> fields{F("ts", 1, TypeId::kTimestampTz, false), F("region", 2, TypeId::kString), F("amount", 3, TypeId::kDouble),
                            F("id", 4, TypeId::kString, false)};
  ColumnBatch b = formats::MakeEmptyBatch(fields);
  const char* regions[] = {"eu", "us", "ap"};
  for (int64_t i = 0; i < rows; ++i) {
    b.columns[0].Append<int64_t>(i * 1000000);
    b.columns[1].AppendString(regions[(i / 7) % 3]);
    if ((i >= 2000 && i < 3000) || i % 13 == 0) {
      b.columns[2].AppendNull();
    } else {
      b.columns[2].Append<double>(static_cast<double>(i) / 4);
    }
    b.columns[3].AppendString("event-" + std::to_string(i));
  }
  b.num_rows = rows;
  return b;
}

std::string Write(const ColumnBatch& batch, bool v2, bool page_index) {
  WriterOptions o;
  o.page_bytes = 1024;
  o.data_page_v2 = v2;
  o.page_index = page_index;
  std::string bytes;
  auto w = FileWriter::Open(std::make_unique<MemoryOutputStream>(&bytes), batch.fields, o);
  EXPECT_TRUE(w.has_value()) << w.error().ToString();
  EXPECT_TRUE((*w)->Write(batch).has_value());
  EXPECT_TRUE((*w)->Close().has_value());
  return bytes;
}

ColumnPredicate Pred(std::string column, ColumnPredicate::Op op, std::variant<int64_t, double, std::string> value) {
  ColumnPredicate p;
  p.column = std::move(column);
  p.op = op;
  p.value = std::move(value);
  return p;
}

bool SameSlot(const ColumnVector& a, int64_t i, const ColumnVector& b, int64_t j) {
  if (a.IsValid(i) != b.IsValid(j)) return false;
  if (!a.IsValid(i)) return true;
  if (a.type().HasOffsets()) return a.StringAt(i) == b.StringAt(j);
  return a.FixedAt(i) == b.FixedAt(j);
}

// Reads `ranges` of row group 0 in batches of `batch_rows` and checks every row against the
// whole row group read without ranges.
void ExpectRangesRead(const FileReader& reader, const std::vector<RowRange>& ranges, int64_t batch_rows, int64_t* pages_skipped) {
  auto whole = reader.ReadRowGroup(0);
  ASSERT_TRUE(whole.has_value()) << whole.error().ToString();
  auto stream = reader.OpenRowGroup(0, {0, 1, 2, 3}, ranges);
  ASSERT_TRUE(stream.has_value()) << stream.error().ToString();
  std::vector<int64_t> expected_rows;
  for (const RowRange& r : ranges) {
    for (int64_t i = r.begin; i < r.end; ++i) expected_rows.push_back(i);
  }
  size_t at = 0;
  while (true) {
    auto next = (*stream)->Next(batch_rows);
    ASSERT_TRUE(next.has_value()) << next.error().ToString();
    if (!*next) break;
    const ColumnBatch& part = **next;
    ASSERT_LE(part.num_rows, batch_rows);
    for (int64_t r = 0; r < part.num_rows; ++r, ++at) {
      ASSERT_LT(at, expected_rows.size());
      for (size_t c = 0; c < 4; ++c) {
        ASSERT_TRUE(SameSlot(whole->columns[c], expected_rows[at], part.columns[c], r))
            << "column " << c << " row " << expected_rows[at] << " batch " << batch_rows;
      }
    }
  }
  EXPECT_EQ(at, expected_rows.size());
  *pages_skipped = (*stream)->pages_skipped();
}

TEST(PageSkipping, TimeRangeSelectsFewPagesAndReadsExactlyThoseRows) {
  ColumnBatch events = Events(6000);
  for (bool v2 : {false, true}) {
    std::string bytes = Write(events, v2, true);
    auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes, "events.parquet"));
    ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
    ASSERT_EQ((*reader)->num_row_groups(), 1);
    // ts in [3000 s, 3100 s): a few pages of ts.
    auto ranges = (*reader)->SelectRows(0, {Pred("ts", ColumnPredicate::Op::kGe, int64_t{3000} * 1000000),
                                            Pred("ts", ColumnPredicate::Op::kLt, int64_t{3100} * 1000000)});
    ASSERT_TRUE(ranges.has_value()) << ranges.error().ToString();
    ASSERT_FALSE(ranges->empty());
    EXPECT_LE(ranges->front().begin, 3000);
    EXPECT_GE(ranges->back().end, 3100);
    int64_t selected = 0;
    for (const RowRange& r : *ranges) selected += r.end - r.begin;
    EXPECT_LT(selected, 1000) << "the page index narrows 6000 rows to a few pages";
    for (int64_t batch_rows : {int64_t{1}, int64_t{50}, int64_t{4096}}) {
      int64_t skipped = 0;
      ExpectRangesRead(**reader, *ranges, batch_rows, &skipped);
      EXPECT_GT(skipped, 0);
    }
    // Nothing matches past the end; IS NULL only where nulls are.
    auto none = (*reader)->SelectRows(0, {Pred("ts", ColumnPredicate::Op::kGt, int64_t{7000} * 1000000)});
    ASSERT_TRUE(none.has_value());
    EXPECT_TRUE(none->empty());
    auto null_ts = (*reader)->SelectRows(0, {Pred("ts", ColumnPredicate::Op::kIsNull, int64_t{0})});
    ASSERT_TRUE(null_ts.has_value());
    EXPECT_TRUE(null_ts->empty()) << "every page of ts counts no nulls";
    auto null_amount = (*reader)->SelectRows(0, {Pred("amount", ColumnPredicate::Op::kIsNull, int64_t{0})});
    ASSERT_TRUE(null_amount.has_value());
    EXPECT_EQ(*null_amount, (std::vector<RowRange>{RowRange{0, 6000}})) << "every page of amount has a null";
  }
}

TEST(PageSkipping, AnyRangesReadTheirRowsAcrossPageBoundaries) {
  ColumnBatch events = Events(5000);
  std::mt19937_64 rng(7);
  for (bool v2 : {false, true}) {
    std::string bytes = Write(events, v2, true);
    auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes, "events.parquet"));
    ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<RowRange> ranges;
      int64_t at = static_cast<int64_t>(rng() % 300);
      while (at < 5000) {
        int64_t end = std::min<int64_t>(5000, at + 1 + static_cast<int64_t>(rng() % 700));
        ranges.push_back(RowRange{at, end});
        at = end + 1 + static_cast<int64_t>(rng() % 900);
      }
      int64_t skipped = 0;
      ExpectRangesRead(**reader, ranges, 1 + static_cast<int64_t>(rng() % 600), &skipped);
    }
  }
}

// A dictionary-coded string column's page bounds come from the entries each page used (not the
// whole dictionary, nor only entries new to the page): codes that cycle through the file let an
// equality select only the pages holding that code, each time it comes back.
TEST(PageSkipping, DictionaryStringPagesBoundOnlyTheirOwnValues) {
  std::vector<Field> fields{F("code", 1, TypeId::kString, false)};
  ColumnBatch batch = formats::MakeEmptyBatch(fields);
  const int64_t rows = 12000;
  auto code = [](int64_t row) { return fmt::format("k{:02}", (row / 500) % 6); };
  for (int64_t i = 0; i < rows; ++i) batch.columns[0].AppendString(code(i));
  batch.num_rows = rows;
  for (bool v2 : {false, true}) {
    std::string bytes = Write(batch, v2, true);
    auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes, "codes.parquet"));
    ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
    auto ranges = (*reader)->SelectRows(0, {Pred("code", ColumnPredicate::Op::kEq, std::string("k05"))});
    ASSERT_TRUE(ranges.has_value()) << ranges.error().ToString();
    int64_t selected = 0;
    for (const RowRange& r : *ranges) selected += r.end - r.begin;
    EXPECT_LT(selected, rows * 2 / 3) << "pages without k05 were selected";
    for (int64_t row = 0; row < rows; ++row) {
      if (code(row) != "k05") continue;
      bool inside = std::any_of(ranges->begin(), ranges->end(), [&](const RowRange& r) { return row >= r.begin && row < r.end; });
      ASSERT_TRUE(inside) << "row " << row << " holds k05 but was not selected";
    }
  }
}

// A column of a few distinct values encodes to a handful of bytes per page, so pages close on
// their value count (WriterOptions::page_values), not their size: the page index still narrows
// a scan, and the open page's dictionary codes stay small while it is built.
TEST(PageSkipping, PagesOfFewDistinctValuesCloseOnTheirValueCount) {
  std::vector<Field> fields{F("status", 1, TypeId::kString, false)};
  ColumnBatch batch = formats::MakeEmptyBatch(fields);
  const int64_t rows = 200000;
  for (int64_t i = 0; i < rows; ++i) batch.columns[0].AppendString(i >= 190000 ? "refunded" : i % 2 ? "created" : "paid");
  batch.num_rows = rows;
  WriterOptions o;  // The defaults: 1 MiB pages of at least 20,000 values.
  std::string bytes;
  auto w = FileWriter::Open(std::make_unique<MemoryOutputStream>(&bytes), batch.fields, o);
  ASSERT_TRUE(w.has_value()) << w.error().ToString();
  ASSERT_TRUE((*w)->Write(batch).has_value());
  ASSERT_TRUE((*w)->Close().has_value());
  auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes, "status.parquet"));
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  auto ranges = (*reader)->SelectRows(0, {Pred("status", ColumnPredicate::Op::kEq, std::string("refunded"))});
  ASSERT_TRUE(ranges.has_value()) << ranges.error().ToString();
  int64_t selected = 0;
  for (const RowRange& r : *ranges) {
    selected += r.end - r.begin;
    EXPECT_GE(r.begin, 190000 - 2 * 20000) << "a page well before the refunds was selected";
  }
  EXPECT_GE(selected, 10000);
}

// Late materialization: the filter column is decoded first; batches where no row can match
// are never returned and the other columns step over them.
TEST(PageSkipping, FilterColumnsFirstSkipBatchesWithoutAMatch) {
  ColumnBatch events = Events(6000);
  std::string bytes = Write(events, false, true);
  auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes, "events.parquet"));
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  struct Case {
    std::vector<ColumnPredicate> filter;
    std::vector<int64_t> batches_with;  // First rows of the batches (of 100) that must come back.
  };
  std::vector<Case> cases;
  cases.push_back({{Pred("id", ColumnPredicate::Op::kEq, std::string("event-4321"))}, {4300}});
  cases.push_back({{Pred("region", ColumnPredicate::Op::kEq, std::string("nowhere"))}, {}});
  cases.push_back({{Pred("amount", ColumnPredicate::Op::kGe, 1400.0), Pred("amount", ColumnPredicate::Op::kLt, 1425.0)}, {5600}});
  cases.push_back({{Pred("ts", ColumnPredicate::Op::kGt, int64_t{5950} * 1000000), Pred("amount", ColumnPredicate::Op::kIsNull, int64_t{0})},
                   {5900}});
  for (const Case& c : cases) {
    auto whole = (*reader)->ReadRowGroup(0);
    ASSERT_TRUE(whole.has_value());
    auto stream = (*reader)->OpenRowGroup(0, {0, 1, 2, 3});
    ASSERT_TRUE(stream.has_value());
    (*stream)->SetFilter(c.filter);
    std::vector<int64_t> firsts;
    while (true) {
      auto next = (*stream)->Next(100);
      ASSERT_TRUE(next.has_value()) << next.error().ToString();
      if (!*next) break;
      const ColumnBatch& part = **next;
      int64_t first = part.columns[0].Data<int64_t>()[0] / 1000000;  // ts is the row number in seconds.
      firsts.push_back(first);
      for (int64_t r = 0; r < part.num_rows; ++r) {
        for (size_t col = 0; col < 4; ++col) ASSERT_TRUE(SameSlot(whole->columns[col], first + r, part.columns[col], r));
      }
    }
    EXPECT_EQ(firsts, c.batches_with) << c.filter[0].column;
    EXPECT_EQ((*stream)->rows_filtered(), 6000 - 100 * static_cast<int64_t>(c.batches_with.size()));
    EXPECT_GT((*stream)->pages_skipped(), 0);
  }
}

TEST(PageSkipping, WithoutAPageIndexEveryRowIsSelected) {
  std::string bytes = Write(Events(3000), false, false);
  auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes, "events.parquet"));
  ASSERT_TRUE(reader.has_value());
  auto ranges = (*reader)->SelectRows(0, {Pred("ts", ColumnPredicate::Op::kGe, int64_t{2900} * 1000000)});
  ASSERT_TRUE(ranges.has_value());
  EXPECT_EQ(*ranges, (std::vector<RowRange>{RowRange{0, 3000}}));
}

TEST(PageSkipping, BadRangesAreRefused) {
  std::string bytes = Write(Events(100), false, true);
  auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes, "events.parquet"));
  ASSERT_TRUE(reader.has_value());
  for (const std::vector<RowRange>& bad : {std::vector<RowRange>{RowRange{5, 5}}, std::vector<RowRange>{RowRange{0, 101}},
                                           std::vector<RowRange>{RowRange{10, 20}, RowRange{15, 30}}}) {
    auto stream = (*reader)->OpenRowGroup(0, {0}, bad);
    EXPECT_FALSE(stream.has_value());
  }
}

// A page index pointing outside the file, or disagreeing with itself, is a corruption error
// naming the file, the column and the row group; it never crashes.
TEST(PageSkipping, HostilePageIndexGivesAClearError) {
  std::string bytes = Write(Events(3000), false, true);
  uint32_t footer_len;
  std::memcpy(&footer_len, bytes.data() + bytes.size() - 8, 4);
  std::string body = bytes.substr(0, bytes.size() - 8 - footer_len);
  auto metadata = DecodeFileMetaData(std::string_view(bytes).substr(bytes.size() - 8 - footer_len, footer_len));
  ASSERT_TRUE(metadata.has_value());
  auto rebuild = [&](const FileMetaData& m) {
    std::string footer;
    EncodeFileMetaData(m, &footer);
    std::string out = body + footer;
    auto len = static_cast<uint32_t>(footer.size());
    out.append(reinterpret_cast<const char*>(&len), 4);
    out += "PAR1";
    return out;
  };
  std::vector<FileMetaData> hostile;
  FileMetaData past_end = *metadata;
  past_end.row_groups[0].columns[0].column_index_offset = static_cast<int64_t>(bytes.size());
  hostile.push_back(past_end);
  FileMetaData huge = *metadata;
  huge.row_groups[0].columns[0].offset_index_length = INT32_MAX;
  hostile.push_back(huge);
  FileMetaData shifted = *metadata;  // The offset index read as a column index: garbage.
  shifted.row_groups[0].columns[0].column_index_offset = shifted.row_groups[0].columns[0].offset_index_offset;
  shifted.row_groups[0].columns[0].column_index_length = shifted.row_groups[0].columns[0].offset_index_length;
  hostile.push_back(shifted);
  FileMetaData swapped = *metadata;  // Another column's index: page counts disagree.
  swapped.row_groups[0].columns[0].offset_index_offset = swapped.row_groups[0].columns[3].offset_index_offset;
  swapped.row_groups[0].columns[0].offset_index_length = swapped.row_groups[0].columns[3].offset_index_length;
  hostile.push_back(swapped);
  int errors = 0;
  for (const FileMetaData& m : hostile) {
    std::string file = rebuild(m);
    auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(file, "hostile.parquet"));
    ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
    auto ranges = (*reader)->SelectRows(0, {Pred("ts", ColumnPredicate::Op::kGe, int64_t{5})});
    if (ranges.has_value()) {
      // A garbage index that still decodes must at least stay inside the row group.
      for (const RowRange& r : *ranges) EXPECT_TRUE(r.begin >= 0 && r.end <= 3000 && r.begin < r.end);
      continue;
    }
    ++errors;
    std::string message = ranges.error().ToString();
    EXPECT_NE(message.find("hostile.parquet"), std::string::npos) << message;
    EXPECT_NE(message.find("'ts'"), std::string::npos) << message;
    EXPECT_NE(message.find("row group 0"), std::string::npos) << message;
  }
  EXPECT_GE(errors, 3) << "the index past the end, the oversized one and the mismatched page counts are errors";
}

}  // namespace
}  // namespace floe::parquet
