#include "iceberg/manifest.h"

#include <gtest/gtest.h>

#include "formats/avro/container_file.h"

namespace floe::iceberg {
namespace {

Schema ManifestTestSchema() {
  return Schema(3, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)},
                    NestedField{2, "ts", false, Type::Primitive(TypeId::kTimestampTz)},
                    NestedField{3, "name", false, Type::Primitive(TypeId::kString)},
                    NestedField{4, "price", false, Type::Decimal(9, 2)}});
}

PartitionSpec TestSpec() {
  return PartitionSpec(1, {PartitionField{2, 1000, "ts_day", Transform::Day()},
                           PartitionField{1, 1001, "id_bucket", Transform::Bucket(8)},
                           PartitionField{4, 1002, "price", Transform::Identity()}});
}

DataFile SampleDataFile(int i) {
  DataFile f;
  f.file_path = fmt::format("s3://b/t/data/f{}.parquet", i);
  f.spec_id = 1;
  f.partition = {Literal::Int(19000 + i), Literal::Int(i % 8), i == 2 ? Literal::Null() : Literal::Decimal(100 * i - 50, 2)};
  f.record_count = 100 + i;
  f.file_size_in_bytes = 4096 * (i + 1);
  f.column_sizes = {{1, 800}, {3, 1200}};
  f.value_counts = {{1, 100 + i}};
  f.null_value_counts = {{3, i}};
  f.lower_bounds = {{1, ToBinary(*Type::Primitive(TypeId::kLong), Literal::Long(i * 10))}};
  f.upper_bounds = {{1, ToBinary(*Type::Primitive(TypeId::kLong), Literal::Long(i * 10 + 9))}};
  f.split_offsets = {4};
  f.sort_order_id = 0;
  return f;
}

TEST(Manifest, WritesAndReadsWithInheritance) {
  Schema schema = ManifestTestSchema();
  PartitionSpec spec = TestSpec();
  std::vector<ManifestEntry> entries;
  for (int i = 0; i < 3; ++i)
    entries.push_back(ManifestEntry{EntryStatus::kAdded, std::nullopt, std::nullopt, std::nullopt, SampleDataFile(i)});
  // An existing file carries its own numbers.
  entries.push_back(ManifestEntry{EntryStatus::kExisting, 11, 4, 4, SampleDataFile(3)});
  ManifestWriteContext ctx{2, &schema, &spec, ManifestContent::kData, 77};
  auto written = WriteManifest(ctx, entries);
  ASSERT_TRUE(written.has_value()) << written.error().ToString();
  ManifestFile record = written->record;
  EXPECT_EQ(record.added_files_count, 3);
  EXPECT_EQ(record.existing_files_count, 1);
  EXPECT_EQ(record.added_rows_count, 100 + 101 + 102);
  EXPECT_EQ(record.min_sequence_number, 4);
  ASSERT_EQ(record.partitions.size(), 3u);
  EXPECT_FALSE(record.partitions[0].contains_null);
  EXPECT_EQ(FromBinary(*Type::Primitive(TypeId::kDate), *record.partitions[0].lower_bound)->as_int(), 19000);
  EXPECT_EQ(FromBinary(*Type::Primitive(TypeId::kDate), *record.partitions[0].upper_bound)->as_int(), 19003);
  EXPECT_TRUE(record.partitions[2].contains_null);

  // The header carries what the spec requires.
  auto reader = avro::ContainerReader::Open(written->bytes);
  ASSERT_TRUE(reader.has_value());
  for (const char* key : {"schema", "schema-id", "partition-spec", "partition-spec-id", "format-version", "content"}) {
    EXPECT_TRUE(reader->metadata().contains(key)) << key;
  }
  EXPECT_EQ(reader->metadata().at("content"), "data");
  EXPECT_EQ(reader->schema().root().name, "manifest_entry");

  record.manifest_path = "s3://b/t/metadata/m0.avro";
  auto list = WriteManifestList(2, 77, 76, 5, {record});
  ASSERT_TRUE(list.has_value());
  auto records = ReadManifestList(*list);
  ASSERT_TRUE(records.has_value()) << records.error().ToString();
  ASSERT_EQ(records->size(), 1u);
  const ManifestFile& r = (*records)[0];
  EXPECT_EQ(r.sequence_number, 5);  // assigned by the list
  EXPECT_EQ(r.min_sequence_number, 4);
  EXPECT_EQ(r.added_snapshot_id, 77);
  EXPECT_EQ(r.partitions[0].lower_bound, record.partitions[0].lower_bound);

  auto read = ReadManifest(written->bytes, r, spec, schema);
  ASSERT_TRUE(read.has_value()) << read.error().ToString();
  ASSERT_EQ(read->size(), 4u);
  EXPECT_EQ((*read)[0].snapshot_id, 77);
  EXPECT_EQ((*read)[0].sequence_number, 5);
  EXPECT_EQ((*read)[0].file_sequence_number, 5);
  EXPECT_EQ((*read)[3].snapshot_id, 11);
  EXPECT_EQ((*read)[3].sequence_number, 4);
  const DataFile& f1 = (*read)[1].data_file;
  EXPECT_EQ(f1.file_path, SampleDataFile(1).file_path);
  EXPECT_EQ(f1.partition[0], Literal::Int(19001));
  EXPECT_EQ(f1.partition[1], Literal::Int(1));
  EXPECT_EQ(f1.partition[2], Literal::Decimal(50, 2));
  EXPECT_TRUE((*read)[2].data_file.partition[2].is_null());
  EXPECT_EQ(f1.lower_bounds, SampleDataFile(1).lower_bounds);
  EXPECT_EQ(f1.null_value_counts, SampleDataFile(1).null_value_counts);
  EXPECT_EQ(f1.split_offsets, std::vector<int64_t>{4});
  EXPECT_EQ(f1.sort_order_id, 0);
}

TEST(Manifest, RejectsGarbage) {
  Schema schema = ManifestTestSchema();
  PartitionSpec spec = TestSpec();
  EXPECT_FALSE(ReadManifest("garbage", ManifestFile{}, spec, schema).has_value());
  EXPECT_FALSE(ReadManifestList("Obj\x01garbage").has_value());
  ManifestWriteContext ctx{2, &schema, &spec, ManifestContent::kData, 1};
  DataFile bad = SampleDataFile(0);
  bad.partition.pop_back();
  EXPECT_FALSE(WriteManifest(ctx, {ManifestEntry{EntryStatus::kAdded, {}, {}, {}, bad}}).has_value());
  EXPECT_FALSE(WriteManifest(ctx, {ManifestEntry{EntryStatus::kExisting, {}, {}, {}, SampleDataFile(0)}}).has_value());
}

}  // namespace
}  // namespace floe::iceberg
