#include "formats/parquet/thrift_compact.h"

#include <gtest/gtest.h>

#include "formats/parquet/metadata.h"

namespace floe::parquet {
namespace {

FileMetaData SampleMetadata() {
  FileMetaData m;
  m.version = 2;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 1;
  SchemaElement col;
  col.name = "ts";
  col.type = PhysicalType::kInt64;
  col.repetition = Repetition::kOptional;
  col.field_id = 7;
  col.logical_type.kind = LogicalType::Kind::kTimestamp;
  col.logical_type.adjusted_to_utc = true;
  col.logical_type.unit = TimeUnit::kNanos;
  m.schema = {root, col};
  m.num_rows = 1234567890123;
  RowGroup g;
  g.num_rows = 5;
  g.total_byte_size = 99;
  ColumnChunk c;
  c.file_offset = 4;
  c.meta_data.emplace();
  c.meta_data->type = PhysicalType::kInt64;
  c.meta_data->encodings = {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary};
  c.meta_data->path_in_schema = {"ts"};
  c.meta_data->codec = Codec::kZstd;
  c.meta_data->num_values = 5;
  c.meta_data->data_page_offset = 4;
  c.meta_data->statistics.emplace();
  c.meta_data->statistics->min_value = std::string("\x01\0\0\0\0\0\0\0", 8);
  c.meta_data->statistics->null_count = 1;
  c.column_index_offset = 1000;
  c.column_index_length = 20;
  g.columns.push_back(c);
  m.row_groups.push_back(g);
  m.key_value_metadata.push_back({"k", "v"});
  m.created_by = "floe";
  m.column_orders = 1;
  return m;
}

TEST(ThriftCompact, FileMetaDataRoundTrip) {
  std::string bytes;
  EncodeFileMetaData(SampleMetadata(), &bytes);
  auto m = DecodeFileMetaData(bytes);
  ASSERT_TRUE(m.has_value()) << m.error().ToString();
  EXPECT_EQ(m->version, 2);
  ASSERT_EQ(m->schema.size(), 2u);
  EXPECT_EQ(m->schema[1].name, "ts");
  EXPECT_EQ(m->schema[1].field_id, 7);
  EXPECT_EQ(m->schema[1].logical_type.kind, LogicalType::Kind::kTimestamp);
  EXPECT_EQ(m->schema[1].logical_type.unit, TimeUnit::kNanos);
  EXPECT_TRUE(m->schema[1].logical_type.adjusted_to_utc);
  EXPECT_EQ(m->num_rows, 1234567890123);
  ASSERT_EQ(m->row_groups.size(), 1u);
  const auto& cm = *m->row_groups[0].columns[0].meta_data;
  EXPECT_EQ(cm.encodings.size(), 3u);
  EXPECT_EQ(cm.codec, Codec::kZstd);
  EXPECT_EQ(*cm.statistics->null_count, 1);
  EXPECT_EQ(cm.statistics->min_value->size(), 8u);
  EXPECT_EQ(m->row_groups[0].columns[0].column_index_offset, 1000);
  EXPECT_EQ(m->key_value_metadata[0].value, "v");
  EXPECT_EQ(m->created_by, "floe");
  EXPECT_EQ(m->column_orders, 1);
}

TEST(ThriftCompact, LongFieldDeltasAndNegativeIds) {
  std::string bytes;
  thrift::CompactWriter w(&bytes);
  w.BeginStruct();
  w.I32(1, -5);
  w.I64(40, INT64_MIN);  // delta > 15: long form
  w.Binary(3, "abc");    // backwards: long form
  w.EndStruct();
  thrift::CompactReader r(bytes);
  ASSERT_TRUE(r.BeginStruct().has_value());
  auto h = r.ReadFieldHeader();
  ASSERT_TRUE(h && h->id == 1);
  EXPECT_EQ(*r.ReadI32(), -5);
  h = r.ReadFieldHeader();
  ASSERT_TRUE(h && h->id == 40);
  EXPECT_EQ(*r.ReadI64(), INT64_MIN);
  h = r.ReadFieldHeader();
  ASSERT_TRUE(h && h->id == 3);
  EXPECT_EQ(*r.ReadBinary(), "abc");
  h = r.ReadFieldHeader();
  ASSERT_TRUE(h && h->type == thrift::Type::kStop);
}

TEST(ThriftCompact, EveryTruncationFailsCleanly) {
  std::string bytes;
  EncodeFileMetaData(SampleMetadata(), &bytes);
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto m = DecodeFileMetaData(std::string_view(bytes).substr(0, n));
    EXPECT_FALSE(m.has_value()) << "prefix " << n;
    if (!m) {
      EXPECT_EQ(m.error().kind(), ErrorKind::kCorruption);
    }
  }
}

TEST(ThriftCompact, BitFlipsNeverCrash) {
  std::string bytes;
  EncodeFileMetaData(SampleMetadata(), &bytes);
  int failures = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string copy = bytes;
      copy[i] = static_cast<char>(copy[i] ^ (1 << bit));
      auto m = DecodeFileMetaData(copy);
      failures += !m.has_value();
    }
  }
  EXPECT_GT(failures, 0);
}

TEST(ThriftCompact, DeepNestingIsRejected) {
  // A struct field containing a struct field ... far deeper than any real footer.
  std::string bytes;
  for (int i = 0; i < 1000; ++i) bytes.push_back(0x1C);  // field 1, type struct
  auto m = DecodeFileMetaData(bytes);
  ASSERT_FALSE(m.has_value());
  EXPECT_NE(m.error().message().find("deeply"), std::string::npos);
}

TEST(ThriftCompact, HugeListSizeIsRejectedBeforeAllocating) {
  // Field 2 (schema) as a list of 2^31 structs with nothing behind it.
  std::string bytes = "\x29\xFC";
  bytes += "\xFF\xFF\xFF\xFF\x07";
  auto m = DecodeFileMetaData(bytes);
  ASSERT_FALSE(m.has_value());
  EXPECT_EQ(m.error().kind(), ErrorKind::kCorruption);
}

TEST(ThriftCompact, GarbageNeverCrashes) {
  uint32_t seed = 12345;
  for (int round = 0; round < 2000; ++round) {
    std::string bytes(static_cast<size_t>(round % 200), '\0');
    for (char& c : bytes) {
      seed = seed * 1103515245 + 12345;
      c = static_cast<char>(seed >> 16);
    }
    (void)DecodeFileMetaData(bytes);
    size_t used = 0;
    (void)DecodePageHeader(bytes, &used);
    (void)DecodeColumnIndex(bytes);
    (void)DecodeOffsetIndex(bytes);
  }
}

TEST(ThriftCompact, PageHeaderAndIndexesRoundTrip) {
  PageHeader p;
  p.type = PageType::kDataPageV2;
  p.uncompressed_page_size = 100;
  p.compressed_page_size = 50;
  p.crc = -3;
  p.data_page_header_v2.emplace();
  p.data_page_header_v2->num_values = 10;
  p.data_page_header_v2->num_nulls = 2;
  p.data_page_header_v2->num_rows = 10;
  p.data_page_header_v2->encoding = Encoding::kRleDictionary;
  p.data_page_header_v2->definition_levels_byte_length = 3;
  p.data_page_header_v2->is_compressed = false;
  std::string bytes;
  EncodePageHeader(p, &bytes);
  bytes += "body";
  size_t used = 0;
  auto q = DecodePageHeader(bytes, &used);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(used, bytes.size() - 4);
  EXPECT_EQ(q->crc, -3);
  EXPECT_FALSE(q->data_page_header_v2->is_compressed);
  EXPECT_EQ(q->data_page_header_v2->definition_levels_byte_length, 3);

  ColumnIndex ci;
  ci.null_pages = {false, true, false};
  ci.min_values = {"a", "", "c"};
  ci.max_values = {"b", "", "d"};
  ci.boundary_order = BoundaryOrder::kAscending;
  ci.null_counts = {0, 5, 1};
  std::string cib;
  EncodeColumnIndex(ci, &cib);
  auto cj = DecodeColumnIndex(cib);
  ASSERT_TRUE(cj.has_value());
  EXPECT_EQ(cj->null_pages, ci.null_pages);
  EXPECT_EQ(cj->max_values, ci.max_values);
  EXPECT_EQ(cj->null_counts, ci.null_counts);

  OffsetIndex oi;
  oi.page_locations = {{4, 100, 0}, {104, 50, 1000}};
  std::string oib;
  EncodeOffsetIndex(oi, &oib);
  auto oj = DecodeOffsetIndex(oib);
  ASSERT_TRUE(oj.has_value());
  ASSERT_EQ(oj->page_locations.size(), 2u);
  EXPECT_EQ(oj->page_locations[1].first_row_index, 1000);
}

}  // namespace
}  // namespace floe::parquet
