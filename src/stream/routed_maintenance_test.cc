#include "stream/routed_maintenance.h"

#include <gtest/gtest.h>

#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/filesystem_catalog.h"
#include "io/test_folder.h"

namespace floe::stream {
namespace {

using iceberg::NestedField;
using iceberg::Type;
using iceberg::TypeId;

// A table of `appends` one-file appends of 10 rows each.
void MakeTable(iceberg::FileSystemCatalog& catalog, std::string_view name, int appends) {
  auto id = *iceberg::TableIdentifier::Parse(name);
  iceberg::Schema schema(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)}});
  auto table = catalog.CreateTable(id, schema, {});
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  auto fields = iceberg::ToBatchFields(schema);
  ASSERT_TRUE(fields.has_value());
  for (int batch = 0; batch < appends; ++batch) {
    formats::ColumnBatch b = formats::MakeEmptyBatch(*fields);
    for (int i = 0; i < 10; ++i) b.columns[0].Append<int64_t>(batch * 10 + i);
    b.num_rows = 10;
    auto files = iceberg::WriteDataFiles(**table, {b});
    ASSERT_TRUE(files.has_value());
    ASSERT_TRUE((*table)->FastAppend(*files).has_value());
  }
}

// Every table listed is maintained, the list is asked afresh each round (a routed job makes
// tables as it runs), and a table whose round fails does not keep the others from theirs.
TEST(RoutedMaintenance, EveryListedTableCompactedEachRound) {
  auto catalog = iceberg::FileSystemCatalog::Open(io::testing::FreshFolder());
  ASSERT_TRUE(catalog.has_value());
  MakeTable(**catalog, "db.orders", 5);
  MakeTable(**catalog, "db.payments", 3);
  std::vector<catalog::TableIdentifier> listed = {{{"db"}, "orders"}, {{"db"}, "missing"}};
  MetricsRegistry metrics;
  RoutedMaintenance maintenance(
      [&] { return listed; },
      [&](const catalog::TableIdentifier& id) {
        return (*catalog)->LoadTable(*iceberg::TableIdentifier::Parse(catalog::IdentifierToString(id)));
      },
      {.interval_ms = 0, .target_file_size_bytes = 1 << 20, .expire_retain_last = 1}, metrics);
  auto first = maintenance.RunOnce();
  ASSERT_EQ(first.size(), 2u);
  const auto& orders = first.at({{"db"}, "orders"});
  ASSERT_TRUE(orders.has_value()) << orders.error().ToString();
  EXPECT_EQ(orders->files_rewritten, 5u);
  EXPECT_EQ(orders->files_added, 1u);
  EXPECT_FALSE(first.at({{"db"}, "missing"}).has_value());

  // db.payments appears in the list: the next round compacts it; db.orders has nothing left to do.
  listed.push_back({{"db"}, "payments"});
  auto second = maintenance.RunOnce();
  ASSERT_EQ(second.size(), 3u);
  ASSERT_TRUE(second.at({{"db"}, "payments"}).has_value());
  EXPECT_EQ(second.at({{"db"}, "payments"})->files_rewritten, 3u);
  EXPECT_EQ(second.at({{"db"}, "orders"})->files_rewritten, 0u);
  for (const char* name : {"db.orders", "db.payments"}) {
    auto table = (*catalog)->LoadTable(*iceberg::TableIdentifier::Parse(name));
    ASSERT_TRUE(table.has_value());
    const auto* snapshot = (*table)->metadata().CurrentSnapshot();
    EXPECT_EQ(snapshot->summary.at("total-data-files"), "1") << name;
    EXPECT_EQ(snapshot->summary.at("total-records"), name == std::string("db.orders") ? "50" : "30") << name;
  }
}

}  // namespace
}  // namespace floe::stream
