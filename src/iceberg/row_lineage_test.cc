// Format v3 row lineage as floe writes it (format/spec.md, "Row Lineage"): a snapshot's
// first-row-id is the table's next-row-id, new data manifests get the following ranges in the
// manifest list, files inherit theirs by position in the manifest, and rewritten manifests keep
// every existing file's id.
#include "iceberg/row_lineage.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "iceberg/filesystem_catalog.h"
#include "iceberg/manifest.h"
#include "iceberg/table.h"
#include "io/test_folder.h"

namespace floe::iceberg {
namespace {

DataFile LineageDataFile(Table& table, const std::string& name, int64_t rows) {
  DataFile f;
  f.file_path = table.ops().NewLocation("data/" + name + ".parquet");
  f.spec_id = table.metadata().default_spec_id;
  f.record_count = rows;
  f.file_size_in_bytes = 100 * rows;
  return f;
}

// Each live data file's name -> its first row id (-1: none).
std::map<std::string, int64_t> FirstRowIds(Table& table) {
  std::map<std::string, int64_t> out;
  auto live = table.LiveEntries();
  EXPECT_TRUE(live.has_value()) << live.error().ToString();
  for (const ManifestEntry& e : live.value_or(std::vector<ManifestEntry>{})) {
    const std::string& path = e.data_file.file_path;
    std::string name = path.substr(path.rfind('/') + 1);
    out[name.substr(0, name.find('.'))] = e.data_file.first_row_id.value_or(-1);
  }
  return out;
}

class RowLineageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = FileSystemCatalog::Open(io::testing::FreshFolder());
    ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
    catalog_ = std::move(*catalog);
    auto id = TableIdentifier::Parse("db.lineage");
    ASSERT_TRUE(id.has_value());
    id_ = *id;
    Schema schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)}});
    auto table = catalog_->CreateTable(id_, schema, {}, {{"format-version", "3"}});
    ASSERT_TRUE(table.has_value()) << table.error().ToString();
    table_ = std::move(*table);
  }

  std::unique_ptr<FileSystemCatalog> catalog_;
  TableIdentifier id_;
  std::unique_ptr<Table> table_;
};

TEST_F(RowLineageTest, SnapshotsManifestsAndFilesGetDisjointRanges) {
  EXPECT_EQ(table_->metadata().format_version, 3);
  EXPECT_EQ(table_->metadata().next_row_id, 0);
  EXPECT_FALSE(table_->metadata().properties.contains("format-version"));

  ASSERT_TRUE(table_->FastAppend({LineageDataFile(*table_, "a", 10), LineageDataFile(*table_, "b", 5)}).has_value());
  const Snapshot* first = table_->metadata().CurrentSnapshot();
  EXPECT_EQ(first->first_row_id, 0);
  EXPECT_EQ(first->added_rows, 15);
  EXPECT_EQ(table_->metadata().next_row_id, 15);
  EXPECT_EQ(FirstRowIds(*table_), (std::map<std::string, int64_t>{{"a", 0}, {"b", 10}}));

  ASSERT_TRUE(table_->FastAppend({LineageDataFile(*table_, "c", 7)}).has_value());
  const Snapshot* second = table_->metadata().CurrentSnapshot();
  EXPECT_EQ(second->first_row_id, 15);
  EXPECT_EQ(second->added_rows, 7);  // The first snapshot's manifest keeps its range.
  EXPECT_EQ(table_->metadata().next_row_id, 22);
  auto manifests = table_->Manifests(*second);
  ASSERT_TRUE(manifests.has_value());
  std::set<int64_t> manifest_ids;
  for (const ManifestFile& m : *manifests) manifest_ids.insert(m.first_row_id.value_or(-1));
  EXPECT_EQ(manifest_ids, (std::set<int64_t>{0, 15}));
  EXPECT_EQ(FirstRowIds(*table_), (std::map<std::string, int64_t>{{"a", 0}, {"b", 10}, {"c", 15}}));

  // Merged manifests write the files' ids out: they keep them, and the merged manifest's own
  // range (assigned as for any new manifest) is never inherited by them.
  ASSERT_TRUE(table_->SetProperties({{"commit.manifest.min-count-to-merge", "2"}}).has_value());
  size_t merged = 0;
  ASSERT_TRUE(table_->RewriteManifests(&merged).has_value());
  EXPECT_EQ(merged, 1u);  // Two manifests became one.
  EXPECT_EQ(FirstRowIds(*table_), (std::map<std::string, int64_t>{{"a", 0}, {"b", 10}, {"c", 15}}));
  EXPECT_GE(table_->metadata().next_row_id.value_or(0), 22);

  // A rewritten file's rows are new rows for lineage purposes: a fresh range above the others.
  int64_t next = table_->metadata().next_row_id.value_or(0);
  std::string a = table_->metadata().location + "/data/a.parquet";
  std::string b = table_->metadata().location + "/data/b.parquet";
  ASSERT_TRUE(table_->RewriteFiles({a, b}, {LineageDataFile(*table_, "ab", 15)}).has_value());
  auto ids = FirstRowIds(*table_);
  EXPECT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids["c"], 15);
  EXPECT_GE(ids["ab"], next);
  EXPECT_GE(table_->metadata().next_row_id.value_or(0), ids["ab"] + 15);

  // What was written reads back the same from the catalog's metadata.json.
  auto reloaded = catalog_->LoadTable(id_);
  ASSERT_TRUE(reloaded.has_value());
  EXPECT_EQ((*reloaded)->metadata().next_row_id, table_->metadata().next_row_id);
  EXPECT_EQ((*reloaded)->metadata().CurrentSnapshot()->first_row_id, table_->metadata().CurrentSnapshot()->first_row_id);
  EXPECT_EQ(FirstRowIds(**reloaded), ids);
}

TEST_F(RowLineageTest, AVersionTwoTableHasNoLineage) {
  auto id = TableIdentifier::Parse("db.plain");
  ASSERT_TRUE(id.has_value());
  auto plain = catalog_->CreateTable(*id, Schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)}}), {});
  ASSERT_TRUE(plain.has_value());
  ASSERT_TRUE((*plain)->FastAppend({LineageDataFile(**plain, "a", 10)}).has_value());
  EXPECT_EQ((*plain)->metadata().format_version, 2);
  EXPECT_FALSE((*plain)->metadata().CurrentSnapshot()->first_row_id.has_value());
  EXPECT_FALSE((*plain)->metadata().next_row_id.has_value());
  EXPECT_EQ(FirstRowIds(**plain), (std::map<std::string, int64_t>{{"a", -1}}));
  auto bad = catalog_->CreateTable(*TableIdentifier::Parse("db.bad"), Schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)}}),
                                   {}, {{"format-version", "three"}});
  EXPECT_FALSE(bad.has_value());
}

// The row-level fields (format/spec.md, "Row lineage assignment"): a stored non-null value is
// the row's; a null, or a file without the column, inherits first_row_id + position (for
// `_row_id`) or the file's data sequence number; without a first_row_id (a snapshot from before
// an upgrade to v3) row ids stay null.
TEST(RowLineageColumnsTest, StoredValuesWinAndNullsInherit) {
  formats::ColumnVector stored(formats::Primitive(formats::TypeId::kInt64));
  stored.Append<int64_t>(7);
  stored.AppendNull();
  stored.Append<int64_t>(3);
  // Rows at positions 10, 11, 12 of a file whose first row id is 1000.
  formats::ColumnVector ids = InheritLineage(&stored, 10, 3, 1000, true);
  ASSERT_EQ(ids.length, 3);
  EXPECT_EQ(ids.NullCount(), 0);
  EXPECT_EQ(ids.Data<int64_t>()[0], 7);
  EXPECT_EQ(ids.Data<int64_t>()[1], 1011);
  EXPECT_EQ(ids.Data<int64_t>()[2], 3);
  formats::ColumnVector sequences = InheritLineage(&stored, 10, 3, 42, false);
  EXPECT_EQ(sequences.Data<int64_t>()[1], 42);
  formats::ColumnVector missing = InheritLineage(nullptr, 5, 2, 1000, true);
  EXPECT_EQ(missing.Data<int64_t>()[0], 1005);
  EXPECT_EQ(missing.Data<int64_t>()[1], 1006);
  formats::ColumnVector unassigned = InheritLineage(&stored, 0, 3, std::nullopt, true);
  EXPECT_TRUE(unassigned.IsValid(0));
  EXPECT_FALSE(unassigned.IsValid(1));
  EXPECT_EQ(unassigned.Data<int64_t>()[2], 3);
  const Schema schema = WithRowLineageFields(Schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)}}));
  ASSERT_EQ(schema.fields().size(), 3u);
  EXPECT_EQ(schema.fields()[1].id, kRowIdFieldId);
  EXPECT_EQ(schema.fields()[2].name, kLastUpdatedSequenceNumberColumn);
}

}  // namespace
}  // namespace floe::iceberg
