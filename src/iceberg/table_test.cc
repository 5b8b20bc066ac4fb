#include "iceberg/table.h"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/filesystem_catalog.h"
#include "iceberg/scan.h"
#include "io/test_folder.h"

namespace floe::iceberg {
namespace {

Schema EventsSchema() {
  return Schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)},
                    NestedField{2, "ts", false, Type::Primitive(TypeId::kTimestampTz)},
                    NestedField{3, "kind", false, Type::Primitive(TypeId::kString)}});
}

constexpr int64_t kMicrosPerDay = int64_t{86400} * 1000000;

// A data file for day `day` holding ids [lo, hi].
DataFile DayFile(const Table& table, int day, int64_t lo, int64_t hi, const std::string& name) {
  DataFile f;
  f.file_path = const_cast<Table&>(table).ops().NewLocation("data/" + name + ".parquet");
  f.spec_id = table.metadata().default_spec_id;
  f.partition = {Literal::Int(day)};
  f.record_count = hi - lo + 1;
  f.file_size_in_bytes = 1000;
  auto L = Type::Primitive(TypeId::kLong);
  auto TS = Type::Primitive(TypeId::kTimestampTz);
  f.value_counts = {{1, f.record_count}, {2, f.record_count}};
  f.null_value_counts = {{1, 0}, {2, 0}};
  f.lower_bounds = {{1, ToBinary(*L, Literal::Long(lo))}, {2, ToBinary(*TS, Literal::Long(day * kMicrosPerDay))}};
  f.upper_bounds = {{1, ToBinary(*L, Literal::Long(hi))}, {2, ToBinary(*TS, Literal::Long(day * kMicrosPerDay + 1000))}};
  return f;
}

class TableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = FileSystemCatalog::Open(io::testing::FreshFolder());
    ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
    catalog_ = std::move(*catalog);
    auto id = TableIdentifier::Parse("db.events");
    ASSERT_TRUE(id.has_value());
    id_ = *id;
    auto table = catalog_->CreateTable(id_, EventsSchema(), {PartitionField{2, 1000, "ts_day", Transform::Day()}});
    ASSERT_TRUE(table.has_value()) << table.error().ToString();
    table_ = std::move(*table);
  }

  std::vector<std::string> Paths(const ScanPlan& plan) {
    std::vector<std::string> out;
    for (const auto& t : plan.tasks) out.push_back(t.file.file_path.substr(t.file.file_path.rfind('/') + 1));
    std::sort(out.begin(), out.end());
    return out;
  }

  Result<ScanPlan> Plan(const std::string& filter) {
    FLOE_ASSIGN_OR_RETURN(ExprPtr f, ParseFilter(filter));
    ScanOptions o;
    o.filter = f;
    return PlanScan(*table_, o);
  }

  std::unique_ptr<FileSystemCatalog> catalog_;
  TableIdentifier id_;
  std::unique_ptr<Table> table_;
};

TEST_F(TableTest, CreateWritesVersionOneAndRefusesASecondCreate) {
  EXPECT_EQ(table_->current().version, 1);
  EXPECT_TRUE(catalog_->store().Head("db/events/metadata/v1.metadata.json").has_value());
  EXPECT_EQ(*catalog_->store().Get("db/events/metadata/version-hint.text"), "1");
  auto again = catalog_->CreateTable(id_, EventsSchema(), {});
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().kind(), ErrorKind::kAlreadyExists);
  auto loaded = catalog_->LoadTable(id_);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ((*loaded)->metadata().table_uuid, table_->metadata().table_uuid);
  EXPECT_TRUE((*loaded)->metadata().location.starts_with("file:///"));
}

TEST_F(TableTest, AppendsPlanAndPrune) {
  ASSERT_TRUE(table_->FastAppend({DayFile(*table_, 100, 0, 99, "a"), DayFile(*table_, 101, 100, 199, "b")}).has_value());
  ASSERT_TRUE(table_->FastAppend({DayFile(*table_, 102, 200, 299, "c")}).has_value());
  const TableMetadata& m = table_->metadata();
  ASSERT_EQ(m.snapshots.size(), 2u);
  EXPECT_EQ(m.last_sequence_number, 2);
  EXPECT_EQ(m.CurrentSnapshot()->summary.at("total-records"), "300");
  EXPECT_EQ(m.CurrentSnapshot()->summary.at("total-data-files"), "3");
  EXPECT_EQ(m.CurrentSnapshot()->parent_snapshot_id, m.snapshots[0].snapshot_id);

  auto all = Plan("");
  ASSERT_TRUE(all.has_value()) << all.error().ToString();
  EXPECT_EQ(Paths(*all), (std::vector<std::string>{"a.parquet", "b.parquet", "c.parquet"}));
  EXPECT_EQ(all->manifests_total, 2);

  // Partition pruning through day(ts): one manifest is skipped by its summary.
  auto day = Plan("ts >= '1970-04-12T00:00:00+00:00'");  // day 101
  ASSERT_TRUE(day.has_value()) << day.error().ToString();
  EXPECT_EQ(Paths(*day), (std::vector<std::string>{"b.parquet", "c.parquet"}));
  auto only_c = Plan("ts > '1970-04-13T00:00:00+00:00'");
  ASSERT_TRUE(only_c.has_value());
  EXPECT_EQ(Paths(*only_c), (std::vector<std::string>{"c.parquet"}));
  EXPECT_EQ(only_c->manifests_read, 1);
  // Metrics pruning on id bounds.
  auto ids = Plan("id between 150 and 160");
  ASSERT_TRUE(ids.has_value());
  EXPECT_EQ(Paths(*ids), (std::vector<std::string>{"b.parquet"}));
  EXPECT_EQ(ids->files_pruned_by_metrics, 2);
  auto none = Plan("id < 0 or kind is null and id > 1000");
  ASSERT_TRUE(none.has_value());
  EXPECT_TRUE(none->tasks.empty());
  // Time travel to the first snapshot.
  ScanOptions first;
  first.snapshot_id = m.snapshots[0].snapshot_id;
  auto old = PlanScan(*table_, first);
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(old->tasks.size(), 2u);
  EXPECT_FALSE(Plan("nosuch = 1").has_value());
  EXPECT_FALSE(Plan("id = 'abc'").has_value());
}

TEST_F(TableTest, OverwriteDeletesAndValidates) {
  ASSERT_TRUE(table_->FastAppend({DayFile(*table_, 1, 0, 9, "a"), DayFile(*table_, 2, 10, 19, "b")}).has_value());
  std::string a = table_->metadata().location + "/data/a.parquet";
  ASSERT_TRUE(table_->OverwriteFiles({a}, {DayFile(*table_, 1, 0, 4, "a2")}).has_value());
  EXPECT_EQ(table_->metadata().CurrentSnapshot()->operation(), "overwrite");
  EXPECT_EQ(table_->metadata().CurrentSnapshot()->summary.at("total-records"), "15");
  auto plan = Plan("");
  ASSERT_TRUE(plan.has_value());
  EXPECT_EQ(Paths(*plan), (std::vector<std::string>{"a2.parquet", "b.parquet"}));
  // The file is gone now: deleting it again is a conflict that fails, not retries forever.
  auto again = table_->DeleteFiles({a});
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().kind(), ErrorKind::kConflict);
  EXPECT_NE(again.error().message().find("no longer in the table"), std::string::npos);
  // Rewrite (compaction's commit).
  std::string b = table_->metadata().location + "/data/b.parquet";
  std::string a2 = table_->metadata().location + "/data/a2.parquet";
  ASSERT_TRUE(table_->RewriteFiles({a2, b}, {DayFile(*table_, 1, 0, 19, "ab")}).has_value());
  EXPECT_EQ(table_->metadata().CurrentSnapshot()->operation(), "replace");
  auto after = Plan("");
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(Paths(*after), (std::vector<std::string>{"ab.parquet"}));
  auto live = table_->LiveEntries();
  ASSERT_TRUE(live.has_value());
  EXPECT_EQ(live->size(), 1u);
}

TEST_F(TableTest, RewriteSurvivesConcurrentAppendsButNotConcurrentDeletes) {
  // A stream job's checkpoint rides along each append.
  table_->set_summary_properties({{"floe.offsets.orders", R"({"0":20})"}});
  ASSERT_TRUE(table_->FastAppend({DayFile(*table_, 1, 0, 9, "a"), DayFile(*table_, 1, 10, 19, "b")}).has_value());
  std::string a = table_->metadata().location + "/data/a.parquet";
  std::string b = table_->metadata().location + "/data/b.parquet";
  table_->set_summary_properties({{"floe.offsets.orders", R"({"0":30})"}, {"floe.other", "x"}});
  // The compactor plans on its own Table; the writer commits between its plan and its commit.
  auto compactor = catalog_->LoadTable(id_);
  ASSERT_TRUE(compactor.has_value());
  ASSERT_TRUE(table_->FastAppend({DayFile(*table_, 1, 20, 29, "c")}).has_value());
  ASSERT_TRUE((*compactor)->RewriteFiles({a, b}, {DayFile(**compactor, 1, 0, 19, "ab")}).has_value());
  EXPECT_EQ((*compactor)->metadata().CurrentSnapshot()->operation(), "replace");
  EXPECT_EQ((*compactor)->metadata().CurrentSnapshot()->summary.at("total-records"), "30");
  EXPECT_EQ((*compactor)->metadata().CurrentSnapshot()->summary.at("deleted-data-files"), "2");
  EXPECT_EQ((*compactor)->metadata().CurrentSnapshot()->summary.at("added-data-files"), "1");
  // The replace carries the checkpoint of its parent (the concurrent append), nothing else.
  EXPECT_EQ((*compactor)->metadata().CurrentSnapshot()->summary.at("floe.offsets.orders"), R"({"0":30})");
  EXPECT_FALSE((*compactor)->metadata().CurrentSnapshot()->summary.contains("floe.other"));
  table_->set_summary_properties({});
  ASSERT_TRUE(table_->Refresh().has_value());
  std::string ab = table_->metadata().location + "/data/ab.parquet";
  std::string c = table_->metadata().location + "/data/c.parquet";

  // A position delete on a file being rewritten lands meanwhile: the rewrite would bring the
  // deleted row back (its new file is newer than the delete), so it must fail, and not retry.
  auto second = catalog_->LoadTable(id_);
  ASSERT_TRUE(second.has_value());
  DataFile deletes;
  deletes.content = FileContent::kPositionDeletes;
  deletes.file_path = table_->ops().NewLocation("data/ab-deletes.parquet");
  deletes.spec_id = table_->metadata().default_spec_id;
  deletes.partition = {Literal::Int(1)};
  deletes.referenced_data_file = ab;
  deletes.record_count = 1;
  deletes.file_size_in_bytes = 100;
  ASSERT_TRUE(table_->AddDeleteFiles({deletes}).has_value());
  auto lost = (*second)->RewriteFiles({ab, c}, {DayFile(**second, 1, 0, 29, "abc")});
  ASSERT_FALSE(lost.has_value());
  EXPECT_EQ(lost.error().kind(), ErrorKind::kConflict);
  EXPECT_NE(lost.error().message().find("delete files were committed"), std::string::npos);
  // Planned again after the delete, it is fine as far as the commit is concerned.
  ASSERT_TRUE((*second)->Refresh().has_value());
  EXPECT_TRUE((*second)->RewriteFiles({c}, {DayFile(**second, 1, 20, 29, "c2")}).has_value());
}

TEST_F(TableTest, RewriteManifestsMergesThemAndKeepsEveryFile) {
  ASSERT_TRUE(table_->SetProperties({{"commit.manifest.min-count-to-merge", "3"}}).has_value());
  size_t merged = 99;
  ASSERT_TRUE(table_->RewriteManifests(&merged).has_value());  // No snapshot yet: nothing.
  EXPECT_EQ(merged, 0u);
  table_->set_summary_properties({{"floe.offsets.orders", R"({"0":5})"}});
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(table_->FastAppend({DayFile(*table_, i, i * 10, i * 10 + 9, fmt::format("f{}", i))}).has_value());
  ASSERT_TRUE(table_->OverwriteFiles({table_->metadata().location + "/data/f0.parquet"}, {}).has_value());
  auto before = table_->Manifests(*table_->metadata().CurrentSnapshot());
  ASSERT_TRUE(before.has_value());
  ASSERT_EQ(before->size(), 5u);
  ASSERT_TRUE(table_->RewriteManifests(&merged).has_value());
  EXPECT_EQ(merged, 4u);
  const Snapshot* s = table_->metadata().CurrentSnapshot();
  EXPECT_EQ(s->operation(), "replace");
  EXPECT_EQ(s->summary.at("total-records"), "40");
  EXPECT_EQ(s->summary.at("total-data-files"), "4");
  EXPECT_EQ(s->summary.at("floe.offsets.orders"), R"({"0":5})");
  auto after = table_->Manifests(*s);
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->size(), 1u);
  auto plan = Plan("");
  ASSERT_TRUE(plan.has_value());
  EXPECT_EQ(Paths(*plan), (std::vector<std::string>{"f1.parquet", "f2.parquet", "f3.parquet", "f4.parquet"}));
  // One manifest left: below the count to merge, nothing is committed.
  int64_t id = s->snapshot_id;
  ASSERT_TRUE(table_->RewriteManifests(&merged).has_value());
  EXPECT_EQ(merged, 0u);
  EXPECT_EQ(table_->metadata().CurrentSnapshot()->snapshot_id, id);
}

TEST_F(TableTest, ConcurrentAppendersEachLandExactlyOnce) {
  constexpr int kThreads = 6;
  constexpr int kAppendsPerThread = 5;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      // Each thread has its own Table over its own operations: only the store is shared.
      auto table = catalog_->LoadTable(id_);
      if (!table) {
        ++failures;
        return;
      }
      for (int i = 0; i < kAppendsPerThread; ++i) {
        std::string name = fmt::format("t{}-{}", t, i);
        if (!(*table)->FastAppend({DayFile(**table, t, i, i, name)})) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  ASSERT_TRUE(table_->Refresh().has_value());
  auto live = table_->LiveEntries();
  ASSERT_TRUE(live.has_value()) << live.error().ToString();
  std::multiset<std::string> paths;
  for (const auto& e : *live) paths.insert(e.data_file.file_path);
  EXPECT_EQ(paths.size(), static_cast<size_t>(kThreads * kAppendsPerThread));
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kAppendsPerThread; ++i) {
      EXPECT_EQ(paths.count(table_->metadata().location + fmt::format("/data/t{}-{}.parquet", t, i)), 1u);
    }
  }
  EXPECT_EQ(table_->metadata().snapshots.size(), static_cast<size_t>(kThreads * kAppendsPerThread));
  EXPECT_EQ(table_->current().version, 1 + kThreads * kAppendsPerThread);
  // Sequence numbers are unique and dense.
  std::set<int64_t> seqs;
  for (const auto& s : table_->metadata().snapshots) seqs.insert(s.sequence_number);
  EXPECT_EQ(seqs.size(), static_cast<size_t>(kThreads * kAppendsPerThread));
  EXPECT_EQ(*seqs.rbegin(), kThreads * kAppendsPerThread);
}

TEST_F(TableTest, SchemaEvolutionPropertiesRollbackAndRefs) {
  ASSERT_TRUE(table_->UpdateSchema({SchemaChange{SchemaChange::Kind::kAddColumn, "price", Type::Decimal(9, 2)},
                                    SchemaChange{SchemaChange::Kind::kRenameColumn, "kind", nullptr, "event_kind"}})
                  .has_value());
  const Schema& s = table_->metadata().CurrentSchema();
  EXPECT_EQ(s.schema_id(), 1);
  EXPECT_EQ(s.FindFieldByName("price")->id, 4);
  EXPECT_EQ(s.FindFieldByName("event_kind")->id, 3);
  EXPECT_EQ(table_->metadata().last_column_id, 4);
  ASSERT_TRUE(table_->UpdateSchema({SchemaChange{SchemaChange::Kind::kPromoteType, "price", Type::Decimal(12, 2)},
                                    SchemaChange{SchemaChange::Kind::kMakeOptional, "id"},
                                    SchemaChange{SchemaChange::Kind::kMoveFirst, "price"}})
                  .has_value());
  EXPECT_EQ(table_->metadata().CurrentSchema().fields()[0].name, "price");
  EXPECT_FALSE(table_->UpdateSchema({SchemaChange{SchemaChange::Kind::kPromoteType, "price", Type::Primitive(TypeId::kInt)}})
                   .has_value());
  EXPECT_FALSE(table_->UpdateSchema({SchemaChange{SchemaChange::Kind::kDropColumn, "ts"}}).has_value());  // partition source
  ASSERT_TRUE(table_->UpdateSchema({SchemaChange{SchemaChange::Kind::kDropColumn, "event_kind"}}).has_value());
  EXPECT_EQ(table_->metadata().CurrentSchema().FindFieldByName("event_kind"), nullptr);

  ASSERT_TRUE(table_->SetProperties({{"owner", "floe"}, {"x", "1"}}, {}).has_value());
  ASSERT_TRUE(table_->SetProperties({}, {"x"}).has_value());
  EXPECT_EQ(table_->metadata().properties.size(), 1u);

  ASSERT_TRUE(table_->FastAppend({DayFile(*table_, 1, 0, 9, "a")}).has_value());
  int64_t first = *table_->metadata().current_snapshot_id;
  ASSERT_TRUE(table_->FastAppend({DayFile(*table_, 2, 10, 19, "b")}).has_value());
  ASSERT_TRUE(table_->SetRef("v1", SnapshotRef{first, false, {}, {}, {}}).has_value());
  ASSERT_TRUE(table_->Rollback(first).has_value());
  EXPECT_EQ(table_->metadata().current_snapshot_id, first);
  EXPECT_EQ(table_->metadata().refs.at("main").snapshot_id, first);
  ScanOptions tag;
  tag.ref = "v1";
  auto plan = PlanScan(*table_, tag);
  ASSERT_TRUE(plan.has_value());
  EXPECT_EQ(plan->tasks.size(), 1u);
  EXPECT_FALSE(table_->Rollback(12345).has_value());
  ASSERT_TRUE(table_->RemoveRef("v1").has_value());
  EXPECT_FALSE(table_->RemoveRef("main").has_value());

  // Everything survives a reload from disk.
  auto loaded = catalog_->LoadTable(id_);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().ToString();
  EXPECT_EQ((*loaded)->metadata().current_snapshot_id, first);
  EXPECT_EQ((*loaded)->metadata().metadata_log.size(), static_cast<size_t>((*loaded)->current().version - 1));
}

TEST_F(TableTest, MergeAppendKeepsManifestCountBounded) {
  ASSERT_TRUE(table_->SetProperties({{"commit.manifest.min-count-to-merge", "4"}}).has_value());
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(table_->MergeAppend({DayFile(*table_, i, i * 10, i * 10 + 9, fmt::format("m{}", i))}).has_value());
  }
  auto manifests = table_->Manifests(*table_->metadata().CurrentSnapshot());
  ASSERT_TRUE(manifests.has_value());
  EXPECT_LT(manifests->size(), 4u);
  auto live = table_->LiveEntries();
  ASSERT_TRUE(live.has_value()) << live.error().ToString();
  EXPECT_EQ(live->size(), 10u);
  // Sequence numbers survive merging: the first file still has the first commit's number.
  std::map<std::string, int64_t> seq;
  for (const auto& e : *live) seq[e.data_file.file_path.substr(e.data_file.file_path.rfind('/') + 1)] = *e.sequence_number;
  EXPECT_EQ(seq["m0.parquet"], 1);  // Property changes add no snapshot.
  EXPECT_EQ(seq["m9.parquet"], 10);
  auto plan = Plan("ts >= '1970-01-10T00:00:00+00:00'");
  ASSERT_TRUE(plan.has_value());
  EXPECT_EQ(Paths(*plan), (std::vector<std::string>{"m9.parquet"}));
}

TEST_F(TableTest, PartitionEvolutionKeepsOldManifestsReadable) {
  ASSERT_TRUE(table_->FastAppend({DayFile(*table_, 1, 0, 9, "a")}).has_value());
  ASSERT_TRUE(table_->UpdatePartitionSpec({PartitionField{1, 0, "id_bucket", Transform::Bucket(4)}}).has_value());
  EXPECT_EQ(table_->metadata().default_spec_id, 1);
  EXPECT_EQ(table_->metadata().DefaultSpec().fields()[0].field_id, 1001);
  DataFile f = DayFile(*table_, 0, 10, 10, "b");
  f.partition = {Transform::Bucket(4).Apply(*Type::Primitive(TypeId::kLong), Literal::Long(10))};
  ASSERT_TRUE(table_->FastAppend({f}).has_value());
  auto plan = Plan("id = 10");
  ASSERT_TRUE(plan.has_value()) << plan.error().ToString();
  EXPECT_EQ(Paths(*plan), (std::vector<std::string>{"b.parquet"}));
  auto all = Plan("");
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->tasks.size(), 2u);
}

TEST(CorpusTables, PlanWithMovedLocations) {
  std::string dir = io::testing::CorpusDir() + "/iceberg";
  ASSERT_TRUE(std::filesystem::exists(dir)) << "corpus not found at " << dir;
  auto lineitem = OpenTableAt(dir + "/iceberg/lineitem_iceberg");
  ASSERT_TRUE(lineitem.has_value()) << lineitem.error().ToString();
  ScanOptions all;
  auto plan = PlanScan(**lineitem, all);
  ASSERT_TRUE(plan.has_value()) << plan.error().ToString();
  ASSERT_EQ(plan->tasks.size(), 1u);
  EXPECT_EQ(plan->tasks[0].file.record_count, 51793);
  EXPECT_EQ(plan->tasks[0].data_sequence_number, 2);
  auto key = (*lineitem)->ops().KeyForLocation(plan->tasks[0].file.file_path);
  ASSERT_TRUE(key.has_value()) << key.error().ToString();
  EXPECT_TRUE((*lineitem)->ops().store().Head(*key).has_value()) << *key;
  // The first snapshot still reads its own file.
  ScanOptions first;
  first.snapshot_id = 7817332053627255703;
  auto old = PlanScan(**lineitem, first);
  ASSERT_TRUE(old.has_value());
  ASSERT_EQ(old->tasks.size(), 1u);
  EXPECT_EQ(old->tasks[0].file.record_count, 60175);
  // A metadata.json path pins that version.
  auto v1 = OpenTableAt(dir + "/iceberg/lineitem_iceberg/metadata/v1.metadata.json");
  ASSERT_TRUE(v1.has_value()) << v1.error().ToString();
  EXPECT_EQ(*(*v1)->metadata().current_snapshot_id, 7817332053627255703);

  auto integer = OpenTableAt(dir + "/partition_integer");
  ASSERT_TRUE(integer.has_value()) << integer.error().ToString();
  auto f = ParseFilter("partition_col = 42");
  ScanOptions o;
  o.filter = *f;
  auto p = PlanScan(**integer, o);
  ASSERT_TRUE(p.has_value()) << p.error().ToString();
  ASSERT_EQ(p->tasks.size(), 1u);
  EXPECT_NE(p->tasks[0].file.file_path.find("partition_col=42"), std::string::npos);
  EXPECT_EQ(p->tasks[0].residual->op, ExprOp::kTrue);  // decided by the identity partition

  // PyIceberg naming without a version hint: the highest-numbered metadata file.
  auto ts = OpenTableAt(dir + "/partition_timestamp/default.db/partition_timestamp");
  ASSERT_TRUE(ts.has_value()) << ts.error().ToString();
  EXPECT_EQ((*ts)->current().version, 1);
  auto tf = ParseFilter("partition_col >= '2023-06-01T00:00:00'");
  ScanOptions to;
  to.filter = *tf;
  auto tp = PlanScan(**ts, to);
  ASSERT_TRUE(tp.has_value()) << tp.error().ToString();
  ASSERT_EQ(tp->tasks.size(), 1u);
  EXPECT_NE(tp->tasks[0].file.file_path.find("2023-08-22"), std::string::npos);
  // PyIceberg left the identity partition column out of the data files: reading fills it from
  // the partition tuple instead of nulls.
  const Schema& schema = (*ts)->metadata().CurrentSchema();
  size_t column = 0;
  for (size_t i = 0; i < schema.fields().size(); ++i) {
    if (schema.fields()[i].name == "partition_col") column = i;
  }
  int64_t rows = 0;
  auto st = ReadTask(**ts, tp->tasks[0], schema, [&](const formats::ColumnBatch& b, const std::vector<int>& cols) -> Status {
    EXPECT_GE(cols[column], 0);
    if (cols[column] < 0) return OkStatus();
    const formats::ColumnVector& v = b.columns[static_cast<size_t>(cols[column])];
    for (int64_t r = 0; r < b.num_rows; ++r) {
      EXPECT_TRUE(v.IsValid(r));
      EXPECT_EQ(LiteralAt(v, r, *schema.fields()[column].type), tp->tasks[0].file.partition[0]);
      ++rows;
    }
    return OkStatus();
  });
  ASSERT_TRUE(st.has_value()) << st.error().ToString();
  EXPECT_EQ(rows, tp->tasks[0].file.record_count);
}

}  // namespace
}  // namespace floe::iceberg
