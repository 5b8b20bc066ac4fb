// Iceberg v3's nanosecond timestamps (timestamp_ns, timestamptz_ns): written as Parquet
// TIMESTAMP(NANOS) and read back to the nanosecond, with bounds and filters in nanoseconds.
#include <algorithm>

#include <gtest/gtest.h>

#include "formats/parquet/file_reader.h"
#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/filesystem_catalog.h"
#include "iceberg/literal.h"
#include "iceberg/scan.h"
#include "io/object_store.h"
#include "io/test_folder.h"

namespace floe::iceberg {
namespace {

// 1969-12-31T23:59:59.999999999, the epoch, and two instants with every digit used.
constexpr int64_t kBeforeEpoch = -1;
constexpr int64_t kLate = 1700000000123456789;
constexpr int64_t kEarly = -1234567890987654321;

class TimestampNanosTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = FileSystemCatalog::Open(io::testing::FreshFolder());
    ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
    catalog_ = std::move(*catalog);
    auto id = TableIdentifier::Parse("db.ticks");
    ASSERT_TRUE(id.has_value());
    Schema schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)},
                      NestedField{2, "at", false, Type::Primitive(TypeId::kTimestampNs)},
                      NestedField{3, "at_utc", false, Type::Primitive(TypeId::kTimestampTzNs)}});
    auto table = catalog_->CreateTable(*id, schema, {});
    ASSERT_TRUE(table.has_value()) << table.error().ToString();
    table_ = std::move(*table);
    // Nanosecond types exist from format v3 on.
    TableChange v3{{}, {std::make_shared<const UpgradeFormatVersion>(3)}};
    ASSERT_TRUE(table_->ops().Commit(table_->current(), v3).has_value());
    ASSERT_TRUE(table_->Refresh().has_value());

    auto fields = ToBatchFields(table_->metadata().CurrentSchema());
    ASSERT_TRUE(fields.has_value()) << fields.error().ToString();
    EXPECT_EQ((*fields)[1].type.id, formats::TypeId::kTimestampNs);
    EXPECT_EQ((*fields)[2].type.id, formats::TypeId::kTimestampTzNs);
    formats::ColumnBatch b = formats::MakeEmptyBatch(*fields);
    const int64_t values[] = {kBeforeEpoch, 0, kLate, kEarly};
    for (int i = 0; i < 4; ++i) {
      b.columns[0].Append<int64_t>(i);
      b.columns[1].Append<int64_t>(values[i]);
      b.columns[2].Append<int64_t>(values[i]);
    }
    b.columns[0].Append<int64_t>(4);
    b.columns[1].AppendNull();
    b.columns[2].AppendNull();
    b.num_rows = 5;
    auto files = WriteDataFiles(*table_, {b});
    ASSERT_TRUE(files.has_value()) << files.error().ToString();
    ASSERT_EQ(files->size(), 1u);
    file_ = (*files)[0];
    ASSERT_TRUE(table_->FastAppend(*files).has_value());
  }

  // id -> the `at` and `at_utc` columns as JSON text, for the rows a filter keeps (the task's
  // residual applied, as `floe table scan` does).
  std::map<int64_t, std::string> Rows(const std::string& filter = "") {
    std::map<int64_t, std::string> out;
    ScanOptions options;
    if (!filter.empty()) {
      auto parsed = ParseFilter(filter);
      EXPECT_TRUE(parsed.has_value()) << parsed.error().ToString();
      options.filter = *parsed;
    }
    auto plan = PlanScan(*table_, options);
    EXPECT_TRUE(plan.has_value()) << plan.error().ToString();
    if (!plan) return out;
    const Schema& schema = plan->schema;
    for (const auto& task : plan->tasks) {
      Status st = ReadTask(*table_, task, schema, [&](const formats::ColumnBatch& b, const std::vector<int>& cols) {
        for (int64_t r = 0; r < b.num_rows; ++r) {
          bool keep = EvaluateRow(task.residual, [&](int32_t field_id) {
            return LiteralAt(b.columns[cols[static_cast<size_t>(field_id - 1)]], r, *schema.fields()[static_cast<size_t>(field_id - 1)].type);
          });
          if (!keep) continue;
          int64_t id = LiteralAt(b.columns[cols[0]], r, *schema.fields()[0].type).as_long();
          out[id] = JsonAt(b.columns[cols[1]], r, *schema.fields()[1].type).dump() + " " +
                    JsonAt(b.columns[cols[2]], r, *schema.fields()[2].type).dump();
        }
        return OkStatus();
      });
      EXPECT_TRUE(st.has_value()) << st.error().ToString();
    }
    return out;
  }

  std::unique_ptr<FileSystemCatalog> catalog_;
  std::unique_ptr<Table> table_;
  DataFile file_;
};

TEST_F(TimestampNanosTest, ReadsBackEveryNanosecond) {
  auto rows = Rows();
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0], "\"1969-12-31T23:59:59.999999999\" \"1969-12-31T23:59:59.999999999+00:00\"");
  EXPECT_EQ(rows[1], "\"1970-01-01T00:00:00.000000000\" \"1970-01-01T00:00:00.000000000+00:00\"");
  EXPECT_EQ(rows[2], "\"2023-11-14T22:13:20.123456789\" \"2023-11-14T22:13:20.123456789+00:00\"");
  EXPECT_EQ(rows[3], "\"1930-11-18T00:28:29.012345679\" \"1930-11-18T00:28:29.012345679+00:00\"");
  EXPECT_EQ(rows[4], "null null");
}

TEST_F(TimestampNanosTest, TheDataFileIsParquetNanosWithNanosecondBounds) {
  size_t slash = file_.file_path.rfind('/');
  auto store = io::OpenObjectStore(file_.file_path.substr(0, slash));
  ASSERT_TRUE(store.has_value()) << store.error().ToString();
  auto input = (*store)->OpenInput(file_.file_path.substr(slash + 1));
  ASSERT_TRUE(input.has_value()) << input.error().ToString();
  auto reader = parquet::FileReader::Open(std::move(*input));
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  std::vector<formats::Field> fields = (*reader)->schema().BatchFields();
  ASSERT_EQ(fields.size(), 3u);
  EXPECT_EQ(fields[1].type.id, formats::TypeId::kTimestampNs);
  EXPECT_EQ(fields[2].type.id, formats::TypeId::kTimestampTzNs);

  const Type& ns = *Type::Primitive(TypeId::kTimestampNs);
  auto lower = FromBinary(ns, file_.lower_bounds.at(2));
  auto upper = FromBinary(ns, file_.upper_bounds.at(2));
  ASSERT_TRUE(lower.has_value() && upper.has_value());
  EXPECT_EQ(lower->as_long(), kEarly);
  EXPECT_EQ(upper->as_long(), kLate);
  EXPECT_EQ(file_.null_value_counts.at(3), 1);
}

TEST_F(TimestampNanosTest, FiltersCompareNanoseconds) {
  // One nanosecond apart: the literal is cast to nanoseconds, not rounded to microseconds.
  EXPECT_EQ(Rows("at < '1970-01-01T00:00:00'").size(), 2u);
  EXPECT_EQ(Rows("at >= '2023-11-14T22:13:20.123456789'").size(), 1u);
  EXPECT_EQ(Rows("at > '2023-11-14T22:13:20.123456789'").size(), 0u);
  // Bounds prune the file when nothing can match.
  auto plan = PlanScan(*table_, ScanOptions{.filter = *ParseFilter("at > '2100-01-01T00:00:00.000000001'")});
  ASSERT_TRUE(plan.has_value());
  EXPECT_TRUE(plan->tasks.empty());
}

// pandas and pyarrow write nanoseconds: appended to a microsecond column, they round down.
TEST(TimestampNanosAppend, IntoMicrosecondColumnsRoundsDown) {
  auto catalog = FileSystemCatalog::Open(io::testing::FreshFolder());
  ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
  Schema schema(0, {NestedField{1, "at", false, Type::Primitive(TypeId::kTimestamp)},
                    NestedField{2, "at_utc", false, Type::Primitive(TypeId::kTimestampTz)}});
  auto table = (*catalog)->CreateTable(*TableIdentifier::Parse("db.micros"), schema, {});
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  formats::ColumnBatch b = formats::MakeEmptyBatch({formats::Field{"at", -1, true, formats::Primitive(formats::TypeId::kTimestampNs)},
                                                    formats::Field{"at_utc", -1, true, formats::Primitive(formats::TypeId::kTimestampTzNs)}});
  for (int64_t v : {kBeforeEpoch, kLate}) {
    b.columns[0].Append<int64_t>(v);
    b.columns[1].Append<int64_t>(v);
  }
  b.columns[0].AppendNull();
  b.columns[1].AppendNull();
  b.num_rows = 3;
  auto files = WriteDataFiles(**table, {b});
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  ASSERT_TRUE((*table)->FastAppend(*files).has_value());
  auto plan = PlanScan(**table, ScanOptions{});
  ASSERT_TRUE(plan.has_value());
  std::vector<std::string> rows;
  for (const auto& task : plan->tasks) {
    ASSERT_TRUE(ReadTask(**table, task, plan->schema, [&](const formats::ColumnBatch& batch, const std::vector<int>& cols) {
      for (int64_t r = 0; r < batch.num_rows; ++r) {
        rows.push_back(JsonAt(batch.columns[cols[0]], r, *schema.fields()[0].type).dump() + " " +
                       JsonAt(batch.columns[cols[1]], r, *schema.fields()[1].type).dump());
      }
      return OkStatus();
    }).has_value());
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"\"1969-12-31T23:59:59.999999\" \"1969-12-31T23:59:59.999999+00:00\"",
                                            "\"2023-11-14T22:13:20.123456\" \"2023-11-14T22:13:20.123456+00:00\"", "null null"}));
}

}  // namespace
}  // namespace floe::iceberg
