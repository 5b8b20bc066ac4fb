#include "stream/table_setup.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/filesystem_catalog.h"
#include "iceberg/scan.h"
#include "io/test_folder.h"

namespace floe::stream {
namespace {

// "name:type" of each column, in order.
std::string Columns(const iceberg::Schema& schema) {
  std::string out;
  for (const iceberg::NestedField& f : schema.fields()) {
    out += fmt::format("{}{}:{}{}", out.empty() ? "" : " ", f.name, f.type->ToString(), f.required ? "!" : "");
  }
  return out;
}

TEST(TableSetup, JsonFirstRecordGivesOneOptionalColumnPerScalarKey) {
  auto schema = SchemaOfJsonValue(R"({"b":1,"a":"x","c":true,"d":1.5,"n":null,"o":{"k":1},"l":[1]})",
                                  formats::EpochUnit::kMillis);
  ASSERT_TRUE(schema) << schema.error().message();
  EXPECT_EQ(Columns(*schema), "a:string b:long c:boolean d:double");
}

TEST(TableSetup, JsonFirstRecordWithoutColumnsOrNotJsonIsRefused) {
  const auto unit = formats::EpochUnit::kMillis;
  EXPECT_EQ(SchemaOfJsonValue("{}", unit).error().message(), "the first record has no key a column can be made from");
  EXPECT_EQ(SchemaOfJsonValue(R"({"n":null,"o":{}})", unit).error().message(),
            "the first record has no key a column can be made from");
  EXPECT_FALSE(SchemaOfJsonValue("not json", unit));        // Garbage.
  EXPECT_FALSE(SchemaOfJsonValue(R"({"a":"trunc)", unit));  // Truncated.
  EXPECT_FALSE(SchemaOfJsonValue("[1,2]", unit));           // Not an object.
  std::string deep = fmt::format("{{\"a\":{}1{}}}", std::string(5000, '['), std::string(5000, ']'));
  EXPECT_FALSE(SchemaOfJsonValue(deep, unit));  // Deep nesting: refused, no crash.
}

}  // namespace
// Partition evolution: the spec changes only when asked for a different one, files written
// before keep their spec, files written after take the new one.
TEST(TableSetup, EvolvePartitionSpecChangesTheDefaultSpecAndOldFilesKeepTheirs) {
  auto catalog = iceberg::FileSystemCatalog::Open(io::testing::FreshFolder());
  ASSERT_TRUE(catalog.has_value());
  auto id = *iceberg::TableIdentifier::Parse("db.events");
  iceberg::Schema schema(
      0, {iceberg::NestedField{1, "id", true, iceberg::Type::Primitive(iceberg::TypeId::kLong)},
          iceberg::NestedField{2, "ts", false, iceberg::Type::Primitive(iceberg::TypeId::kTimestampTz)}});
  auto table = (*catalog)->CreateTable(id, schema, {});
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  auto fields = iceberg::ToBatchFields(schema);
  ASSERT_TRUE(fields.has_value());
  auto append = [&](int64_t first) {
    formats::ColumnBatch b = formats::MakeEmptyBatch(*fields);
    for (int64_t i = 0; i < 10; ++i) {
      b.columns[0].Append<int64_t>(first + i);
      b.columns[1].Append<int64_t>((first + i) * 3'600'000'000);  // One hour apart, in microseconds.
    }
    b.num_rows = 10;
    auto files = iceberg::WriteDataFiles(**table, {b});
    ASSERT_TRUE(files.has_value()) << files.error().ToString();
    ASSERT_TRUE((*table)->FastAppend(*files).has_value());
  };
  auto evolved = EvolvePartitionSpec(**table, {"hour(ts)"});
  ASSERT_TRUE(evolved) << evolved.error().ToString();
  EXPECT_TRUE(*evolved);
  append(0);
  int32_t hourly = (*table)->metadata().default_spec_id;
  EXPECT_EQ(EvolvePartitionSpec(**table, {"hour(ts)"}).value(), false);  // Already so: nothing committed.
  EXPECT_EQ((*table)->metadata().default_spec_id, hourly);

  ASSERT_TRUE(EvolvePartitionSpec(**table, {"day(ts)"}).value());
  append(100);
  int32_t daily = (*table)->metadata().default_spec_id;
  EXPECT_NE(daily, hourly);
  EXPECT_EQ((*table)->metadata().DefaultSpec().fields()[0].transform.ToString(), "day");
  std::map<int32_t, int> files_by_spec;
  auto planned = iceberg::PlanScan(**table, {});
  ASSERT_TRUE(planned.has_value()) << planned.error().ToString();
  for (const auto& task : planned->tasks) files_by_spec[task.file.spec_id]++;
  EXPECT_EQ(files_by_spec[hourly], 10);  // Ten hours, one file each, as they were written.
  EXPECT_EQ(files_by_spec[daily], 1);    // Ten hours of one day: one file.

  // A field the schema does not have is refused and the spec stays.
  auto refused = EvolvePartitionSpec(**table, {"hour(nope)"});
  ASSERT_FALSE(refused);
  EXPECT_EQ((*table)->metadata().default_spec_id, daily);
}

}  // namespace floe::stream
