#include "iceberg/delete_rows.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "base/bytes.h"
#include "iceberg/batch_conversion.h"
#include "iceberg/deletion_vector.h"
#include "iceberg/filesystem_catalog.h"
#include "iceberg/scan.h"
#include "io/test_folder.h"

namespace floe::iceberg {
namespace {

// Events partitioned by region (identity): eu holds ids 0..9, us ids 10..19, one file each.
class DeleteRowsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = FileSystemCatalog::Open(io::testing::FreshFolder());
    ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
    catalog_ = std::move(*catalog);
    auto id = TableIdentifier::Parse("db.events");
    ASSERT_TRUE(id.has_value());
    id_ = *id;
    Schema schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)},
                      NestedField{2, "region", false, Type::Primitive(TypeId::kString)}});
    auto table = catalog_->CreateTable(id_, schema, {PartitionField{2, 1000, "region", Transform::Identity()}});
    ASSERT_TRUE(table.has_value()) << table.error().ToString();
    table_ = std::move(*table);
    Append(*table_, "eu", 0, 10);
    Append(*table_, "us", 10, 10);
  }

  static void Append(Table& table, const std::string& region, int64_t first, int count) {
    auto fields = ToBatchFields(table.metadata().CurrentSchema());
    ASSERT_TRUE(fields.has_value());
    formats::ColumnBatch b = formats::MakeEmptyBatch(*fields);
    for (int i = 0; i < count; ++i) {
      b.columns[0].Append<int64_t>(first + i);
      b.columns[1].AppendString(region);
    }
    b.num_rows = count;
    auto files = WriteDataFiles(table, {b});
    ASSERT_TRUE(files.has_value()) << files.error().ToString();
    ASSERT_TRUE(table.FastAppend(*files).has_value());
  }

  // Every id the current snapshot holds, deletes applied, ascending.
  std::vector<int64_t> Ids(Table& table) {
    std::vector<int64_t> ids;
    auto plan = PlanScan(table, ScanOptions{});
    EXPECT_TRUE(plan.has_value()) << plan.error().ToString();
    for (const auto& task : plan->tasks) {
      Status st = ReadTask(table, task, plan->schema, [&](const formats::ColumnBatch& b, const std::vector<int>& cols) {
        for (int64_t r = 0; r < b.num_rows; ++r) ids.push_back(LiteralAt(b.columns[cols[0]], r, *Type::Primitive(TypeId::kLong)).as_long());
        return OkStatus();
      });
      EXPECT_TRUE(st.has_value()) << st.error().ToString();
    }
    std::sort(ids.begin(), ids.end());
    return ids;
  }
  std::vector<int64_t> Ids() { return Ids(*table_); }

  static std::vector<int64_t> Range(int64_t lo, int64_t hi) {
    std::vector<int64_t> out;
    for (int64_t i = lo; i <= hi; ++i) out.push_back(i);
    return out;
  }
  static std::vector<int64_t> Concat(std::vector<int64_t> a, const std::vector<int64_t>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }

  Result<DeleteRowsResult> Delete(Table& table, const std::string& filter) {
    FLOE_ASSIGN_OR_RETURN(ExprPtr f, ParseFilter(filter));
    return DeleteRows(table, f);
  }

  // The live data file of a region.
  DataFile FileOf(const std::string& region) {
    auto plan = PlanScan(*table_, ScanOptions{});
    for (const auto& t : plan->tasks) {
      if (t.file.partition[0].as_bytes() == region) return t.file;
    }
    ADD_FAILURE() << "no file for " << region;
    return {};
  }

  const std::map<std::string, std::string>& Summary() { return table_->metadata().CurrentSnapshot()->summary; }

  std::unique_ptr<FileSystemCatalog> catalog_;
  TableIdentifier id_;
  std::unique_ptr<Table> table_;
};

TEST_F(DeleteRowsTest, DropsFilesWhoseRowsAllMatchWithoutReadingThem) {
  // The eu file is gone from storage: reading it would fail, so the delete must not read it.
  DataFile eu = FileOf("eu");
  ASSERT_TRUE(catalog_->store().Delete(*table_->ops().KeyForLocation(eu.file_path)).has_value());
  auto r = Delete(*table_, "region = 'eu'");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->deleted_rows, 10);
  EXPECT_EQ(r->files_dropped, 1);
  EXPECT_EQ(r->files_rewritten, 0);
  EXPECT_EQ(table_->metadata().CurrentSnapshot()->operation(), "delete");
  EXPECT_EQ(Summary().at("deleted-data-files"), "1");
  EXPECT_EQ(Summary().at("deleted-records"), "10");
  EXPECT_EQ(Summary().at("total-records"), "10");
  EXPECT_EQ(Ids(), Range(10, 19));

  // Column bounds prove it too: every us id is >= 10.
  r = Delete(*table_, "id >= 10");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->files_dropped, 1);
  EXPECT_TRUE(Ids().empty());
}

TEST_F(DeleteRowsTest, RewritesFilesThatPartlyMatchInTheirPartition) {
  auto r = Delete(*table_, "id >= 5 and id < 15");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->deleted_rows, 10);
  EXPECT_EQ(r->files_rewritten, 2);
  EXPECT_EQ(r->files_added, 2);
  EXPECT_EQ(table_->metadata().CurrentSnapshot()->operation(), "overwrite");
  EXPECT_EQ(Summary().at("deleted-data-files"), "2");
  EXPECT_EQ(Summary().at("deleted-records"), "20");
  EXPECT_EQ(Summary().at("added-data-files"), "2");
  EXPECT_EQ(Summary().at("added-records"), "10");
  EXPECT_EQ(Summary().at("total-records"), "10");
  EXPECT_EQ(Ids(), Concat(Range(0, 4), Range(15, 19)));
  // Each survivor stays in its partition.
  EXPECT_EQ(FileOf("eu").record_count, 5);
  EXPECT_EQ(FileOf("us").record_count, 5);
}

TEST_F(DeleteRowsTest, NothingMatchingCommitsNoSnapshot) {
  int64_t before = *table_->metadata().current_snapshot_id;
  // Pruned by partition or bounds.
  for (const char* filter : {"id > 100", "region = 'asia'", "id in (100, 200) or region = 'mars'"}) {
    auto r = Delete(*table_, filter);
    ASSERT_TRUE(r.has_value()) << filter << ": " << r.error().ToString();
    EXPECT_EQ(r->deleted_rows, 0) << filter;
    EXPECT_FALSE(r->snapshot_id.has_value()) << filter;
  }
  // Read (4 lies within the eu file's bounds) but no row matches.
  auto r = Delete(*table_, "region = 'eu' and id > 3 and id < 4");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->deleted_rows, 0);
  EXPECT_EQ(*table_->metadata().current_snapshot_id, before);
  EXPECT_EQ(Ids(), Range(0, 19));
}

TEST_F(DeleteRowsTest, OverwriteByFilterSwapsRowsInOneCommit) {
  // New eu rows 100..104, written first, replace the old eu rows atomically.
  auto fields = ToBatchFields(table_->metadata().CurrentSchema());
  ASSERT_TRUE(fields.has_value());
  formats::ColumnBatch b = formats::MakeEmptyBatch(*fields);
  for (int i = 0; i < 5; ++i) {
    b.columns[0].Append<int64_t>(100 + i);
    b.columns[1].AppendString("eu");
  }
  b.num_rows = 5;
  auto written = WriteDataFiles(*table_, {b});
  ASSERT_TRUE(written.has_value()) << written.error().ToString();
  const int64_t before = table_->metadata().CurrentSnapshot()->snapshot_id;
  DeleteRowsOptions options;
  options.add_files = *written;
  auto filter = ParseFilter("region = 'eu'");
  ASSERT_TRUE(filter.has_value());
  auto r = DeleteRows(*table_, *filter, options);
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->deleted_rows, 10);
  EXPECT_EQ(r->files_added, 1);
  EXPECT_EQ(table_->metadata().CurrentSnapshot()->parent_snapshot_id, before);
  EXPECT_EQ(table_->metadata().CurrentSnapshot()->operation(), "overwrite");
  EXPECT_EQ(Summary().at("deleted-records"), "10");
  EXPECT_EQ(Summary().at("added-records"), "5");
  EXPECT_EQ(Ids(), Concat(Range(10, 19), Range(100, 104)));

  // A filter that cannot bind fails before committing, and the files written for it are gone.
  auto more = WriteDataFiles(*table_, {b});
  ASSERT_TRUE(more.has_value());
  options.add_files = *more;
  auto bad = ParseFilter("nope = 1");
  ASSERT_TRUE(bad.has_value());
  EXPECT_FALSE(DeleteRows(*table_, *bad, options).has_value());
  EXPECT_FALSE(catalog_->store().Head(*table_->ops().KeyForLocation((*more)[0].file_path)).has_value());
  EXPECT_EQ(Ids(), Concat(Range(10, 19), Range(100, 104)));
}

// Files written before int->long and float->double promotions are rewritten in the new types.
TEST(DeleteRowsPromoted, RewritesColumnsStoredWithAnOlderType) {
  auto catalog = FileSystemCatalog::Open(io::testing::FreshFolder());
  ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
  Schema schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kInt)},
                    NestedField{2, "x", false, Type::Primitive(TypeId::kFloat)}});
  auto table = (*catalog)->CreateTable(*TableIdentifier::Parse("db.old"), schema, {});
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  auto fields = ToBatchFields(schema);
  ASSERT_TRUE(fields.has_value());
  formats::ColumnBatch b = formats::MakeEmptyBatch(*fields);
  for (int i = 0; i < 10; ++i) {
    b.columns[0].Append<int32_t>(i);
    b.columns[1].Append<float>(static_cast<float>(i) + 0.5f);
  }
  b.num_rows = 10;
  auto files = WriteDataFiles(**table, {b});
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  ASSERT_TRUE((*table)->FastAppend(*files).has_value());
  ASSERT_TRUE((*table)->UpdateSchema({SchemaChange{SchemaChange::Kind::kPromoteType, "id", Type::Primitive(TypeId::kLong)},
                                      SchemaChange{SchemaChange::Kind::kPromoteType, "x", Type::Primitive(TypeId::kDouble)}})
                  .has_value());
  auto r = DeleteRows(**table, *ParseFilter("id < 3"));
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->deleted_rows, 3);
  EXPECT_EQ(r->files_rewritten, 1);
  auto plan = PlanScan(**table, ScanOptions{});
  ASSERT_TRUE(plan.has_value());
  ASSERT_EQ(plan->tasks.size(), 1u);
  std::vector<std::string> rows;
  ASSERT_TRUE(ReadTask(**table, plan->tasks[0], plan->schema, [&](const formats::ColumnBatch& batch, const std::vector<int>& cols) {
    EXPECT_EQ(batch.columns[cols[0]].type().id, formats::TypeId::kInt64);
    EXPECT_EQ(batch.columns[cols[1]].type().id, formats::TypeId::kDouble);
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      rows.push_back(fmt::format("{}:{}", LiteralAt(batch.columns[cols[0]], row, *plan->schema.fields()[0].type).as_long(),
                                 LiteralAt(batch.columns[cols[1]], row, *plan->schema.fields()[1].type).as_double()));
    }
    return OkStatus();
  }).has_value());
  EXPECT_EQ(rows, (std::vector<std::string>{"3:3.5", "4:4.5", "5:5.5", "6:6.5", "7:7.5", "8:8.5", "9:9.5"}));
}

TEST_F(DeleteRowsTest, ExistingPositionDeletesApplyAndGoWithTheirFile) {
  DataFile us = FileOf("us");
  auto deletes = WritePositionDeletes(*table_, {{us.file_path, {0, 1}}}, us.partition);  // ids 10, 11
  ASSERT_TRUE(deletes.has_value()) << deletes.error().ToString();
  ASSERT_TRUE(table_->AddDeleteFiles({*deletes}).has_value());
  ASSERT_EQ(Ids(), Concat(Range(0, 9), Range(12, 19)));

  auto r = Delete(*table_, "id < 13 and region = 'us'");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->deleted_rows, 1);  // 10 and 11 were already gone.
  EXPECT_EQ(Ids(), Concat(Range(0, 9), Range(13, 19)));
  // The file-scoped delete file would dangle: it is removed with its data file.
  EXPECT_EQ(Summary().at("removed-delete-files"), "1");
  EXPECT_EQ(Summary().at("total-delete-files"), "0");
  auto plan = PlanScan(*table_, ScanOptions{});
  for (const auto& t : plan->tasks) EXPECT_TRUE(t.deletes.empty());

  // Every remaining us row matches, but the file is read (it has no deletes now, so it is
  // dropped unread); then everything.
  r = Delete(*table_, "true");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->deleted_rows, 17);
  EXPECT_TRUE(Ids().empty());
  EXPECT_EQ(Summary().at("total-records"), "0");
}

TEST_F(DeleteRowsTest, AConcurrentRemovalOfAFileBeingRewrittenFails) {
  auto stale = catalog_->LoadTable(id_);
  ASSERT_TRUE(stale.has_value());
  // Another writer removes the eu rows first.
  ASSERT_TRUE(Delete(*table_, "region = 'eu'").has_value());
  // The stale table plans the eu file for a rewrite; committing it would resurrect eu rows.
  auto r = Delete(**stale, "id = 3 or id = 12");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind(), ErrorKind::kConflict);
  EXPECT_NE(r.error().message().find("no longer in the table"), std::string::npos) << r.error().ToString();
  ASSERT_TRUE(table_->Refresh().has_value());
  EXPECT_EQ(Ids(), Range(10, 19));
  // Planned again, it goes through.
  ASSERT_TRUE((*stale)->Refresh().has_value());
  r = Delete(**stale, "id = 3 or id = 12");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->deleted_rows, 1);
}

TEST_F(DeleteRowsTest, ConcurrentDeletesAndAppendsConflictUnderSerializable) {
  auto stale = catalog_->LoadTable(id_);
  ASSERT_TRUE(stale.has_value());
  // A position delete on the us file lands after the stale table read it.
  DataFile us = FileOf("us");
  auto deletes = WritePositionDeletes(*table_, {{us.file_path, {9}}}, us.partition);
  ASSERT_TRUE(deletes.has_value());
  ASSERT_TRUE(table_->AddDeleteFiles({*deletes}).has_value());
  auto r = Delete(**stale, "id = 12");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind(), ErrorKind::kConflict);
  EXPECT_NE(r.error().message().find("delete files were committed"), std::string::npos) << r.error().ToString();
  EXPECT_EQ(Ids(), Concat(Range(0, 9), Range(10, 18)));

  // An append of matching rows after planning: serializable (the default) refuses...
  ASSERT_TRUE((*stale)->Refresh().has_value());
  auto other = catalog_->LoadTable(id_);
  ASSERT_TRUE(other.has_value());
  Append(**other, "eu", 100, 5);
  r = Delete(**stale, "region = 'eu'");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind(), ErrorKind::kConflict);
  EXPECT_NE(r.error().message().find("serializable"), std::string::npos) << r.error().ToString();
  // ... while an append elsewhere does not conflict.
  ASSERT_TRUE((*stale)->Refresh().has_value());
  Append(**other, "us", 200, 5);
  r = Delete(**stale, "region = 'eu'");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->deleted_rows, 15);

  // Snapshot isolation lets the matching append through; its rows stay.
  ASSERT_TRUE(table_->Refresh().has_value());
  ASSERT_TRUE(table_->SetProperties({{"write.delete.isolation-level", "snapshot"}}).has_value());
  ASSERT_TRUE((*stale)->Refresh().has_value());
  ASSERT_TRUE((*other)->Refresh().has_value());
  Append(**other, "us", 300, 2);
  r = Delete(**stale, "region = 'us'");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  ASSERT_TRUE(table_->Refresh().has_value());
  EXPECT_EQ(Ids(), Range(300, 301));
}

// A Puffin file holding one blob (format/puffin-spec.md): magic, blob, footer.
std::string PuffinWithBlob(const std::string& blob, const std::string& referenced, int64_t* offset) {
  std::string out = "PFA1";
  *offset = static_cast<int64_t>(out.size());
  out += blob;
  std::string json = fmt::format(
      R"({{"blobs":[{{"type":"deletion-vector-v1","fields":[2147483645],"snapshot-id":-1,"sequence-number":-1,)"
      R"("offset":{},"length":{},"properties":{{"referenced-data-file":"{}","cardinality":"2"}}}}]}})",
      *offset, blob.size(), referenced);
  out += "PFA1" + json;
  ByteWriter w(&out);
  w.AppendLittle<uint32_t>(static_cast<uint32_t>(json.size()));
  w.AppendLittle<uint32_t>(0);
  out += "PFA1";
  return out;
}

TEST_F(DeleteRowsTest, DeletionVectorsApplyOnReadAndInRewrites) {
  // Format v3, as a table upgraded by another engine.
  TableChange v3{{}, {std::make_shared<const UpgradeFormatVersion>(3)}};
  ASSERT_TRUE(table_->ops().Commit(table_->current(), v3).has_value());
  ASSERT_TRUE(table_->Refresh().has_value());

  DataFile us = FileOf("us");
  int64_t offset = 0;
  std::string puffin = PuffinWithBlob(EncodeDeletionVector({5, 0}), us.file_path, &offset);  // ids 10, 15
  DataFile dv;
  dv.content = FileContent::kPositionDeletes;
  dv.file_format = "PUFFIN";
  dv.file_path = table_->ops().NewLocation("data/us-dv.puffin");
  dv.spec_id = us.spec_id;
  dv.partition = us.partition;
  dv.record_count = 2;
  dv.file_size_in_bytes = static_cast<int64_t>(puffin.size());
  dv.referenced_data_file = us.file_path;
  dv.content_offset = offset;
  dv.content_size_in_bytes = static_cast<int64_t>(EncodeDeletionVector({5, 0}).size());
  ASSERT_TRUE(table_->WriteLocation(dv.file_path, puffin).has_value());
  ASSERT_TRUE(table_->AddDeleteFiles({dv}).has_value());
  // The manifest kept the blob's range (v3 fields 144/145).
  auto plan = PlanScan(*table_, ScanOptions{});
  ASSERT_TRUE(plan.has_value());
  bool found = false;
  for (const auto& t : plan->tasks) {
    for (const auto& d : t.deletes) {
      found = found || (d.is_deletion_vector() && d.content_offset == offset);
    }
  }
  EXPECT_TRUE(found);
  std::vector<int64_t> expected = Range(0, 9);
  for (int64_t id : {11, 12, 13, 14, 16, 17, 18, 19}) expected.push_back(id);
  EXPECT_EQ(Ids(), expected);

  auto r = Delete(*table_, "id = 16");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->deleted_rows, 1);
  expected.erase(std::find(expected.begin(), expected.end(), 16));
  EXPECT_EQ(Ids(), expected);
  EXPECT_EQ(Summary().at("removed-delete-files"), "1");  // The DV went with its data file.
}

TEST_F(DeleteRowsTest, ADamagedDeletionVectorIsCorruptionNamingTheBlob) {
  TableChange v3{{}, {std::make_shared<const UpgradeFormatVersion>(3)}};
  ASSERT_TRUE(table_->ops().Commit(table_->current(), v3).has_value());
  ASSERT_TRUE(table_->Refresh().has_value());
  DataFile us = FileOf("us");
  int64_t offset = 0;
  std::string blob = EncodeDeletionVector({1});
  blob[blob.size() - 6] ^= 0x40;  // A flipped bit in the bitmap: the CRC no longer matches.
  std::string puffin = PuffinWithBlob(blob, us.file_path, &offset);
  DataFile dv;
  dv.content = FileContent::kPositionDeletes;
  dv.file_format = "PUFFIN";
  dv.file_path = table_->ops().NewLocation("data/bad-dv.puffin");
  dv.spec_id = us.spec_id;
  dv.partition = us.partition;
  dv.record_count = 1;
  dv.file_size_in_bytes = static_cast<int64_t>(puffin.size());
  dv.referenced_data_file = us.file_path;
  dv.content_offset = offset;
  dv.content_size_in_bytes = static_cast<int64_t>(blob.size());
  ASSERT_TRUE(table_->WriteLocation(dv.file_path, puffin).has_value());
  ASSERT_TRUE(table_->AddDeleteFiles({dv}).has_value());
  auto plan = PlanScan(*table_, ScanOptions{});
  ASSERT_TRUE(plan.has_value());
  bool failed = false;
  for (const auto& t : plan->tasks) {
    Status st = ReadTask(*table_, t, plan->schema, [](const formats::ColumnBatch&, const std::vector<int>&) { return OkStatus(); });
    if (st.has_value()) continue;
    failed = true;
    EXPECT_EQ(st.error().kind(), ErrorKind::kCorruption);
    EXPECT_NE(st.error().message().find("bad-dv.puffin blob at 4+"), std::string::npos) << st.error().ToString();
    EXPECT_NE(st.error().message().find("CRC"), std::string::npos) << st.error().ToString();
  }
  EXPECT_TRUE(failed);
  // A delete that would rewrite the file refuses too, rather than bringing the row back.
  auto r = Delete(*table_, "id = 12");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind(), ErrorKind::kCorruption);
}

}  // namespace
}  // namespace floe::iceberg

namespace floe::iceberg {
namespace {

// UPDATE-like rewrites: each matching row is replaced by one with its id + 1000.
DeleteRowsOptions AddThousand(const std::function<bool(int64_t)>& matches) {
  DeleteRowsOptions options;
  options.rewriter = [matches](const formats::ColumnBatch& b, const std::vector<int>& columns,
                               const std::vector<uint8_t>& deleted) -> Result<DeleteRowsOptions::RowChanges> {
    DeleteRowsOptions::RowChanges changes;
    changes.remove.assign(static_cast<size_t>(b.num_rows), 0);
    formats::ColumnBatch added = formats::MakeEmptyBatch(b.fields);
    for (int64_t r = 0; r < b.num_rows; ++r) {
      if (!deleted.empty() && deleted[static_cast<size_t>(r)]) continue;
      int64_t id = b.columns[static_cast<size_t>(columns[0])].Data<int64_t>()[r];
      if (!matches(id)) continue;
      changes.remove[static_cast<size_t>(r)] = 1;
      added.columns[0].Append<int64_t>(id + 1000);
      added.columns[1].AppendString(b.columns[static_cast<size_t>(columns[1])].StringAt(r));
      ++added.num_rows;
    }
    changes.added.push_back(std::move(added));
    return changes;
  };
  return options;
}

TEST_F(DeleteRowsTest, ARewriterReplacesRowsInTheirFileAndAppendsMore) {
  DeleteRowsOptions options = AddThousand([](int64_t id) { return id % 5 == 0; });
  options.append_rows = [this]() -> Result<std::vector<formats::ColumnBatch>> {
    FLOE_ASSIGN_OR_RETURN(auto fields, ToBatchFields(table_->metadata().CurrentSchema()));
    formats::ColumnBatch b = formats::MakeEmptyBatch(fields);
    b.columns[0].Append<int64_t>(7777);
    b.columns[1].AppendString("eu");
    b.num_rows = 1;
    return std::vector<formats::ColumnBatch>{std::move(b)};
  };
  auto r = DeleteRows(*table_, True(), options);
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->deleted_rows, 4);
  EXPECT_EQ(r->added_rows, 5);
  EXPECT_EQ(r->files_rewritten, 2);
  EXPECT_EQ(Summary().at("deleted-records"), "20");
  EXPECT_EQ(Summary().at("added-records"), "21");
  EXPECT_EQ(Ids(), (std::vector<int64_t>{1,  2,  3,  4,  6,  7,    8,    9,    11,   12,  13,
                                         14, 16, 17, 18, 19, 1000, 1005, 1010, 1015, 7777}));
}

TEST_F(DeleteRowsTest, MergeOnReadWritesPositionDeletesAndNewFilesWithoutRewriting) {
  DeleteRowsOptions options = AddThousand([](int64_t id) { return id == 3 || id == 12; });
  options.merge_on_read = true;
  auto r = DeleteRows(*table_, True(), options);
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->deleted_rows, 2);
  EXPECT_EQ(r->added_rows, 2);
  EXPECT_EQ(r->delete_files_added, 2);  // One per partition.
  EXPECT_EQ(Summary().at("added-position-deletes"), "2");
  EXPECT_EQ(Summary().count("deleted-data-files"), 0u);
  std::vector<int64_t> want = Concat(Range(0, 19), {1003, 1012});
  want.erase(std::remove_if(want.begin(), want.end(), [](int64_t id) { return id == 3 || id == 12; }), want.end());
  EXPECT_EQ(Ids(), want);
  // A second change of the same file: the rows already deleted stay deleted, once.
  DeleteRowsOptions again = AddThousand([](int64_t id) { return id < 5; });
  again.merge_on_read = true;
  r = DeleteRows(*table_, True(), again);
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->deleted_rows, 4);
  EXPECT_EQ(Ids(), (std::vector<int64_t>{5,  6,  7,  8,  9,    10,   11,   13,   14,   15,
                                         16, 17, 18, 19, 1000, 1001, 1002, 1003, 1004, 1012}));
}

TEST_F(DeleteRowsTest, MergeOnReadConflictsWithConcurrentDeletesAndRewrites) {
  // A position delete of the same file lands while the change is being computed: committing
  // would keep the row that delete removed (as the change's new row).
  DeleteRowsOptions options = AddThousand([](int64_t id) { return id == 3; });
  options.merge_on_read = true;
  auto rewrite = options.rewriter;
  const DataFile eu = FileOf("eu");
  bool raced = false;
  options.rewriter = [&](const formats::ColumnBatch& b, const std::vector<int>& c, const std::vector<uint8_t>& d) {
    if (!raced) {
      raced = true;
      auto other = catalog_->LoadTable(id_);
      EXPECT_TRUE(other.has_value());
      auto deletes = WritePositionDeletes(**other, {{eu.file_path, {3}}}, eu.partition);
      EXPECT_TRUE(deletes.has_value());
      EXPECT_TRUE((*other)->AddDeleteFiles({*deletes}).has_value());
    }
    return rewrite(b, c, d);
  };
  auto r = DeleteRows(*table_, True(), options);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind(), ErrorKind::kConflict) << r.error().ToString();
  EXPECT_NE(r.error().message().find("was committed since"), std::string::npos) << r.error().ToString();
  ASSERT_TRUE(table_->Refresh().has_value());
  EXPECT_EQ(Ids(), Concat(Range(0, 2), Range(4, 19)));

  // A compaction that replaces the file: the planned positions would point into a removed file.
  raced = false;
  options.rewriter = [&](const formats::ColumnBatch& b, const std::vector<int>& c, const std::vector<uint8_t>& d) {
    if (!raced) {
      raced = true;
      auto other = catalog_->LoadTable(id_);
      EXPECT_TRUE(other.has_value());
      EXPECT_TRUE(Delete(**other, "id = 5").has_value());  // Rewrites the eu file.
    }
    return AddThousand([](int64_t id) { return id == 4; }).rewriter(b, c, d);
  };
  r = DeleteRows(*table_, True(), options);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind(), ErrorKind::kConflict) << r.error().ToString();
  EXPECT_NE(r.error().message().find("was removed since"), std::string::npos) << r.error().ToString();
  ASSERT_TRUE(table_->Refresh().has_value());
  EXPECT_EQ(Ids(), Concat(Range(0, 2), Concat({4}, Range(6, 19))));
}

}  // namespace
}  // namespace floe::iceberg
