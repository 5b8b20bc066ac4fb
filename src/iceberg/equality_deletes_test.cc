// Reading through equality delete files on one integer key: dense keys (the key set's bitmap
// form) and scattered ones (its hash table), an optional key column with nulls (a null key
// deletes the null rows only), several delete files of which only the newer ones apply, and
// tasks read on two threads through one EqualityDeleteCache. Checked against a model.
#include "iceberg/equality_deletes.h"

#include <algorithm>
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

constexpr int64_t kNull = -999;  // A null key in the tests' id lists.

class EqualityDeletesReadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = FileSystemCatalog::Open(io::testing::FreshFolder());
    ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
    catalog_ = std::move(*catalog);
    auto id = TableIdentifier::Parse("db.state");
    ASSERT_TRUE(id.has_value());
    Schema schema(0, {NestedField{1, "id", false, Type::Primitive(TypeId::kLong)},
                      NestedField{2, "note", false, Type::Primitive(TypeId::kString)}});
    auto table = catalog_->CreateTable(*id, schema, {});
    ASSERT_TRUE(table.has_value()) << table.error().ToString();
    table_ = std::move(*table);
  }

  formats::ColumnBatch Rows(const std::vector<int64_t>& ids, bool with_note) {
    auto fields = ToBatchFields(table_->metadata().CurrentSchema());
    EXPECT_TRUE(fields.has_value());
    if (!with_note) fields->pop_back();
    formats::ColumnBatch b = formats::MakeEmptyBatch(*fields);
    for (int64_t id : ids) {
      if (id == kNull) {
        b.columns[0].AppendNull();
      } else {
        b.columns[0].Append<int64_t>(id);
      }
      if (with_note) b.columns[1].AppendString("n" + std::to_string(id));
    }
    b.num_rows = static_cast<int64_t>(ids.size());
    return b;
  }

  // Commits rows `put` and an equality delete of `deleted` in one snapshot, like an upsert batch.
  void Commit(const std::vector<int64_t>& put, const std::vector<int64_t>& deleted) {
    std::vector<DataFile> data;
    if (!put.empty()) {
      auto files = WriteDataFiles(*table_, {Rows(put, true)});
      ASSERT_TRUE(files.has_value()) << files.error().ToString();
      data = *files;
    }
    auto deletes = WriteEqualityDeletes(*table_, {1}, {Rows(deleted, false)});
    ASSERT_TRUE(deletes.has_value()) << deletes.error().ToString();
    ASSERT_TRUE(table_->CommitRowDelta(data, *deletes).has_value());
    // The model: a delete hides older rows only, then the batch's rows are added.
    for (int64_t id : deleted) model_.erase(id);
    model_.insert(put.begin(), put.end());
  }

  // Every id read (kNull for a null), tasks on two threads sharing one cache.
  std::multiset<int64_t> Read() {
    auto plan = PlanScan(*table_, ScanOptions{});
    EXPECT_TRUE(plan.has_value()) << plan.error().ToString();
    EqualityDeleteCache cache;
    std::multiset<int64_t> ids[2];
    auto read = [&](int lane) {
      for (size_t t = static_cast<size_t>(lane); t < plan->tasks.size(); t += 2) {
        Status st = ReadTask(*table_, plan->tasks[t], plan->schema,
                             [&](const formats::ColumnBatch& b, const std::vector<int>& cols) -> Status {
                               const formats::ColumnVector& v = b.columns[static_cast<size_t>(cols[0])];
                               for (int64_t r = 0; r < b.num_rows; ++r) ids[lane].insert(v.IsValid(r) ? v.Data<int64_t>()[r] : kNull);
                               return OkStatus();
                             },
                             &cache);
        EXPECT_TRUE(st.has_value()) << st.error().ToString();
      }
    };
    std::thread other(read, 1);
    read(0);
    other.join();
    ids[0].insert(ids[1].begin(), ids[1].end());
    return ids[0];
  }

  std::unique_ptr<FileSystemCatalog> catalog_;
  std::unique_ptr<Table> table_;
  std::multiset<int64_t> model_;
};

TEST_F(EqualityDeletesReadTest, DenseKeysAcrossSeveralBatches) {
  std::vector<int64_t> first, second, third;
  for (int64_t id = 1; id <= 3000; ++id) first.push_back(id);
  for (int64_t id = 1; id <= 3000; id += 3) second.push_back(id);   // Updates of a third.
  for (int64_t id = 2; id <= 4000; id += 7) third.push_back(id);    // Updates and new keys.
  Commit(first, first);  // Deletes its own keys: they apply to nothing older.
  Commit(second, second);
  Commit(third, third);
  Commit({}, {5, 6, 4000, 1});  // Deletes only.
  EXPECT_EQ(Read(), model_);
  EXPECT_EQ(model_.count(1), 0u);
  EXPECT_EQ(model_.count(4), 1u);
}

TEST_F(EqualityDeletesReadTest, ScatteredKeysAndNulls) {
  std::vector<int64_t> first = {kNull, 1, -5, int64_t{1} << 50, -(int64_t{1} << 60), 77, kNull};
  Commit(first, {});
  Commit({int64_t{1} << 50, 1000}, {int64_t{1} << 50, 77, 1000, 123456789});
  EXPECT_EQ(Read(), model_);  // The nulls stay: no null key was deleted.
  Commit({}, {kNull, -5});
  model_.erase(kNull);  // A null key deletes the rows whose key is null.
  EXPECT_EQ(Read(), model_);
  EXPECT_EQ(model_.count(kNull), 0u);
  EXPECT_EQ(model_.count(1), 1u);
}

}  // namespace
}  // namespace floe::iceberg
