#include "iceberg/table_statistics.h"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/delete_rows.h"
#include "iceberg/filesystem_catalog.h"
#include "iceberg/murmur3.h"
#include "iceberg/puffin.h"
#include "iceberg/theta_sketch.h"
#include "io/test_folder.h"

namespace floe::iceberg {
namespace {

std::string LongBytes(int64_t v) {
  std::string out;
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((static_cast<uint64_t>(v) >> (8 * i)) & 0xff));
  return out;
}

TEST(Murmur3Hash128, KnownValues) {
  // The empty input with seed 0 hashes to 0 (both halves), as every implementation agrees.
  EXPECT_EQ(Murmur3Hash128("", 0).h1, 0u);
  EXPECT_EQ(Murmur3Hash128("", 0).h2, 0u);
  // DataSketches' default seed 9001 has the 16-bit seed hash 0x93cc, which every serialized
  // sketch carries: a check of the whole 8-byte path (one tail block) against the library.
  EXPECT_EQ(ThetaSketch::SeedHash(), 0x93cc);
  // Every tail length hashes differently from its neighbours (the tail switch covers 1..15).
  std::string text = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (size_t n = 1; n < text.size(); ++n) EXPECT_NE(Murmur3Hash128(text.substr(0, n), 9001).h1, Murmur3Hash128(text.substr(0, n + 1), 9001).h1);
}

TEST(ThetaSketch, ExactBelowNominalEntriesAndEstimatesAbove) {
  ThetaSketch small;
  for (int i = 0; i < 1000; ++i) small.Update(LongBytes(i % 300));
  EXPECT_EQ(small.Estimate(), 300.0);
  EXPECT_EQ(small.theta(), ThetaSketch::kMaxTheta);

  ThetaSketch big;
  for (int64_t i = 0; i < 200000; ++i) big.Update(LongBytes(i * 7919));
  // 4096 entries: a relative standard error of about 1/sqrt(4096) = 1.6%; 5% is three of them.
  EXPECT_NEAR(big.Estimate(), 200000.0, 200000.0 * 0.05);
  EXPECT_LT(big.theta(), ThetaSketch::kMaxTheta);
}

TEST(ThetaSketch, UnionOfPartsEqualsTheSketchOfTheWhole) {
  ThetaSketch whole, a, b;
  for (int64_t i = 0; i < 50000; ++i) {
    whole.Update(LongBytes(i));
    (i % 3 == 0 ? a : b).Update(LongBytes(i));
  }
  a.Merge(b);
  EXPECT_EQ(a.Serialize(), whole.Serialize());
  EXPECT_EQ(a.Estimate(), whole.Estimate());
}

TEST(ThetaSketch, SerializesAndReadsBack) {
  ThetaSketch empty;
  std::string empty_bytes = empty.Serialize();
  EXPECT_EQ(empty_bytes, std::string("\x01\x03\x03\x00\x00\x1e\x00\x00", 8));
  auto e = ThetaSketch::Deserialize(empty_bytes, "t");
  ASSERT_TRUE(e.has_value()) << e.error().ToString();
  EXPECT_TRUE(e->empty());

  for (int n : {1, 10, 100000}) {
    ThetaSketch s;
    for (int64_t i = 0; i < n; ++i) s.Update(LongBytes(i));
    std::string bytes = s.Serialize();
    EXPECT_EQ(static_cast<uint8_t>(bytes[0]), n > 4096 ? 3 : 2);
    EXPECT_EQ(static_cast<uint8_t>(bytes[6]) | (static_cast<uint8_t>(bytes[7]) << 8), 0x93cc);
    auto back = ThetaSketch::Deserialize(bytes, "t");
    ASSERT_TRUE(back.has_value()) << back.error().ToString();
    EXPECT_EQ(back->Estimate(), s.Estimate());
    EXPECT_EQ(back->Serialize(), bytes);
  }
}

TEST(ThetaSketch, HostileBytesAreCorruption) {
  ThetaSketch s;
  for (int64_t i = 0; i < 10000; ++i) s.Update(LongBytes(i));
  std::string good = s.Serialize();
  auto expect_corrupt = [](std::string bytes, const char* why) {
    auto r = ThetaSketch::Deserialize(bytes, "blob");
    ASSERT_FALSE(r.has_value()) << why;
    EXPECT_EQ(r.error().kind(), ErrorKind::kCorruption) << why;
  };
  expect_corrupt("", "empty");
  expect_corrupt("garbage!garbage!garbage!", "garbage");
  for (size_t cut : {size_t{7}, size_t{12}, size_t{20}, good.size() - 3}) expect_corrupt(good.substr(0, cut), "truncated");
  std::string wrong_seed = good;
  wrong_seed[6] ^= 1;
  expect_corrupt(wrong_seed, "another seed");
  std::string huge_count = good;
  huge_count[11] = '\x7f';  // Says 2^30 more hashes than it holds: no allocation for them.
  expect_corrupt(huge_count, "count past the bytes");
  std::string above_theta = good;
  for (int i = 0; i < 8; ++i) above_theta[24 + i] = '\xff';
  expect_corrupt(above_theta, "hash above theta");
}

TEST(Puffin, WritesAndReadsBlobs) {
  std::vector<PuffinBlob> blobs(2);
  blobs[0].type = "apache-datasketches-theta-v1";
  blobs[0].fields = {1};
  blobs[0].snapshot_id = 7;
  blobs[0].sequence_number = 3;
  blobs[0].properties = {{"ndv", "42"}};
  blobs[0].data = "first blob";
  blobs[1].type = "other";
  blobs[1].fields = {2, 3};
  blobs[1].data = std::string("\0\1\2", 3);
  PuffinFile file = WritePuffin(blobs, "floe test");
  EXPECT_EQ(file.bytes.substr(0, 4), "PFA1");
  EXPECT_EQ(file.bytes.substr(file.bytes.size() - 4), "PFA1");
  EXPECT_EQ(blobs[0].offset, 4);
  auto read = ReadPuffin(file.bytes, "f");
  ASSERT_TRUE(read.has_value()) << read.error().ToString();
  ASSERT_EQ(read->size(), 2u);
  EXPECT_EQ((*read)[0].data, "first blob");
  EXPECT_EQ((*read)[0].properties.at("ndv"), "42");
  EXPECT_EQ((*read)[0].snapshot_id, 7);
  EXPECT_EQ((*read)[1].data, std::string("\0\1\2", 3));
  EXPECT_EQ((*read)[1].fields, (std::vector<int32_t>{2, 3}));
  // The footer runs from its magic to the end.
  EXPECT_EQ(file.bytes.substr(file.bytes.size() - static_cast<size_t>(file.footer_size), 4), "PFA1");
}

TEST(Puffin, HostileFilesAreCorruption) {
  std::vector<PuffinBlob> blobs(1);
  blobs[0].type = "t";
  blobs[0].data = "data";
  std::string good = WritePuffin(blobs, "x").bytes;
  auto expect_corrupt = [](const std::string& bytes, const char* why) {
    auto r = ReadPuffin(bytes, "file");
    ASSERT_FALSE(r.has_value()) << why;
    EXPECT_EQ(r.error().kind(), ErrorKind::kCorruption) << why;
  };
  expect_corrupt("", "empty");
  expect_corrupt(std::string(100, 'x'), "garbage");
  expect_corrupt(good.substr(0, good.size() - 1), "truncated");
  expect_corrupt(good.substr(1), "no leading magic");
  // A payload length past the file.
  std::string oversize = good;
  oversize[oversize.size() - 12 + 3] = '\x7f';
  expect_corrupt(oversize, "payload length past the file");
  // A blob range outside the blobs.
  std::string payload = R"({"blobs":[{"type":"t","fields":[],"snapshot-id":1,"sequence-number":1,"offset":4,"length":999}]})";
  auto build = [](const std::string& json) {
    std::string f = "PFA1PFA1" + json;
    for (int i = 0; i < 4; ++i) f.push_back(static_cast<char>((json.size() >> (8 * i)) & 0xff));
    f.append(4, '\0');
    return f + "PFA1";
  };
  expect_corrupt(build(payload), "blob past the footer");
  // A footer nested past the bound: refused before parsing.
  expect_corrupt(build(std::string(100000, '[') + std::string(100000, ']')), "deep nesting");
  // A compressed footer.
  std::string compressed = good;
  compressed[compressed.size() - 8] = 1;
  expect_corrupt(compressed, "compressed footer");
}

class TableStatisticsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = FileSystemCatalog::Open(io::testing::FreshFolder());
    ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
    catalog_ = std::move(*catalog);
    Schema schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)},
                      NestedField{2, "region", false, Type::Primitive(TypeId::kString)},
                      NestedField{3, "amount", false, Type::Decimal(10, 2)}});
    auto table = catalog_->CreateTable(*TableIdentifier::Parse("db.orders"), schema, {});
    ASSERT_TRUE(table.has_value()) << table.error().ToString();
    table_ = std::move(*table);
  }

  // Rows with ids [first, first + count), 5 regions and 100 amounts, one null region.
  void Append(int64_t first, int64_t count) {
    auto fields = ToBatchFields(table_->metadata().CurrentSchema());
    ASSERT_TRUE(fields.has_value());
    formats::ColumnBatch b = formats::MakeEmptyBatch(*fields);
    for (int64_t i = first; i < first + count; ++i) {
      b.columns[0].Append<int64_t>(i);
      if (i == first) {
        b.columns[1].AppendNull();
      } else {
        b.columns[1].AppendString("region-" + std::to_string(i % 5));
      }
      b.columns[2].Append<__int128>(i % 100);
    }
    b.num_rows = count;
    auto files = WriteDataFiles(*table_, {b});
    ASSERT_TRUE(files.has_value()) << files.error().ToString();
    ASSERT_TRUE(table_->FastAppend(*files).has_value());
  }

  std::unique_ptr<FileSystemCatalog> catalog_;
  std::unique_ptr<Table> table_;
};

TEST_F(TableStatisticsTest, FullThenIncrementalThenFullAfterADelete) {
  auto none = UpdateTableStatistics(*table_);
  ASSERT_TRUE(none.has_value()) << none.error().ToString();
  EXPECT_EQ(none->snapshot_id, -1);
  EXPECT_TRUE(DistinctCounts(table_->metadata()).empty());

  Append(0, 3000);
  auto first = UpdateTableStatistics(*table_);
  ASSERT_TRUE(first.has_value()) << first.error().ToString();
  EXPECT_FALSE(first->incremental);
  EXPECT_EQ(first->rows_read, 3000);
  EXPECT_EQ(first->ndv.at(1), 3000);
  EXPECT_EQ(first->ndv.at(2), 5);
  EXPECT_EQ(first->ndv.at(3), 100);
  EXPECT_EQ(DistinctCounts(table_->metadata()), first->ndv);
  // The file is a Puffin file of one theta sketch per column, as the metadata says.
  const auto& entry = table_->metadata().statistics.at(0);
  EXPECT_EQ(entry["snapshot-id"].get<int64_t>(), first->snapshot_id);
  auto bytes = table_->ReadLocation(entry["statistics-path"].get<std::string>());
  ASSERT_TRUE(bytes.has_value());
  EXPECT_EQ(static_cast<int64_t>(bytes->size()), entry["file-size-in-bytes"].get<int64_t>());
  auto blobs = ReadPuffin(*bytes, "stats");
  ASSERT_TRUE(blobs.has_value()) << blobs.error().ToString();
  ASSERT_EQ(blobs->size(), 3u);
  EXPECT_EQ((*blobs)[0].type, "apache-datasketches-theta-v1");
  EXPECT_EQ((*blobs)[1].properties.at("ndv"), "5");

  auto again = UpdateTableStatistics(*table_);
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(again->up_to_date);
  EXPECT_EQ(again->rows_read, 0);

  // Appends since: only the new files are read, and the union equals a full rebuild.
  Append(3000, 2000);
  Append(4000, 2000);  // Ids 4000..4999 repeat.
  auto incremental = UpdateTableStatistics(*table_);
  ASSERT_TRUE(incremental.has_value()) << incremental.error().ToString();
  EXPECT_TRUE(incremental->incremental);
  EXPECT_EQ(incremental->rows_read, 4000);
  // Past 4096 distinct values the count is an estimate (about 1.6% standard error).
  EXPECT_NEAR(incremental->ndv.at(1), 6000, 300);
  EXPECT_EQ(incremental->ndv.at(2), 5);
  auto full = UpdateTableStatistics(*table_, /*full=*/true);
  ASSERT_TRUE(full.has_value());
  EXPECT_FALSE(full->incremental);
  EXPECT_EQ(full->rows_read, 7000);
  EXPECT_EQ(full->ndv, incremental->ndv);
  // One entry per snapshot: the full rebuild replaced the incremental one.
  EXPECT_EQ(table_->metadata().statistics.size(), 2u);

  // A delete: the stored sketches may count values no longer there, so the next is a full read.
  auto filter = ParseFilter("id < 1000");
  ASSERT_TRUE(filter.has_value());
  ASSERT_TRUE(DeleteRows(*table_, *filter, {}).has_value());
  auto after_delete = UpdateTableStatistics(*table_);
  ASSERT_TRUE(after_delete.has_value()) << after_delete.error().ToString();
  EXPECT_FALSE(after_delete->incremental);
  EXPECT_NEAR(after_delete->ndv.at(1), 5000, 250);
  EXPECT_EQ(after_delete->rows_read, 6000);
}

}  // namespace
}  // namespace floe::iceberg
