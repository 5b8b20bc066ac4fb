#include "sql/iceberg/compaction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/deletion_vector_file.h"
#include "iceberg/equality_deletes.h"
#include "iceberg/filesystem_catalog.h"
#include "iceberg/row_lineage.h"
#include "iceberg/scan.h"
#include "io/test_folder.h"

namespace floe::sql::iceberg_sql {
namespace {

using iceberg::Literal;
using iceberg::NestedField;
using iceberg::Type;
using iceberg::TypeId;

// A region partition value as text ('eu' -> eu).
std::string Region(const Literal& l) {
  std::string s = l.ToString();
  return s.size() >= 2 && s.front() == '\'' ? s.substr(1, s.size() - 2) : s;
}

// Events partitioned by region (identity), so a file's partition is its region.
class CompactionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = iceberg::FileSystemCatalog::Open(io::testing::FreshFolder());
    ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
    catalog_ = std::move(*catalog);
    auto id = iceberg::TableIdentifier::Parse("db.events");
    ASSERT_TRUE(id.has_value());
    iceberg::Schema schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)},
                               NestedField{2, "region", false, Type::Primitive(TypeId::kString)}});
    auto table = catalog_->CreateTable(*id, schema, {iceberg::PartitionField{2, 1000, "region", iceberg::Transform::Identity()}});
    ASSERT_TRUE(table.has_value()) << table.error().ToString();
    table_ = std::move(*table);
  }

  // One small file of `count` ids from `first` in `region`, committed with a stream job's
  // checkpoint as the job would write it.
  void AppendFile(const std::string& region, int64_t first, int count) {
    auto fields = iceberg::ToBatchFields(table_->metadata().CurrentSchema());
    ASSERT_TRUE(fields.has_value());
    formats::ColumnBatch b = formats::MakeEmptyBatch(*fields);
    for (int i = 0; i < count; ++i) {
      b.columns[0].Append<int64_t>(first + i);
      b.columns[1].AppendString(region);
    }
    b.num_rows = count;
    auto files = iceberg::WriteDataFiles(*table_, {b});
    ASSERT_TRUE(files.has_value()) << files.error().ToString();
    ASSERT_EQ(files->size(), 1u);
    produced_ += count;
    table_->set_summary_properties({{"floe.offsets.events", "{\"0\":" + std::to_string(produced_) + "}"}});
    ASSERT_TRUE(table_->FastAppend(*files).has_value());
  }

  // Live data files per region, and every id read back.
  std::map<std::string, int> FilesPerRegion() {
    std::map<std::string, int> out;
    auto plan = iceberg::PlanScan(*table_, iceberg::ScanOptions{});
    EXPECT_TRUE(plan.has_value());
    for (const auto& t : plan->tasks) ++out[Region(t.file.partition[0])];
    return out;
  }
  std::vector<int64_t> Ids() {
    std::vector<int64_t> ids;
    auto plan = iceberg::PlanScan(*table_, iceberg::ScanOptions{});
    EXPECT_TRUE(plan.has_value());
    for (const auto& t : plan->tasks) {
      Status st = iceberg::ReadTask(*table_, t, plan->schema, [&](const formats::ColumnBatch& b, const std::vector<int>& cols) -> Status {
        for (int64_t r = 0; r < b.num_rows; ++r) ids.push_back(b.columns[static_cast<size_t>(cols[0])].Data<int64_t>()[r]);
        return OkStatus();
      });
      EXPECT_TRUE(st.has_value()) << st.error().ToString();
    }
    std::sort(ids.begin(), ids.end());
    return ids;
  }

  // Equality delete files on (id, region) for `ids` of `region`, not committed.
  std::vector<iceberg::DataFile> EqualityDeletes(iceberg::Table& table, const std::string& region,
                                                 const std::vector<int64_t>& ids) {
    auto fields = iceberg::ToBatchFields(table.metadata().CurrentSchema());
    EXPECT_TRUE(fields.has_value());
    formats::ColumnBatch keys = formats::MakeEmptyBatch(*fields);
    for (int64_t id : ids) {
      keys.columns[0].Append<int64_t>(id);
      keys.columns[1].AppendString(region);
    }
    keys.num_rows = static_cast<int64_t>(ids.size());
    auto files = iceberg::WriteEqualityDeletes(table, {1, 2}, {keys});
    EXPECT_TRUE(files.has_value()) << files.error().ToString();
    return files.value_or(std::vector<iceberg::DataFile>{});
  }

  std::unique_ptr<iceberg::FileSystemCatalog> catalog_;
  std::unique_ptr<iceberg::Table> table_;
  int64_t produced_ = 0;
};

TEST_F(CompactionTest, FoldsEqualityDeletesIntoLargeFilesAndDropsTheDeleteFiles) {
  AppendFile("eu", 0, 10);
  AppendFile("us", 100, 10);
  // An upsert of eu ids 3 and 5: a new row for 3 and deletes of both keys' older rows.
  auto fields = iceberg::ToBatchFields(table_->metadata().CurrentSchema());
  ASSERT_TRUE(fields.has_value());
  formats::ColumnBatch row = formats::MakeEmptyBatch(*fields);
  row.columns[0].Append<int64_t>(3);
  row.columns[1].AppendString("eu");
  row.num_rows = 1;
  auto added = iceberg::WriteDataFiles(*table_, {row});
  ASSERT_TRUE(added.has_value());
  ASSERT_TRUE(table_->CommitRowDelta(*added, EqualityDeletes(*table_, "eu", {3, 5})).has_value());
  EXPECT_EQ(table_->metadata().CurrentSnapshot()->summary.at("operation"), "overwrite");
  std::vector<int64_t> want = {0, 1, 2, 3, 4, 6, 7, 8, 9};
  for (int64_t id = 100; id < 110; ++id) want.push_back(id);
  ASSERT_EQ(Ids(), want);

  // No file is small (threshold 1 byte): only the eu files the delete applies to are rewritten.
  auto done = CompactDataFiles(*table_, {.file_size_threshold = 1});
  ASSERT_TRUE(done.has_value()) << done.error().ToString();
  EXPECT_EQ(done->files_rewritten, 1u);
  EXPECT_EQ(done->delete_files_removed, 1u);
  EXPECT_EQ(Ids(), want);
  auto entries = table_->LiveEntries();
  ASSERT_TRUE(entries.has_value());
  for (const auto& e : *entries) EXPECT_EQ(e.data_file.content, iceberg::FileContent::kData) << e.data_file.file_path;
  const auto& summary = table_->metadata().CurrentSnapshot()->summary;
  EXPECT_EQ(summary.at("total-delete-files"), "0");
  EXPECT_EQ(summary.at("removed-equality-deletes"), "2");
}

// A position delete file naming two data files (as SQL's merge-on-read DELETE writes one when
// its rows are in several files) applies to nothing once both are rewritten: it goes with them.
TEST_F(CompactionTest, DropsAPositionDeleteFileOnceEveryFileItNamesIsRewritten) {
  AppendFile("eu", 0, 10);
  AppendFile("eu", 10, 10);
  auto plan = iceberg::PlanScan(*table_, iceberg::ScanOptions{});
  ASSERT_TRUE(plan.has_value());
  ASSERT_EQ(plan->tasks.size(), 2u);
  std::map<std::string, std::vector<int64_t>> positions = {{plan->tasks[0].file.file_path, {1, 2}},
                                                           {plan->tasks[1].file.file_path, {0}}};
  auto deletes = iceberg::WritePositionDeletes(*table_, positions, plan->tasks[0].file.partition);
  ASSERT_TRUE(deletes.has_value()) << deletes.error().ToString();
  ASSERT_FALSE(deletes->referenced_data_file.has_value());
  ASSERT_TRUE(table_->CommitRowDelta({}, {*deletes}).has_value());
  const size_t left = Ids().size();
  ASSERT_EQ(left, 17u);

  auto done = CompactDataFiles(*table_, {.file_size_threshold = int64_t{1} << 30});
  ASSERT_TRUE(done.has_value()) << done.error().ToString();
  EXPECT_EQ(done->files_rewritten, 2u);
  EXPECT_EQ(done->delete_files_removed, 1u);
  EXPECT_EQ(Ids().size(), left);
  auto entries = table_->LiveEntries();
  ASSERT_TRUE(entries.has_value());
  for (const auto& e : *entries) EXPECT_EQ(e.data_file.content, iceberg::FileContent::kData) << e.data_file.file_path;
}

TEST_F(CompactionTest, ARewriteKeepsThePlannedSequenceNumberSoNewEqualityDeletesStillApply) {
  AppendFile("eu", 0, 10);
  AppendFile("eu", 10, 10);
  auto plan = iceberg::PlanScan(*table_, iceberg::ScanOptions{});
  ASSERT_TRUE(plan.has_value());
  const int64_t planned = table_->metadata().CurrentSnapshot()->sequence_number;
  std::vector<std::string> removed;
  std::vector<formats::ColumnBatch> rows;
  for (const auto& t : plan->tasks) {
    removed.push_back(t.file.file_path);
    auto keep = [&](const formats::ColumnBatch& b, const std::vector<int>&) {
      rows.push_back(b);
      return OkStatus();
    };
    ASSERT_TRUE(iceberg::ReadTask(*table_, t, plan->schema, keep).has_value());
  }
  auto rewritten = iceberg::WriteDataFiles(*table_, rows);
  ASSERT_TRUE(rewritten.has_value());
  // Meanwhile another writer (the upsert job) deletes ids 4 and 15.
  auto writer = catalog_->LoadTable(*iceberg::TableIdentifier::Parse("db.events"));
  ASSERT_TRUE(writer.has_value());
  ASSERT_TRUE((*writer)->CommitRowDelta({}, EqualityDeletes(**writer, "eu", {4, 15})).has_value());

  // Without the planned sequence number the rewrite must fail (the rows would come back)...
  EXPECT_EQ(table_->RewriteFiles(removed, *rewritten).error().kind(), ErrorKind::kConflict);
  ASSERT_TRUE(table_->Refresh().has_value());
  // ...with it, it commits, and the new delete still hides its rows in the rewritten file.
  rewritten = iceberg::WriteDataFiles(*table_, rows);
  ASSERT_TRUE(rewritten.has_value());
  auto committed = table_->RewriteFiles(removed, *rewritten,
                                        {.data_sequence_number = planned, .drop_dangling_deletes = true});
  ASSERT_TRUE(committed.has_value()) << committed.error().ToString();
  std::vector<int64_t> want;
  for (int64_t id = 0; id < 20; ++id) {
    if (id != 4 && id != 15) want.push_back(id);
  }
  EXPECT_EQ(Ids(), want);
  EXPECT_EQ(table_->metadata().CurrentSnapshot()->summary.at("total-delete-files"), "1");  // Still needed.
  // The next compaction folds it.
  auto done = CompactDataFiles(*table_, {.file_size_threshold = 1});
  ASSERT_TRUE(done.has_value()) << done.error().ToString();
  EXPECT_EQ(done->delete_files_removed, 1u);
  EXPECT_EQ(Ids(), want);
}

TEST_F(CompactionTest, BinPacksEachPartitionAppliesDeletesAndKeepsTheCheckpoint) {
  for (int i = 0; i < 4; ++i) AppendFile("eu", i * 10, 10);
  for (int i = 0; i < 3; ++i) AppendFile("us", 100 + i * 10, 10);
  AppendFile("apac", 200, 10);  // Alone in its partition: nothing to pack it with.
  ASSERT_EQ(FilesPerRegion(), (std::map<std::string, int>{{"apac", 1}, {"eu", 4}, {"us", 3}}));
  // Rows 0 and 1 of the first eu file (ids 0 and 1) are deleted by position.
  auto plan = iceberg::PlanScan(*table_, iceberg::ScanOptions{});
  ASSERT_TRUE(plan.has_value());
  std::string first_eu;
  for (const auto& t : plan->tasks) {
    if (Region(t.file.partition[0]) == "eu" && t.file.lower_bounds.contains(1)) {
      auto lo = iceberg::FromBinary(*Type::Primitive(TypeId::kLong), t.file.lower_bounds.at(1));
      if (lo.has_value() && lo->ToString() == "0") first_eu = t.file.file_path;
    }
  }
  ASSERT_FALSE(first_eu.empty());
  auto deletes = iceberg::WritePositionDeletes(*table_, {{first_eu, {0, 1}}}, {Literal::String("eu")});
  ASSERT_TRUE(deletes.has_value()) << deletes.error().ToString();
  ASSERT_TRUE(table_->AddDeleteFiles({*deletes}).has_value());
  // The delete's snapshot (another writer's) has no checkpoint; the replace carries the one of
  // the nearest ancestor that has it.
  EXPECT_FALSE(table_->metadata().CurrentSnapshot()->summary.contains("floe.offsets.events"));
  std::string checkpoint = "{\"0\":80}";

  auto done = CompactDataFiles(*table_, {.file_size_threshold = int64_t{64} << 20});
  ASSERT_TRUE(done.has_value()) << done.error().ToString();
  EXPECT_EQ(done->files_rewritten, 7u);
  EXPECT_EQ(done->files_added, 2u);
  EXPECT_EQ(FilesPerRegion(), (std::map<std::string, int>{{"apac", 1}, {"eu", 1}, {"us", 1}}));
  std::vector<int64_t> want;
  for (int64_t id = 2; id < 40; ++id) want.push_back(id);
  for (int64_t id = 100; id < 130; ++id) want.push_back(id);
  for (int64_t id = 200; id < 210; ++id) want.push_back(id);
  EXPECT_EQ(Ids(), want);
  std::map<std::string, std::string> summary = table_->metadata().CurrentSnapshot()->summary;
  const iceberg::Snapshot* s = table_->metadata().CurrentSnapshot();
  EXPECT_EQ(s->operation(), "replace");
  EXPECT_EQ(summary["deleted-data-files"], "7");
  EXPECT_EQ(summary["deleted-records"], "70");
  EXPECT_EQ(summary["added-data-files"], "2");
  EXPECT_EQ(summary["added-records"], "68");
  EXPECT_EQ(summary["total-data-files"], "3");
  EXPECT_EQ(summary["total-records"], "78");
  EXPECT_EQ(summary["floe.offsets.events"], checkpoint);

  // Nothing small is left to pack: a second run commits nothing.
  int64_t before = table_->metadata().current_snapshot_id.value_or(-1);
  auto again = CompactDataFiles(*table_, {.file_size_threshold = int64_t{64} << 20});
  ASSERT_TRUE(again.has_value()) << again.error().ToString();
  EXPECT_EQ(again->files_rewritten, 0u);
  EXPECT_EQ(table_->metadata().current_snapshot_id.value_or(-1), before);
}

TEST_F(CompactionTest, BinsStayNearTheTargetSize) {
  for (int i = 0; i < 6; ++i) AppendFile("eu", i * 10, 10);
  auto plan = iceberg::PlanScan(*table_, iceberg::ScanOptions{});
  ASSERT_TRUE(plan.has_value());
  int64_t largest = 0;
  for (const auto& t : plan->tasks) largest = std::max(largest, t.file.file_size_in_bytes);
  // Room for two inputs per output, not three.
  int64_t target = largest * 2 + largest / 2;
  auto done = CompactDataFiles(*table_, {.file_size_threshold = target, .target_file_size_bytes = target});
  ASSERT_TRUE(done.has_value()) << done.error().ToString();
  EXPECT_EQ(done->files_rewritten, 6u);
  EXPECT_EQ(done->files_added, 3u);
  EXPECT_EQ(FilesPerRegion(), (std::map<std::string, int>{{"eu", 3}}));
  EXPECT_EQ(Ids().size(), 60u);
}

// A table's operations that run `before_first_commit` once, just before the first commit they
// pass on: another writer's commit lands between a compaction's plan and its commit.
class InterposingOperations final : public iceberg::TableOperations {
 public:
  InterposingOperations(iceberg::TableOperations& inner, std::function<void()> before_first_commit)
      : inner_(inner), before_(std::move(before_first_commit)) {}
  Result<iceberg::VersionedMetadata> Refresh() override { return inner_.Refresh(); }
  Result<iceberg::VersionedMetadata> Commit(const iceberg::VersionedMetadata& base,
                                            const iceberg::TableChange& change) override {
    if (before_) std::exchange(before_, nullptr)();
    return inner_.Commit(base, change);
  }
  io::ObjectStore& store() override { return inner_.store(); }
  Result<std::string> KeyForLocation(std::string_view location) const override {
    return inner_.KeyForLocation(location);
  }
  std::string NewLocation(std::string_view relative) const override { return inner_.NewLocation(relative); }
  const std::string& table_key() const override { return inner_.table_key(); }

 private:
  iceberg::TableOperations& inner_;
  std::function<void()> before_;
};

// id -> (_row_id, _last_updated_sequence_number) of every live row, read as the spec defines
// them: the stored value, else the file's first_row_id + position / its data sequence number.
std::map<int64_t, std::pair<int64_t, int64_t>> Lineage(iceberg::Table& table) {
  std::map<int64_t, std::pair<int64_t, int64_t>> out;
  auto plan = iceberg::PlanScan(table, iceberg::ScanOptions{});
  EXPECT_TRUE(plan.has_value());
  const iceberg::Schema schema = iceberg::WithRowLineageFields(plan->schema);
  const size_t n = plan->schema.fields().size();
  for (const auto& t : plan->tasks) {
    int64_t position = 0;
    Status st = iceberg::ReadTaskRows(
        table, t, schema,
        [&](formats::ColumnBatch& b, const std::vector<int>& cols, const std::vector<uint8_t>& deleted) -> Status {
          auto stored = [&](size_t i) { return cols[i] < 0 ? nullptr : &b.columns[static_cast<size_t>(cols[i])]; };
          auto ids = iceberg::InheritLineage(stored(n), position, b.num_rows, t.file.first_row_id, true);
          auto seqs = iceberg::InheritLineage(stored(n + 1), position, b.num_rows, t.data_sequence_number, false);
          for (int64_t r = 0; r < b.num_rows; ++r) {
            if (!deleted.empty() && deleted[static_cast<size_t>(r)]) continue;
            int64_t id = b.columns[static_cast<size_t>(cols[0])].Data<int64_t>()[r];
            EXPECT_TRUE(out.emplace(id, std::make_pair(ids.Data<int64_t>()[r], seqs.Data<int64_t>()[r])).second) << id;
          }
          position += b.num_rows;
          return OkStatus();
        });
    EXPECT_TRUE(st.has_value()) << st.error().ToString();
  }
  return out;
}

// A busy v3 upsert job commits a deletion vector on a file while compaction rewrites it: the
// compaction must neither fail forever nor lose the delete. It carries the new deletes onto the
// rows' new places, and every surviving row keeps its row id and sequence number.
TEST_F(CompactionTest, DeletionVectorsCommittedMeanwhileAreCarriedOntoTheRewrittenFiles) {
  auto id = iceberg::TableIdentifier::Parse("db.state");
  ASSERT_TRUE(id.has_value());
  auto created = catalog_->CreateTable(*id, table_->metadata().CurrentSchema(),
                                       {iceberg::PartitionField{2, 1000, "region", iceberg::Transform::Identity()}},
                                       {{"format-version", "3"}});
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  table_ = std::move(*created);
  AppendFile("eu", 0, 10);   // File a: ids 0-9.
  AppendFile("eu", 10, 10);  // File b: ids 10-19.
  auto entries = table_->LiveEntries();
  ASSERT_TRUE(entries.has_value());
  ASSERT_EQ(entries->size(), 2u);
  // A vector already deletes id 1 (position 1 of a) when compaction plans. File a was appended
  // first: its rows have row ids from 0.
  iceberg::DataFile file_a, file_b;
  for (const auto& e : *entries) (e.data_file.first_row_id == 0 ? file_a : file_b) = e.data_file;
  ASSERT_EQ(file_b.first_row_id, 10);
  auto first = iceberg::WriteDeletionVectors(*table_, {{file_a, {1}}});
  ASSERT_TRUE(first.has_value()) << first.error().ToString();
  ASSERT_TRUE(table_->CommitRowDelta({}, *first).has_value());
  const auto lineage_before = Lineage(*table_);

  // Between compaction's plan and its commit the job deletes ids 5 (a, merged with a's vector)
  // and 12 (b, its first vector).
  auto writer = catalog_->LoadTable(*id);
  ASSERT_TRUE(writer.has_value());
  auto concurrent = [&] {
    auto vectors = iceberg::WriteDeletionVectors(**writer, {{file_a, {1, 5}}, {file_b, {2}}});
    ASSERT_TRUE(vectors.has_value()) << vectors.error().ToString();
    ASSERT_TRUE((*writer)->CommitRowDelta({}, *vectors, *first).has_value());
  };
  auto ops = std::make_shared<InterposingOperations>(table_->ops(), concurrent);
  auto compacting = iceberg::Table::Load(ops);
  ASSERT_TRUE(compacting.has_value());
  auto done = CompactDataFiles(**compacting, {.file_size_threshold = 1 << 30});
  ASSERT_TRUE(done.has_value()) << done.error().ToString();
  EXPECT_EQ(done->files_rewritten, 2u);
  ASSERT_TRUE(table_->Refresh().has_value());
  const auto& summary = table_->metadata().CurrentSnapshot()->summary;
  EXPECT_EQ(summary.at("operation"), "replace");
  EXPECT_EQ(summary.at("added-dvs"), "1");  // One vector on the one new file, with both deletes.
  EXPECT_EQ(summary.at("added-position-deletes"), "2");

  std::vector<int64_t> want;
  for (int64_t i = 0; i < 20; ++i) {
    if (i != 1 && i != 5 && i != 12) want.push_back(i);
  }
  EXPECT_EQ(Ids(), want);
  // Rows keep their lineage through the move; the deleted ones are gone.
  auto lineage_after = Lineage(*table_);
  ASSERT_EQ(lineage_after.size(), want.size());
  for (const auto& [row, values] : lineage_after) {
    ASSERT_TRUE(lineage_before.contains(row)) << row;
    EXPECT_EQ(values, lineage_before.at(row)) << "id " << row;
  }
  // The next compaction folds the carried vector away, still keeping the lineage.
  auto again = CompactDataFiles(*table_, {.file_size_threshold = 1 << 30});
  ASSERT_TRUE(again.has_value()) << again.error().ToString();
  EXPECT_EQ(table_->metadata().CurrentSnapshot()->summary.at("total-delete-files"), "0");
  EXPECT_EQ(Ids(), want);
  EXPECT_EQ(Lineage(*table_), lineage_after);
}

}  // namespace
}  // namespace floe::sql::iceberg_sql
