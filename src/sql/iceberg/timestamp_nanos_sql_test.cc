// SQL over an Iceberg v3 table with nanosecond timestamps: SQL timestamps hold microseconds, so
// timestamp_ns and timestamptz_ns columns read as timestamp(6) and timestamp(6) with time zone,
// rounded down to the microsecond (before 1970 too), and filters on them are right.
#include <gtest/gtest.h>

#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/filesystem_catalog.h"
#include "io/test_folder.h"
#include "sql/iceberg/iceberg_sql_catalog.h"
#include "sql/sql_session.h"

namespace floe::sql::iceberg_sql {
namespace {

using iceberg::NestedField;
using iceberg::Type;
using IT = iceberg::TypeId;

class TimestampNanosSqlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string warehouse = io::testing::FreshFolder();
    auto tables = iceberg::FileSystemCatalog::Open(warehouse);
    ASSERT_TRUE(tables.has_value()) << tables.error().ToString();
    iceberg::Schema schema(0, {NestedField{1, "id", true, Type::Primitive(IT::kLong)},
                               NestedField{2, "at", false, Type::Primitive(IT::kTimestampNs)},
                               NestedField{3, "at_utc", false, Type::Primitive(IT::kTimestampTzNs)}});
    auto table = (*tables)->CreateTable(*iceberg::TableIdentifier::Parse("db.ticks"), schema, {});
    ASSERT_TRUE(table.has_value()) << table.error().ToString();
    iceberg::TableChange v3{{}, {std::make_shared<const iceberg::UpgradeFormatVersion>(3)}};
    ASSERT_TRUE((*table)->ops().Commit((*table)->current(), v3).has_value());
    ASSERT_TRUE((*table)->Refresh().has_value());
    auto fields = iceberg::ToBatchFields((*table)->metadata().CurrentSchema());
    ASSERT_TRUE(fields.has_value()) << fields.error().ToString();
    formats::ColumnBatch b = formats::MakeEmptyBatch(*fields);
    // 1 ns before the epoch, a late instant, one with 999 ns past its microsecond.
    const int64_t values[] = {-1, 1700000000123456789, 1700000000123456999};
    for (int i = 0; i < 3; ++i) {
      b.columns[0].Append<int64_t>(i);
      b.columns[1].Append<int64_t>(values[i]);
      b.columns[2].Append<int64_t>(values[i]);
    }
    b.num_rows = 3;
    auto files = iceberg::WriteDataFiles(**table, {b});
    ASSERT_TRUE(files.has_value()) << files.error().ToString();
    ASSERT_TRUE((*table)->FastAppend(*files).has_value());
    auto catalog = IcebergSqlCatalog::OpenWarehouse(warehouse);
    ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
    catalog_ = std::move(*catalog);
  }

  std::vector<std::string> Query(const std::string& sql) {
    SqlSession session(*catalog_);
    auto results = session.Run(sql);
    EXPECT_TRUE(results.has_value()) << sql << ": " << results.error().ToString();
    std::vector<std::string> out;
    if (!results) return out;
    for (const auto& row : results->back().rows) {
      std::string line;
      for (size_t c = 0; c < row.size(); ++c) line.append(c > 0 ? " | " : "").append(row[c].ToText());
      out.push_back(line);
    }
    return out;
  }

  std::unique_ptr<IcebergSqlCatalog> catalog_;
};

TEST_F(TimestampNanosSqlTest, ReadsAsMicrosecondsRoundedDown) {
  EXPECT_EQ(Query("SELECT id, at, at_utc FROM db.ticks ORDER BY id"),
            (std::vector<std::string>{"0 | 1969-12-31 23:59:59.999999 | 1969-12-31 23:59:59.999999 UTC",
                                      "1 | 2023-11-14 22:13:20.123456 | 2023-11-14 22:13:20.123456 UTC",
                                      "2 | 2023-11-14 22:13:20.123456 | 2023-11-14 22:13:20.123456 UTC"}));
  EXPECT_EQ(Query("SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'ticks' ORDER BY ordinal_position"),
            (std::vector<std::string>{"id | bigint", "at | timestamp(6)", "at_utc | timestamp(6) with time zone"}));
}

TEST_F(TimestampNanosSqlTest, FiltersSeeTheMicrosecondValues) {
  EXPECT_EQ(Query("SELECT id FROM db.ticks WHERE at < TIMESTAMP '1970-01-01 00:00:00' ORDER BY id"),
            (std::vector<std::string>{"0"}));
  EXPECT_EQ(Query("SELECT count(*) FROM db.ticks WHERE at = TIMESTAMP '2023-11-14 22:13:20.123456'"),
            (std::vector<std::string>{"2"}));
  EXPECT_EQ(Query("SELECT count(*) FROM db.ticks WHERE at_utc > TIMESTAMP '2023-11-14 22:13:20.123456 UTC'"),
            (std::vector<std::string>{"0"}));
}

}  // namespace
}  // namespace floe::sql::iceberg_sql
