// Deletion vectors written by floe on a v3 table: rows found by key (FindKeyRows), vectors
// written (WriteDeletionVectors) and committed with CommitRowDelta, merged with a file's
// current vector so that each data file keeps one; a vector planned against a vector that a
// concurrent commit replaced, or against a file compaction removed, is refused.
#include "iceberg/deletion_vector_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/delete_rows.h"
#include "iceberg/filesystem_catalog.h"
#include "iceberg/key_rows.h"
#include "iceberg/scan.h"
#include "io/test_folder.h"

namespace floe::iceberg {
namespace {

class DeletionVectorFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = FileSystemCatalog::Open(io::testing::FreshFolder());
    ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
    catalog_ = std::move(*catalog);
    auto id = TableIdentifier::Parse("db.state");
    ASSERT_TRUE(id.has_value());
    id_ = *id;
    Schema schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)},
                      NestedField{2, "v", false, Type::Primitive(TypeId::kString)}});
    auto table = catalog_->CreateTable(id_, schema, {}, {{"format-version", "3"}});
    ASSERT_TRUE(table.has_value()) << table.error().ToString();
    table_ = std::move(*table);
  }

  formats::ColumnBatch Rows(const std::vector<int64_t>& ids, const std::string& v) {
    auto fields = ToBatchFields(table_->metadata().CurrentSchema());
    EXPECT_TRUE(fields.has_value());
    formats::ColumnBatch b = formats::MakeEmptyBatch(*fields);
    for (int64_t id : ids) {
      b.columns[0].Append<int64_t>(id);
      b.columns[1].AppendString(v);
    }
    b.num_rows = static_cast<int64_t>(ids.size());
    return b;
  }

  // An upsert of `ids` with value `v` (or a delete when `v` is empty), as the stream job does it.
  Status Upsert(Table& table, const std::vector<int64_t>& ids, const std::string& v) {
    formats::ColumnBatch rows = Rows(ids, v);
    FLOE_ASSIGN_OR_RETURN(auto found, FindKeyRows(table, {1}, {rows}));
    std::vector<DeletionVectorUpdate> updates;
    std::vector<DataFile> replaced;
    for (KeyRowsInFile& f : found) {
      DeletionVectorUpdate u{f.data_file, f.positions};
      if (f.deletion_vector) {
        FLOE_ASSIGN_OR_RETURN(auto earlier, ReadDeletionVector(table, *f.deletion_vector, f.data_file));
        u.positions.insert(u.positions.end(), earlier.begin(), earlier.end());
        replaced.push_back(*f.deletion_vector);
      } else {
        FLOE_ASSIGN_OR_RETURN(auto earlier,
                              PositionDeletesForVector(table, f.data_file, f.position_delete_files, &replaced));
        u.positions.insert(u.positions.end(), earlier.begin(), earlier.end());
      }
      updates.push_back(std::move(u));
    }
    FLOE_ASSIGN_OR_RETURN(auto vectors, WriteDeletionVectors(table, updates));
    std::vector<DataFile> data;
    if (!v.empty()) {
      FLOE_ASSIGN_OR_RETURN(data, WriteDataFiles(table, {rows}));
    }
    return table.CommitRowDelta(data, vectors, replaced);
  }

  // id -> value of every row read, deletes applied (a repeated id fails the test).
  std::map<int64_t, std::string> Read() {
    std::map<int64_t, std::string> out;
    auto plan = PlanScan(*table_, ScanOptions{});
    EXPECT_TRUE(plan.has_value());
    for (const FileScanTask& task : plan->tasks) {
      Status st = ReadTask(*table_, task, plan->schema, [&](const formats::ColumnBatch& b, const std::vector<int>& cols) {
        for (int64_t r = 0; r < b.num_rows; ++r) {
          int64_t id = b.columns[cols[0]].Data<int64_t>()[r];
          EXPECT_TRUE(out.emplace(id, std::string(b.columns[cols[1]].StringAt(r))).second) << "id " << id << " twice";
        }
        return OkStatus();
      });
      EXPECT_TRUE(st.has_value()) << st.error().ToString();
    }
    return out;
  }

  // The live deletion vectors: referenced data file -> cardinality.
  std::map<std::string, int64_t> Vectors() {
    std::map<std::string, int64_t> out;
    auto live = table_->LiveEntries();
    EXPECT_TRUE(live.has_value());
    for (const ManifestEntry& e : *live) {
      if (!e.data_file.is_deletion_vector()) continue;
      EXPECT_TRUE(out.emplace(*e.data_file.referenced_data_file, e.data_file.record_count).second)
          << "two vectors for " << *e.data_file.referenced_data_file;
    }
    return out;
  }

  std::unique_ptr<FileSystemCatalog> catalog_;
  TableIdentifier id_;
  std::unique_ptr<Table> table_;
};

TEST_F(DeletionVectorFileTest, UpsertsMergeIntoOneVectorPerDataFile) {
  std::vector<int64_t> first;
  for (int64_t id = 0; id < 100; ++id) first.push_back(id);
  ASSERT_TRUE(Upsert(*table_, first, "a").has_value());
  EXPECT_TRUE(Vectors().empty());
  ASSERT_TRUE(Upsert(*table_, {3, 5, 7}, "b").has_value());
  ASSERT_TRUE(Upsert(*table_, {5, 9, 200}, "c").has_value());  // 5 again: its "b" row goes; 200 is new.
  ASSERT_TRUE(Upsert(*table_, {9, 11}, "").has_value());       // Deletes only.
  std::map<int64_t, std::string> expected;
  for (int64_t id = 0; id < 100; ++id) expected[id] = "a";
  // Keys on the first file's bounds (0 and 99) and beyond every file's (500): the files the
  // lookup skips by their bounds hold none of them.
  ASSERT_TRUE(Upsert(*table_, {0, 99, 500}, "d").has_value());
  ASSERT_TRUE(Upsert(*table_, {0, 99, 500}, "").has_value());
  expected.erase(0);
  expected.erase(99);
  expected[3] = expected[7] = "b";
  expected[5] = "c";
  expected[200] = "c";
  expected.erase(9);
  expected.erase(11);
  EXPECT_EQ(Read(), expected);
  // The first file's vector holds 3, 5, 7, 9, 11 (merged over three commits); the second's 5.
  // The first file's vector holds 0, 3, 5, 7, 9, 11, 99 (merged over four commits), the
  // second's 5, the third's 9, the fourth's 0, 99, 500 (every row of it).
  std::multiset<int64_t> cardinalities;
  for (const auto& [file, count] : Vectors()) cardinalities.insert(count);
  EXPECT_EQ(cardinalities, (std::multiset<int64_t>{1, 1, 3, 7}));
  const Snapshot* last = table_->metadata().CurrentSnapshot();
  EXPECT_EQ(last->operation(), "delete");
  EXPECT_EQ(last->summary.at("added-dvs"), "1");  // The fourth file's: the first's rows were gone already.
  EXPECT_FALSE(last->summary.contains("removed-dvs"));
  EXPECT_EQ(last->summary.at("total-position-deletes"), "12");
  const Snapshot* before = table_->metadata().SnapshotById(*last->parent_snapshot_id);
  EXPECT_EQ(before->summary.at("added-dvs"), "1");  // 0 and 99 merged into the first file's vector,
  EXPECT_EQ(before->summary.at("removed-dvs"), "1");  // which replaces its previous one.
}

TEST_F(DeletionVectorFileTest, AVectorPlannedOnAReplacedVectorIsRefused) {
  ASSERT_TRUE(Upsert(*table_, {1, 2, 3, 4}, "a").has_value());
  ASSERT_TRUE(Upsert(*table_, {1}, "b").has_value());
  // Another writer plans on the same snapshot and commits first.
  auto other = catalog_->LoadTable(id_);
  ASSERT_TRUE(other.has_value());
  auto stale_keys = FindKeyRows(*table_, {1}, {Rows({2}, "x")});
  ASSERT_TRUE(stale_keys.has_value());
  ASSERT_EQ(stale_keys->size(), 1u);
  ASSERT_TRUE((*stale_keys)[0].deletion_vector.has_value());
  ASSERT_TRUE(Upsert(**other, {3}, "c").has_value());
  KeyRowsInFile stale = (*stale_keys)[0];
  auto earlier = ReadDeletionVector(*table_, *stale.deletion_vector, stale.data_file);
  ASSERT_TRUE(earlier.has_value());
  std::vector<int64_t> merged = stale.positions;
  merged.insert(merged.end(), earlier->begin(), earlier->end());
  auto vectors = WriteDeletionVectors(*table_, {DeletionVectorUpdate{stale.data_file, merged}});
  ASSERT_TRUE(vectors.has_value());
  Status lost = table_->CommitRowDelta({}, *vectors, {*stale.deletion_vector});
  ASSERT_FALSE(lost.has_value());
  EXPECT_EQ(lost.error().kind(), ErrorKind::kConflict);
  EXPECT_NE(lost.error().message().find("changed the file's vector"), std::string::npos) << lost.error().ToString();
  // Planned again, it lands, and every delete so far holds.
  ASSERT_TRUE(table_->Refresh().has_value());
  ASSERT_TRUE(Upsert(*table_, {2}, "").has_value());
  EXPECT_EQ(Read(), (std::map<int64_t, std::string>{{1, "b"}, {3, "c"}, {4, "a"}}));

  // A vector for a file that compaction removed meanwhile is refused too.
  auto planned = FindKeyRows(*table_, {1}, {Rows({4}, "x")});
  ASSERT_TRUE(planned.has_value());
  ASSERT_EQ(planned->size(), 1u);
  auto compacted = WriteDataFiles(*table_, {Rows({4}, "a")});
  ASSERT_TRUE(compacted.has_value());
  ASSERT_TRUE(table_->RewriteFiles({(*planned)[0].data_file.file_path}, *compacted).has_value());
  auto gone = WriteDeletionVectors(*table_, {DeletionVectorUpdate{(*planned)[0].data_file, (*planned)[0].positions}});
  ASSERT_TRUE(gone.has_value());
  std::vector<DataFile> replaced;
  if ((*planned)[0].deletion_vector) replaced.push_back(*(*planned)[0].deletion_vector);
  Status removed = table_->CommitRowDelta({}, *gone, replaced);
  ASSERT_FALSE(removed.has_value());
  EXPECT_EQ(removed.error().kind(), ErrorKind::kConflict);
  EXPECT_NE(removed.error().message().find("was removed"), std::string::npos) << removed.error().ToString();
}

// Compaction planned before a vector lands: it still commits when the vector names a file it
// does not rewrite, and fails when it names one it does (the vector's deletes would be lost).
TEST_F(DeletionVectorFileTest, CompactionBesideNewVectorsOfOtherFiles) {
  ASSERT_TRUE(Upsert(*table_, {1, 2, 3}, "a").has_value());
  ASSERT_TRUE(Upsert(*table_, {10, 11, 12}, "b").has_value());
  auto compactor = catalog_->LoadTable(id_);
  ASSERT_TRUE(compactor.has_value());
  ASSERT_TRUE(Upsert(*table_, {11}, "").has_value());  // A vector on the file of 10..12.
  ASSERT_EQ(Vectors().size(), 1u);
  const std::string vector_file = Vectors().begin()->first;
  std::string other_file;  // The file of 1..3, which has no vector.
  auto live = (*compactor)->LiveEntries();
  ASSERT_TRUE(live.has_value());
  for (const ManifestEntry& e : *live) {
    if (e.data_file.file_path != vector_file) other_file = e.data_file.file_path;
  }
  auto rows_of_other = WriteDataFiles(**compactor, {Rows({1, 2, 3}, "a")});
  ASSERT_TRUE(rows_of_other.has_value());
  ASSERT_TRUE((*compactor)->RewriteFiles({other_file}, *rows_of_other).has_value());
  auto stale = catalog_->LoadTable(id_);
  ASSERT_TRUE(stale.has_value());
  ASSERT_TRUE(Upsert(*table_, {12}, "").has_value());  // The vector named by `vector_file` grows.
  auto rewritten = WriteDataFiles(**stale, {Rows({10, 12}, "b")});
  ASSERT_TRUE(rewritten.has_value());
  Status lost = (*stale)->RewriteFiles({vector_file}, *rewritten);
  ASSERT_FALSE(lost.has_value());
  EXPECT_EQ(lost.error().kind(), ErrorKind::kConflict);
  ASSERT_TRUE(table_->Refresh().has_value());
  EXPECT_EQ(Read(), (std::map<int64_t, std::string>{{1, "a"}, {2, "a"}, {3, "a"}, {10, "b"}}));
}

TEST_F(DeletionVectorFileTest, VersionTwoTablesRefuseVectors) {
  auto id = TableIdentifier::Parse("db.v2");
  ASSERT_TRUE(id.has_value());
  auto v2 = catalog_->CreateTable(*id, table_->metadata().CurrentSchema(), {});
  ASSERT_TRUE(v2.has_value());
  auto files = WriteDataFiles(**v2, {Rows({1, 2}, "a")});
  ASSERT_TRUE(files.has_value());
  ASSERT_TRUE((*v2)->FastAppend(*files).has_value());
  auto vectors = WriteDeletionVectors(**v2, {DeletionVectorUpdate{(*files)[0], {1}}});
  ASSERT_TRUE(vectors.has_value());
  Status st = (*v2)->CommitRowDelta({}, *vectors);
  ASSERT_FALSE(st.has_value());
  EXPECT_EQ(st.error().kind(), ErrorKind::kInvalidArgument);
  // Positions outside the data file are the writer's bug, refused before anything is written.
  auto outside = WriteDeletionVectors(**v2, {DeletionVectorUpdate{(*files)[0], {2}}});
  EXPECT_FALSE(outside.has_value());
}

// A v2 table with merge-on-read position deletes, upgraded to v3 by setting format-version: a
// data file's first vector must take its position deletes over (readers ignore position delete
// files beside a vector, as the spec says and floe's reader does), both from an upsert's lookup
// and from DELETE; the delete file scoped to that file alone goes in the same commit, a
// partition-wide one stays for the files without a vector.
TEST_F(DeletionVectorFileTest, AfterAnUpgradeFromV2AFilesFirstVectorTakesItsPositionDeletesOver) {
  auto id = TableIdentifier::Parse("db.upgraded");
  ASSERT_TRUE(id.has_value());
  auto created = catalog_->CreateTable(*id, table_->metadata().CurrentSchema(), {}, {{"format-version", "2"}});
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  table_ = std::move(*created);
  auto a = WriteDataFiles(*table_, {Rows({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, "a")});
  ASSERT_TRUE(a.has_value());
  ASSERT_TRUE(table_->FastAppend(*a).has_value());
  auto b = WriteDataFiles(*table_, {Rows({10, 11, 12, 13, 14, 15, 16, 17, 18, 19}, "a")});
  ASSERT_TRUE(b.has_value());
  ASSERT_TRUE(table_->FastAppend(*b).has_value());
  auto c = WriteDataFiles(*table_, {Rows({20, 21}, "a")});
  ASSERT_TRUE(c.has_value());
  ASSERT_TRUE(table_->FastAppend(*c).has_value());
  const std::string path_a = (*a)[0].file_path, path_b = (*b)[0].file_path, path_c = (*c)[0].file_path;
  // v2 deletes: one file of a's positions 2 and 3 (scoped to a), one of a's 4, b's 0 and c's 1.
  auto scoped = WritePositionDeletes(*table_, {{path_a, {2, 3}}}, {});
  auto wide = WritePositionDeletes(*table_, {{path_a, {4}}, {path_b, {0}}, {path_c, {1}}}, {});
  ASSERT_TRUE(scoped.has_value() && wide.has_value());
  ASSERT_EQ(scoped->referenced_data_file, path_a);
  ASSERT_TRUE(table_->AddDeleteFiles({*scoped, *wide}).has_value());

  ASSERT_TRUE(table_->SetProperties({{"format-version", "3"}}).has_value());
  EXPECT_EQ(table_->metadata().format_version, 3);
  EXPECT_FALSE(table_->metadata().properties.contains("format-version"));
  EXPECT_EQ(table_->metadata().next_row_id, 0);
  EXPECT_FALSE(table_->SetProperties({{"format-version", "2"}}).has_value());  // Never down.
  std::map<int64_t, std::string> expected;
  for (int64_t i = 0; i < 22; ++i) expected[i] = "a";
  for (int64_t gone : {2, 3, 4, 10, 21}) expected.erase(gone);
  EXPECT_EQ(Read(), expected);

  // An upsert of id 5 (in a) and a merge-on-read DELETE of id 15 (in b).
  ASSERT_TRUE(Upsert(*table_, {5}, "b").has_value());
  expected[5] = "b";
  EXPECT_EQ(Read(), expected);
  auto filter = ParseFilter("id = 15");
  ASSERT_TRUE(filter.has_value());
  DeleteRowsOptions options;
  options.merge_on_read = true;
  auto deleted = DeleteRows(*table_, *filter, options);
  ASSERT_TRUE(deleted.has_value()) << deleted.error().ToString();
  EXPECT_EQ(deleted->deleted_rows, 1);
  expected.erase(15);
  EXPECT_EQ(Read(), expected);
  // a's vector: 2, 3, 4 (taken over) and 5; b's: 0 (taken over) and 5. c has none.
  std::map<std::string, int64_t> want_vectors = {{path_a, 4}, {path_b, 2}};
  EXPECT_EQ(Vectors(), want_vectors);
  auto live = table_->LiveEntries();
  ASSERT_TRUE(live.has_value());
  std::set<std::string> files;
  for (const ManifestEntry& e : *live) files.insert(e.data_file.file_path);
  EXPECT_FALSE(files.contains(scoped->file_path)) << "the delete file scoped to a is still live";
  EXPECT_TRUE(files.contains(wide->file_path)) << "the partition-wide delete file still applies to c";
  EXPECT_TRUE(table_->metadata().CurrentSnapshot()->first_row_id.has_value());
}

}  // namespace
}  // namespace floe::iceberg
