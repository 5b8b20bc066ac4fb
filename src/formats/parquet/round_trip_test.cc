// Writer -> reader round trips over every type, encoding option, page version and codec, with
// nulls, empty strings, NaN and extremes; plus hostile-file tests on what the writer produced.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "formats/parquet/file_reader.h"
#include "formats/parquet/file_writer.h"
#include "formats/parquet/local_file.h"

namespace floe::parquet {
namespace {

using formats::ColumnBatch;
using formats::ColumnVector;
using formats::DataType;
using formats::Field;
using formats::TypeId;

Field F(std::string name, int id, DataType type, bool nullable = true) {
  Field f;
  f.name = std::move(name);
  f.id = id;
  f.nullable = nullable;
  f.type = std::move(type);
  return f;
}

std::vector<Field> AllTypes() {
  using formats::Primitive;
  std::vector<Field> f;
  f.push_back(F("b", 1, Primitive(TypeId::kBoolean)));
  f.push_back(F("i", 2, Primitive(TypeId::kInt32)));
  f.push_back(F("l", 3, Primitive(TypeId::kInt64), false));
  f.push_back(F("f", 4, Primitive(TypeId::kFloat)));
  f.push_back(F("d", 5, Primitive(TypeId::kDouble)));
  f.push_back(F("dec9", 6, formats::DecimalType(9, 2)));
  f.push_back(F("dec18", 7, formats::DecimalType(18, 4)));
  f.push_back(F("dec38", 8, formats::DecimalType(38, 10)));
  f.push_back(F("date", 9, Primitive(TypeId::kDate)));
  f.push_back(F("time", 10, Primitive(TypeId::kTime)));
  f.push_back(F("ts", 11, Primitive(TypeId::kTimestamp)));
  f.push_back(F("tstz", 12, Primitive(TypeId::kTimestampTz)));
  f.push_back(F("s", 13, Primitive(TypeId::kString)));
  f.push_back(F("bin", 14, Primitive(TypeId::kBinary)));
  f.push_back(F("fx", 15, formats::FixedType(3)));
  f.push_back(F("u", 16, Primitive(TypeId::kUuid)));
  f.push_back(F("st", 17, formats::StructType({F("x", 18, Primitive(TypeId::kInt32)), F("y", 19, Primitive(TypeId::kString), false)})));
  f.push_back(F("li", 20, formats::ListType(F("element", 21, Primitive(TypeId::kInt64)))));
  f.push_back(F("m", 22, formats::MapType(F("key", 23, Primitive(TypeId::kString), false), F("value", 24, Primitive(TypeId::kDouble)))));
  f.push_back(F("ll", 25, formats::ListType(F("element", 26, formats::ListType(F("element", 27, Primitive(TypeId::kString)))))));
  return f;
}

// Fills `v` (of `type`) with `n` pseudo-random slots, nulls only where `nullable`.
void Fill(ColumnVector* v, const Field& field, int64_t n, std::mt19937_64& rng, int null_pct, int cardinality) {
  const DataType& t = field.type;
  auto is_null = [&] { return field.nullable && static_cast<int>(rng() % 100) < null_pct; };
  auto pick = [&]() -> uint64_t { return cardinality > 0 ? rng() % static_cast<uint64_t>(cardinality) : rng(); };
  for (int64_t i = 0; i < n; ++i) {
    bool null = is_null();
    switch (t.id) {
      case TypeId::kStruct:
        if (null) {
          v->AppendNull();
        } else {
          for (size_t c = 0; c < t.children.size(); ++c) Fill(&v->children[c], t.children[c], 1, rng, null_pct, cardinality);
          v->AppendStructSlot(true);
        }
        continue;
      case TypeId::kList:
      case TypeId::kMap:
        if (null) {
          v->AppendNull();
        } else {
          int64_t k = static_cast<int64_t>(rng() % 4);
          for (size_t c = 0; c < t.children.size(); ++c) Fill(&v->children[c], t.children[c], k, rng, null_pct, cardinality);
          v->AppendListEnd(true);
        }
        continue;
      default:
        break;
    }
    if (null) {
      v->AppendNull();
      continue;
    }
    uint64_t r = pick();
    switch (t.id) {
      case TypeId::kBoolean: v->Append<uint8_t>(r & 1); break;
      case TypeId::kInt32: v->Append<int32_t>(r % 7 == 0 ? INT32_MIN : r % 11 == 0 ? INT32_MAX : static_cast<int32_t>(r)); break;
      case TypeId::kDate: v->Append<int32_t>(static_cast<int32_t>(r % 40000) - 10000); break;
      case TypeId::kInt64: v->Append<int64_t>(r % 13 == 0 ? INT64_MIN : static_cast<int64_t>(r)); break;
      case TypeId::kTime: v->Append<int64_t>(static_cast<int64_t>(r % 86400000000ULL)); break;
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz: v->Append<int64_t>(static_cast<int64_t>(r % 4000000000000000ULL) - 1000000000000000LL); break;
      case TypeId::kFloat: {
        float x = r % 17 == 0 ? std::numeric_limits<float>::quiet_NaN() : r % 19 == 0 ? -0.0f : static_cast<float>(static_cast<int64_t>(r % 2000) - 1000) / 8;
        v->Append<float>(x);
        break;
      }
      case TypeId::kDouble: {
        double x = r % 17 == 0 ? std::numeric_limits<double>::quiet_NaN() : r % 23 == 0 ? std::numeric_limits<double>::infinity() : static_cast<double>(static_cast<int64_t>(r)) / 3;
        v->Append<double>(x);
        break;
      }
      case TypeId::kDecimal: {
        __int128 lim = 1;
        for (int p = 0; p < t.precision; ++p) lim *= 10;
        __int128 x = static_cast<__int128>((static_cast<unsigned __int128>(rng()) << 64) | rng()) % lim;
        if (r % 5 == 0) x = lim - 1;
        if (r % 7 == 0) x = -(lim - 1);
        v->Append<__int128>(x);
        break;
      }
      case TypeId::kString:
      case TypeId::kBinary: {
        std::string s = r % 9 == 0 ? std::string() : "v" + std::to_string(r);
        if (t.id == TypeId::kBinary && r % 3 == 0) s += std::string("\0\xff", 2);
        if (t.id == TypeId::kString && r % 4 == 0) s += "\xc3\xa9";
        v->AppendString(s);
        break;
      }
      case TypeId::kFixed:
      case TypeId::kUuid: {
        int w = t.FixedWidth();
        std::string s(static_cast<size_t>(w), '\0');
        for (int k = 0; k < w; ++k) s[static_cast<size_t>(k)] = static_cast<char>(r >> (k % 8 * 8));
        v->MarkAndAppendFixed(s);
        break;
      }
      default:
        break;
    }
  }
}

ColumnBatch MakeBatch(const std::vector<Field>& fields, int64_t rows, uint64_t seed, int null_pct, int cardinality) {
  std::mt19937_64 rng(seed);
  ColumnBatch batch = formats::MakeEmptyBatch(fields);
  for (size_t i = 0; i < fields.size(); ++i) Fill(&batch.columns[i], fields[i], rows, rng, null_pct, cardinality);
  batch.num_rows = rows;
  return batch;
}

// Compares slot a[i] with b[j] (values of null slots are ignored).
::testing::AssertionResult SlotEqual(const ColumnVector& a, int64_t i, const ColumnVector& b, int64_t j, const std::string& path) {
  if (a.IsValid(i) != b.IsValid(j)) return ::testing::AssertionFailure() << path << " slot " << i << ": validity differs";
  if (!a.IsValid(i)) return ::testing::AssertionSuccess();
  const DataType& t = a.type();
  switch (t.id) {
    case TypeId::kStruct:
      for (size_t c = 0; c < a.children.size(); ++c) {
        auto r = SlotEqual(a.children[c], i, b.children[c], j, path + "." + t.children[c].name);
        if (!r) return r;
      }
      return ::testing::AssertionSuccess();
    case TypeId::kList:
    case TypeId::kMap: {
      int32_t ab = a.offsets[static_cast<size_t>(i)], ae = a.offsets[static_cast<size_t>(i) + 1];
      int32_t bb = b.offsets[static_cast<size_t>(j)], be = b.offsets[static_cast<size_t>(j) + 1];
      if (ae - ab != be - bb) return ::testing::AssertionFailure() << path << " slot " << i << ": lengths " << ae - ab << " vs " << be - bb;
      for (int32_t k = 0; k < ae - ab; ++k) {
        for (size_t c = 0; c < a.children.size(); ++c) {
          auto r = SlotEqual(a.children[c], ab + k, b.children[c], bb + k, path + "[]");
          if (!r) return r;
        }
      }
      return ::testing::AssertionSuccess();
    }
    case TypeId::kString:
    case TypeId::kBinary:
      if (a.StringAt(i) != b.StringAt(j)) return ::testing::AssertionFailure() << path << " slot " << i << ": '" << a.StringAt(i) << "' vs '" << b.StringAt(j) << "'";
      return ::testing::AssertionSuccess();
    case TypeId::kFloat: {
      float x = a.Data<float>()[i], y = b.Data<float>()[j];
      if (!(std::isnan(x) && std::isnan(y)) && std::memcmp(&x, &y, 4) != 0) return ::testing::AssertionFailure() << path << " slot " << i << ": " << x << " vs " << y;
      return ::testing::AssertionSuccess();
    }
    case TypeId::kDouble: {
      double x = a.Data<double>()[i], y = b.Data<double>()[j];
      if (!(std::isnan(x) && std::isnan(y)) && std::memcmp(&x, &y, 8) != 0) return ::testing::AssertionFailure() << path << " slot " << i << ": " << x << " vs " << y;
      return ::testing::AssertionSuccess();
    }
    default: {
      size_t w = static_cast<size_t>(t.FixedWidth());
      if (std::memcmp(a.values.data() + static_cast<size_t>(i) * w, b.values.data() + static_cast<size_t>(j) * w, w) != 0) {
        return ::testing::AssertionFailure() << path << " slot " << i << ": fixed values differ";
      }
      return ::testing::AssertionSuccess();
    }
  }
}

std::string WriteFile(const std::vector<Field>& fields, const std::vector<ColumnBatch>& batches, const WriterOptions& options,
                      FileMetrics* metrics = nullptr) {
  std::string bytes;
  auto w = FileWriter::Open(std::make_unique<MemoryOutputStream>(&bytes), fields, options);
  EXPECT_TRUE(w.has_value()) << w.error().ToString();
  for (const auto& b : batches) {
    auto s = (*w)->Write(b);
    EXPECT_TRUE(s.has_value()) << s.error().ToString();
  }
  auto m = (*w)->Close();
  EXPECT_TRUE(m.has_value()) << m.error().ToString();
  if (metrics && m) *metrics = *m;
  return bytes;
}

void ExpectSameRows(const std::vector<ColumnBatch>& written, const std::string& bytes) {
  auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes, "test.parquet"));
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  // Flatten the written batches' rows and the file's rows and compare field by field.
  std::vector<std::pair<const ColumnBatch*, int64_t>> want;
  for (const auto& b : written) for (int64_t r = 0; r < b.num_rows; ++r) want.push_back({&b, r});
  std::vector<ColumnBatch> got;
  for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
    auto batch = (*reader)->ReadRowGroup(g);
    ASSERT_TRUE(batch.has_value()) << batch.error().ToString();
    got.push_back(std::move(*batch));
  }
  size_t k = 0;
  for (const auto& b : got) {
    for (int64_t r = 0; r < b.num_rows; ++r, ++k) {
      ASSERT_LT(k, want.size());
      for (size_t c = 0; c < b.columns.size(); ++c) {
        auto eq = SlotEqual(want[k].first->columns[c], want[k].second, b.columns[c], r, b.fields[c].name);
        ASSERT_TRUE(eq) << "row " << k;
      }
    }
  }
  EXPECT_EQ(k, want.size());
}

struct Variant {
  Codec codec;
  bool v2;
  bool dictionary;
  bool delta;
  int64_t page_bytes;
  int64_t dictionary_bytes;
};

class RoundTrip : public ::testing::TestWithParam<Variant> {};

TEST_P(RoundTrip, AllTypesWithNullsAndExtremes) {
  Variant v = GetParam();
  WriterOptions o;
  o.codec = v.codec;
  o.data_page_v2 = v.v2;
  o.dictionary = v.dictionary;
  o.delta_integers = v.delta;
  o.page_bytes = v.page_bytes;
  o.dictionary_bytes = v.dictionary_bytes;
  o.row_group_bytes = 64 << 10;
  auto fields = AllTypes();
  std::vector<ColumnBatch> batches;
  batches.push_back(MakeBatch(fields, 3000, 1, 20, 50));
  batches.push_back(MakeBatch(fields, 2500, 2, 0, 0));
  batches.push_back(MakeBatch(fields, 1, 3, 90, 0));
  std::string bytes = WriteFile(fields, batches, o);
  ExpectSameRows(batches, bytes);
}

INSTANTIATE_TEST_SUITE_P(
    Parquet, RoundTrip,
    ::testing::Values(Variant{Codec::kUncompressed, false, true, false, 1 << 20, 1 << 20},
                      Variant{Codec::kSnappy, false, false, false, 4096, 1 << 20},
                      Variant{Codec::kZstd, true, true, false, 8192, 2048},  // Dictionary fallback.
                      Variant{Codec::kGzip, true, false, true, 1 << 20, 1 << 20},
                      Variant{Codec::kLz4Raw, false, false, true, 2000, 1 << 20},
                      Variant{Codec::kBrotli, true, true, false, 1 << 20, 1 << 20},
                      Variant{Codec::kUncompressed, true, false, false, 100, 1 << 20}));

// A row group closes at row_group_rows rows even when its bytes are far below row_group_bytes,
// so a reader can give each of a big file's row groups to another thread.
TEST(RoundTripDetails, RowGroupsCloseAtTheirRowLimit) {
  auto fields = AllTypes();
  WriterOptions o;
  o.row_group_rows = 1000;
  std::vector<ColumnBatch> batches{MakeBatch(fields, 1700, 4, 10, 5), MakeBatch(fields, 800, 5, 0, 0)};
  std::string bytes = WriteFile(fields, batches, o);
  auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes));
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  ASSERT_EQ((*reader)->num_row_groups(), 3);
  EXPECT_EQ((*reader)->metadata().row_groups[0].num_rows, 1000);
  EXPECT_EQ((*reader)->metadata().row_groups[1].num_rows, 1000);
  EXPECT_EQ((*reader)->metadata().row_groups[2].num_rows, 500);
  ExpectSameRows(batches, bytes);
}

TEST(RoundTripDetails, EmptyFileAndProjection) {
  auto fields = AllTypes();
  std::string bytes = WriteFile(fields, {}, WriterOptions{});
  auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes));
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  EXPECT_EQ((*reader)->num_row_groups(), 0);
  EXPECT_EQ((*reader)->schema().fields().size(), fields.size());

  std::vector<ColumnBatch> batches{MakeBatch(fields, 100, 9, 10, 5)};
  bytes = WriteFile(fields, batches, WriterOptions{});
  reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes));
  ASSERT_TRUE(reader.has_value());
  auto cols = (*reader)->ResolveColumns({"s", "m"});
  ASSERT_TRUE(cols.has_value());
  auto batch = (*reader)->ReadRowGroup(0, *cols);
  ASSERT_TRUE(batch.has_value()) << batch.error().ToString();
  ASSERT_EQ(batch->columns.size(), 2u);
  EXPECT_EQ(batch->fields[1].name, "m");
  for (int64_t r = 0; r < 100; ++r) {
    EXPECT_TRUE(SlotEqual(batches[0].columns[12], r, batch->columns[0], r, "s"));
    EXPECT_TRUE(SlotEqual(batches[0].columns[18], r, batch->columns[1], r, "m"));
  }
  EXPECT_FALSE((*reader)->ResolveColumns({"nope"}).has_value());
}

TEST(RoundTripDetails, FieldIdsStatisticsAndMetrics) {
  std::vector<Field> fields{F("id", 1, formats::Primitive(TypeId::kInt64), false), F("name", 2, formats::Primitive(TypeId::kString)),
                            F("score", 3, formats::Primitive(TypeId::kDouble))};
  ColumnBatch b = formats::MakeEmptyBatch(fields);
  for (int64_t i = 0; i < 10; ++i) {
    b.columns[0].Append<int64_t>(i - 3);
    if (i == 4) {
      b.columns[1].AppendNull();
    } else {
      b.columns[1].AppendString(i % 2 ? "this string is longer than sixteen chars" : "abc");
    }
    b.columns[2].Append<double>(i == 5 ? std::nan("") : i * 0.5);
  }
  b.num_rows = 10;
  FileMetrics metrics;
  WriterOptions o;
  o.key_value_metadata.push_back({"iceberg.schema", "{}"});
  std::string bytes = WriteFile(fields, {b}, o, &metrics);
  EXPECT_EQ(metrics.record_count, 10);
  EXPECT_EQ(metrics.file_size, static_cast<int64_t>(bytes.size()));
  ASSERT_EQ(metrics.columns.size(), 3u);
  EXPECT_EQ(metrics.columns[1].value_count, 10);
  EXPECT_EQ(metrics.columns[2].null_value_count, 1);
  EXPECT_EQ(metrics.columns[3].nan_value_count, 1);
  int64_t lo;
  std::memcpy(&lo, metrics.columns[1].lower_bound->data(), 8);
  EXPECT_EQ(lo, -3);
  EXPECT_EQ(*metrics.columns[2].lower_bound, "abc");
  EXPECT_EQ(*metrics.columns[2].upper_bound, "this string is m");  // truncated to 16, last char incremented
  double hi;
  std::memcpy(&hi, metrics.columns[3].upper_bound->data(), 8);
  EXPECT_EQ(hi, 4.5);

  auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes));
  ASSERT_TRUE(reader.has_value());
  const auto& md = (*reader)->metadata();
  EXPECT_EQ(md.key_value_metadata[0].key, "iceberg.schema");
  EXPECT_EQ((*reader)->schema().fields()[1].field_id, 2);
  ASSERT_TRUE(md.row_groups[0].columns[0].column_index_offset.has_value());
  using P = ColumnPredicate;
  EXPECT_EQ((*reader)->SelectRowGroups({P{"id", P::Op::kGt, int64_t{6}}}).size(), 0u);
  EXPECT_EQ((*reader)->SelectRowGroups({P{"id", P::Op::kGe, int64_t{6}}}).size(), 1u);
  EXPECT_EQ((*reader)->SelectRowGroups({P{"id", P::Op::kLt, int64_t{-3}}}).size(), 0u);
  EXPECT_EQ((*reader)->SelectRowGroups({P{"name", P::Op::kEq, std::string("abc")}}).size(), 1u);
  EXPECT_EQ((*reader)->SelectRowGroups({P{"name", P::Op::kEq, std::string("zzz")}}).size(), 0u);
}

TEST(RoundTripDetails, WriterRejectsMismatchedBatches) {
  std::vector<Field> fields{F("id", 1, formats::Primitive(TypeId::kInt64), false)};
  std::string bytes;
  auto w = FileWriter::Open(std::make_unique<MemoryOutputStream>(&bytes), fields, {});
  ASSERT_TRUE(w.has_value());
  ColumnBatch b = formats::MakeEmptyBatch(fields);
  b.columns[0].AppendNull();
  b.num_rows = 1;
  EXPECT_EQ((*w)->Write(b).error().kind(), ErrorKind::kInvalidArgument);
  ColumnBatch c = formats::MakeEmptyBatch({F("id", 1, formats::Primitive(TypeId::kString), false)});
  c.columns[0].AppendString("x");
  c.num_rows = 1;
  EXPECT_EQ((*w)->Write(c).error().kind(), ErrorKind::kInvalidArgument);
}

// Every corruption of a written file must give an error (or, for bytes nobody reads, the
// right data) and never a crash.
TEST(HostileFiles, TruncationsAndBitFlips) {
  auto fields = AllTypes();
  std::vector<ColumnBatch> batches{MakeBatch(fields, 200, 5, 20, 10)};
  WriterOptions o;
  o.page_bytes = 512;
  std::string bytes = WriteFile(fields, batches, o);
  auto read_all = [](const std::string& data) -> Status {
    FLOE_ASSIGN_OR_RETURN(auto reader, FileReader::Open(std::make_unique<MemoryInputFile>(data, "bad.parquet")));
    for (int g = 0; g < reader->num_row_groups(); ++g) FLOE_RETURN_IF_ERROR(reader->ReadRowGroup(g));
    return OkStatus();
  };
  ASSERT_TRUE(read_all(bytes).has_value());
  for (size_t n = 0; n < bytes.size(); n += 97) {
    EXPECT_FALSE(read_all(bytes.substr(0, n)).has_value()) << n;
  }
  std::mt19937 rng(11);
  int errors = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string copy = bytes;
    size_t at = rng() % copy.size();
    copy[at] = static_cast<char>(copy[at] ^ (1 << (rng() % 8)));
    auto s = read_all(copy);
    if (!s) {
      ++errors;
      EXPECT_EQ(s.error().kind(), ErrorKind::kCorruption) << s.error().ToString();
    }
  }
  EXPECT_GT(errors, 0);
}

TEST(HostileFiles, ErrorsNameFileColumnRowGroupAndPage) {
  std::vector<Field> fields{F("amount", 1, formats::Primitive(TypeId::kInt64), false)};
  ColumnBatch b = formats::MakeEmptyBatch(fields);
  for (int i = 0; i < 1000; ++i) b.columns[0].Append<int64_t>(i);
  b.num_rows = 1000;
  WriterOptions o;
  o.codec = Codec::kUncompressed;
  o.dictionary = false;
  o.page_bytes = 1024;
  std::string bytes = WriteFile(fields, {b}, o);
  auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes));
  ASSERT_TRUE(reader.has_value());
  // Cut the third page's body short by corrupting its header's compressed size field via the
  // offset index: simplest is to zero the bytes of page 2's header.
  const auto& md = (*reader)->metadata();
  auto oi_off = *md.row_groups[0].columns[0].offset_index_offset;
  auto oi_len = *md.row_groups[0].columns[0].offset_index_length;
  auto oi = DecodeOffsetIndex(std::string_view(bytes).substr(static_cast<size_t>(oi_off), static_cast<size_t>(oi_len)));
  ASSERT_TRUE(oi.has_value());
  ASSERT_GT(oi->page_locations.size(), 3u);
  std::string bad = bytes;
  bad[static_cast<size_t>(oi->page_locations[2].offset)] = '\x7f';
  auto r2 = FileReader::Open(std::make_unique<MemoryInputFile>(bad, "orders.parquet"));
  ASSERT_TRUE(r2.has_value());
  auto batch = (*r2)->ReadRowGroup(0);
  ASSERT_FALSE(batch.has_value());
  const std::string& msg = batch.error().message();
  EXPECT_NE(msg.find("orders.parquet"), std::string::npos) << msg;
  EXPECT_NE(msg.find("amount"), std::string::npos) << msg;
  EXPECT_NE(msg.find("row group 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("page 2"), std::string::npos) << msg;
}

TEST(HostileFiles, FooterLengthAndMagic) {
  EXPECT_FALSE(FileReader::Open(std::make_unique<MemoryInputFile>("PAR1")).has_value());
  EXPECT_FALSE(FileReader::Open(std::make_unique<MemoryInputFile>(std::string("PAR1\xff\xff\xff\x7fPAR1", 12))).has_value());
  EXPECT_FALSE(FileReader::Open(std::make_unique<MemoryInputFile>(std::string(100, 'x'))).has_value());
}

// A column of all-new values (ids, timestamps) gives up its dictionary after two probe windows
// of 16384 values rather than at the 1 MiB limit (131072 longs); one of repeating values keeps
// it to the end, and both read back whole.
TEST(DictionaryFallback, ColumnsOfNewValuesGiveUpEarly) {
  std::vector<Field> fields{F("id", 1, formats::Primitive(TypeId::kInt64)), F("product", 2, formats::Primitive(TypeId::kInt64))};
  ColumnBatch batch;
  batch.fields = fields;
  batch.num_rows = 100000;
  ColumnVector id(fields[0].type), product(fields[1].type);
  for (int64_t i = 0; i < batch.num_rows; ++i) {
    id.Append<int64_t>(i * 7919);
    product.Append<int64_t>(i * 31 % 20000);
  }
  batch.columns = {std::move(id), std::move(product)};
  WriterOptions o;
  o.page_values = 1000;
  std::string bytes = WriteFile(fields, {batch}, o);
  auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes));
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  auto pages = [&](int column, Encoding encoding) {
    int32_t count = 0;
    for (const PageEncodingStats& s : (*reader)->metadata().row_groups[0].columns[static_cast<size_t>(column)].meta_data->encoding_stats) {
      if (s.page_type != PageType::kDictionaryPage && s.encoding == encoding) count += s.count;
    }
    return count;
  };
  EXPECT_LE(pages(0, Encoding::kRleDictionary), 34);  // 32768 values, and the slice that crossed.
  EXPECT_GT(pages(0, Encoding::kPlain), 60);
  EXPECT_EQ(pages(1, Encoding::kRleDictionary), 100);
  EXPECT_EQ(pages(1, Encoding::kPlain), 0);
  auto back = (*reader)->ReadRowGroup(0, {0, 1});
  ASSERT_TRUE(back.has_value()) << back.error().ToString();
  for (int64_t i = 0; i < batch.num_rows; ++i) {
    ASSERT_EQ(back->columns[0].Data<int64_t>()[i], i * 7919) << i;
    ASSERT_EQ(back->columns[1].Data<int64_t>()[i], i * 31 % 20000) << i;
  }
}

// Dictionary codes handed to the query engine must name the very string of each slot, and
// must be absent wherever a value did not come from the chunk's dictionary (a column whose
// dictionary outgrew its limit falls back to PLAIN part-way through the chunk).
TEST(RowGroupStreaming, DictionaryCodesNameEachSlotsValue) {
  std::vector<Field> fields{F("region", 1, formats::Primitive(TypeId::kString)), F("id", 2, formats::Primitive(TypeId::kString))};
  ColumnBatch batch;
  batch.fields = fields;
  batch.num_rows = 5000;
  ColumnVector region(fields[0].type), id(fields[1].type);
  const char* regions[] = {"eu-west", "us-east", "", "ap-south"};
  for (int64_t i = 0; i < batch.num_rows; ++i) {
    if (i % 7 == 3) {
      region.AppendNull();
    } else {
      region.AppendString(regions[i % 4]);
    }
    id.AppendString("order-" + std::to_string(i * 7919 % 100003));
  }
  batch.columns = {std::move(region), std::move(id)};
  WriterOptions o;
  o.page_bytes = 900;
  o.dictionary_bytes = 8192;  // The ids outgrow it; the regions never do.
  std::string bytes = WriteFile(fields, {batch}, o);
  auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes));
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  int64_t row = 0, region_plain = 0, id_coded = 0, id_plain = 0;
  for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
    auto stream = (*reader)->OpenRowGroup(g, {0, 1});
    ASSERT_TRUE(stream.has_value()) << stream.error().ToString();
    while (true) {
      auto next = (*stream)->Next(333);
      ASSERT_TRUE(next.has_value()) << next.error().ToString();
      if (!*next) break;
      const ColumnBatch& part = **next;
      for (size_t c = 0; c < 2; ++c) {
        const ColumnVector& v = part.columns[c];
        if (!v.HasDictionary()) {
          ++(c == 0 ? region_plain : id_plain);
          continue;
        }
        if (c == 1) ++id_coded;
        for (int64_t r = 0; r < part.num_rows; ++r) {
          if (!v.IsValid(r)) continue;
          uint32_t code = v.dictionary_codes[static_cast<size_t>(r)];
          ASSERT_LT(code, static_cast<uint32_t>(v.dictionary->length));
          ASSERT_EQ(v.dictionary->StringAt(code), v.StringAt(r)) << "column " << c << " row " << row + r;
        }
      }
      row += part.num_rows;
    }
  }
  EXPECT_EQ(row, 5000);
  EXPECT_EQ(region_plain, 0) << "every batch of the low-cardinality column carries its dictionary";
  EXPECT_GT(id_coded, 0);
  EXPECT_GT(id_plain, 0);
}

}  // namespace
}  // namespace floe::parquet

namespace floe::parquet {
namespace {

// Streaming a row group in batches of any size gives the rows ReadRowGroup gives, for flat
// projections (page by page), nested ones (one batch) and every page layout.
TEST(RowGroupStreaming, BatchesMatchWholeRowGroups) {
  auto fields = AllTypes();
  std::vector<ColumnBatch> batches{MakeBatch(fields, 3000, 21, 25, 40), MakeBatch(fields, 1700, 22, 0, 0)};
  for (bool v2 : {false, true}) {
    WriterOptions o;
    o.page_bytes = 700;
    o.row_group_bytes = 40 << 10;
    o.data_page_v2 = v2;
    o.dictionary_bytes = 4096;
    std::string bytes = WriteFile(fields, batches, o);
    auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes));
    ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
    ASSERT_GT((*reader)->num_row_groups(), 1);
    auto flat = (*reader)->ResolveColumns({"b", "i", "l", "f", "d", "dec38", "ts", "s", "bin", "u"});
    ASSERT_TRUE(flat.has_value());
    for (const std::vector<int>& projection : {*flat, std::vector<int>{12, 18}}) {
      for (int64_t batch_rows : {int64_t{1}, int64_t{7}, int64_t{1000}}) {
        int64_t total = 0;
        for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
          auto whole = (*reader)->ReadRowGroup(g, projection);
          ASSERT_TRUE(whole.has_value()) << whole.error().ToString();
          auto stream = (*reader)->OpenRowGroup(g, projection);
          ASSERT_TRUE(stream.has_value()) << stream.error().ToString();
          int64_t row = 0;
          while (true) {
            auto next = (*stream)->Next(batch_rows);
            ASSERT_TRUE(next.has_value()) << next.error().ToString();
            if (!*next) break;
            const ColumnBatch& part = **next;
            ASSERT_EQ(part.columns.size(), projection.size());
            for (int64_t r = 0; r < part.num_rows; ++r) {
              for (size_t c = 0; c < part.columns.size(); ++c) {
                auto eq = SlotEqual(whole->columns[c], row + r, part.columns[c], r, part.fields[c].name);
                ASSERT_TRUE(eq) << "row group " << g << " row " << row + r << " batch " << batch_rows;
              }
            }
            row += part.num_rows;
          }
          EXPECT_EQ(row, whole->num_rows);
          total += row;
        }
        EXPECT_EQ(total, 4700);
      }
    }
  }
}

// Pages of optional columns without a null keep their levels unexpanded while streaming; pages
// with nulls before, between and after them must still line up, whatever the batch size.
TEST(RowGroupStreaming, PagesWithAndWithoutNullsAlternate) {
  std::vector<Field> fields = {{"n", 1, true, Primitive(TypeId::kInt64)}, {"s", 2, true, Primitive(TypeId::kString)}};
  ColumnBatch batch;
  batch.fields = fields;
  batch.num_rows = 1000;
  ColumnVector n(fields[0].type), s(fields[1].type);
  auto has_nulls = [](int64_t row) { return row / 50 % 3 == 1; };  // Every third page of 50.
  auto text = [](int64_t row) { return std::to_string(row).insert(0, 1, 'v'); };
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    if (has_nulls(row) && row % 4 == 0) {
      n.AppendNull();
      s.AppendNull();
    } else {
      n.Append<int64_t>(row * 3);
      s.AppendString(text(row));
    }
  }
  batch.columns = {std::move(n), std::move(s)};
  for (bool v2 : {false, true}) {
    WriterOptions o;
    o.page_values = 50;
    o.dictionary = false;
    o.data_page_v2 = v2;
    std::string bytes = WriteFile(fields, {batch}, o);
    auto reader = FileReader::Open(std::make_unique<MemoryInputFile>(bytes));
    ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
    for (int64_t batch_rows : {int64_t{1}, int64_t{7}, int64_t{120}, int64_t{1000}}) {
      auto stream = (*reader)->OpenRowGroup(0, {0, 1});
      ASSERT_TRUE(stream.has_value()) << stream.error().ToString();
      int64_t row = 0;
      while (true) {
        auto next = (*stream)->Next(batch_rows);
        ASSERT_TRUE(next.has_value()) << next.error().ToString();
        if (!*next) break;
        const ColumnBatch& part = **next;
        for (int64_t r = 0; r < part.num_rows; ++r, ++row) {
          const bool null = has_nulls(row) && row % 4 == 0;
          ASSERT_EQ(part.columns[0].IsValid(r), !null) << "row " << row << " batch " << batch_rows << " v2 " << v2;
          ASSERT_EQ(part.columns[1].IsValid(r), !null) << "row " << row;
          if (null) continue;
          ASSERT_EQ(part.columns[0].Data<int64_t>()[r], row * 3) << "row " << row;
          ASSERT_EQ(part.columns[1].StringAt(r), text(row)) << "row " << row;
        }
      }
      EXPECT_EQ(row, 1000);
    }
  }
}

}  // namespace
}  // namespace floe::parquet
