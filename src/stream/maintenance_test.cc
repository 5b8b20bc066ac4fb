#include "stream/maintenance.h"

#include <gtest/gtest.h>

#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/filesystem_catalog.h"
#include "io/test_folder.h"
#include "stream/source/source_offsets.h"

namespace floe::stream {
namespace {

using iceberg::NestedField;
using iceberg::Type;
using iceberg::TypeId;

// One round on a table of many one-batch appends: the small files are compacted, the manifests
// merged, and the job's offsets are still what the current snapshot says.
TEST(TableMaintenance, OneRoundCompactsMergesManifestsAndKeepsOffsets) {
  auto catalog = iceberg::FileSystemCatalog::Open(io::testing::FreshFolder());
  ASSERT_TRUE(catalog.has_value());
  auto id = *iceberg::TableIdentifier::Parse("db.events");
  iceberg::Schema schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)}});
  auto table = (*catalog)->CreateTable(id, schema, {});
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  ASSERT_TRUE((*table)->SetProperties({{"commit.manifest.min-count-to-merge", "4"}}).has_value());
  auto fields = iceberg::ToBatchFields(schema);
  ASSERT_TRUE(fields.has_value());
  for (int batch = 0; batch < 6; ++batch) {
    formats::ColumnBatch b = formats::MakeEmptyBatch(*fields);
    for (int i = 0; i < 10; ++i) b.columns[0].Append<int64_t>(batch * 10 + i);
    b.num_rows = 10;
    auto files = iceberg::WriteDataFiles(**table, {b});
    ASSERT_TRUE(files.has_value());
    (*table)->set_summary_properties({{OffsetsSummaryKey("events"), OffsetsToJson({{0, (batch + 1) * 10}})}});
    ASSERT_TRUE((*table)->FastAppend(*files).has_value());
  }
  MetricsRegistry metrics;
  TableMaintenance maintenance([&]() { return (*catalog)->LoadTable(id); },
                               {.interval_ms = 0, .target_file_size_bytes = 1 << 20, .expire_retain_last = 1}, metrics);
  auto report = maintenance.RunOnce();
  ASSERT_TRUE(report.has_value()) << report.error().ToString();
  EXPECT_EQ(report->files_rewritten, 6u);
  EXPECT_EQ(report->files_added, 1u);
  EXPECT_GT(report->manifests_merged, 0u);
  auto after = (*catalog)->LoadTable(id);
  ASSERT_TRUE(after.has_value());
  const iceberg::TableMetadata& m = (*after)->metadata();
  EXPECT_EQ(m.CurrentSnapshot()->summary.at("total-records"), "60");
  auto manifests = (*after)->Manifests(*m.CurrentSnapshot());
  ASSERT_TRUE(manifests.has_value());
  EXPECT_EQ(manifests->size(), 1u);
  auto offsets = OffsetsInAncestryOf(m, m.CurrentSnapshot(), "events");
  ASSERT_TRUE(offsets.has_value());
  EXPECT_EQ(*offsets, (SourceOffsets{{0, 60}}));
}

// With compaction off (the playground's small-files scenario) a round leaves every small file
// where it is, yet still merges the manifests.
TEST(TableMaintenance, CompactionOffLeavesTheSmallFilesButMergesManifests) {
  auto catalog = iceberg::FileSystemCatalog::Open(io::testing::FreshFolder());
  ASSERT_TRUE(catalog.has_value());
  auto id = *iceberg::TableIdentifier::Parse("db.events");
  iceberg::Schema schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)}});
  auto table = (*catalog)->CreateTable(id, schema, {});
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  ASSERT_TRUE((*table)->SetProperties({{"commit.manifest.min-count-to-merge", "4"}}).has_value());
  auto fields = iceberg::ToBatchFields(schema);
  ASSERT_TRUE(fields.has_value());
  for (int batch = 0; batch < 6; ++batch) {
    formats::ColumnBatch b = formats::MakeEmptyBatch(*fields);
    for (int i = 0; i < 10; ++i) b.columns[0].Append<int64_t>(batch * 10 + i);
    b.num_rows = 10;
    auto files = iceberg::WriteDataFiles(**table, {b});
    ASSERT_TRUE(files.has_value());
    ASSERT_TRUE((*table)->FastAppend(*files).has_value());
  }
  MetricsRegistry metrics;
  TableMaintenance maintenance(
      [&]() { return (*catalog)->LoadTable(id); },
      {.interval_ms = 0, .compact = false, .target_file_size_bytes = 1 << 20, .expire_retain_last = 1}, metrics);
  auto report = maintenance.RunOnce();
  ASSERT_TRUE(report.has_value()) << report.error().ToString();
  EXPECT_EQ(report->files_rewritten, 0u);
  EXPECT_EQ(report->files_added, 0u);
  EXPECT_GT(report->manifests_merged, 0u);
  auto after = (*catalog)->LoadTable(id);
  ASSERT_TRUE(after.has_value());
  const iceberg::TableMetadata& m = (*after)->metadata();
  EXPECT_EQ(m.CurrentSnapshot()->summary.at("total-data-files"), "6");
  EXPECT_EQ(m.CurrentSnapshot()->summary.at("total-records"), "60");
}

}  // namespace
}  // namespace floe::stream
