// The committer decodes a micro-batch a chunk of records at a time: dead letters (bad JSON and
// rows the transform rejects) keep the index of their own record in every chunk, and the table
// gets every other record once.
#include "stream/iceberg_committer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "iceberg/data_files.h"
#include "iceberg/filesystem_catalog.h"
#include "iceberg/scan.h"
#include "iceberg/schema_json.h"
#include "io/test_folder.h"

namespace floe::stream {
namespace {

using iceberg::NestedField;
using iceberg::Type;
using iceberg::TypeId;

// Every row of `table` as column name -> the text of each value (strings as they are, numbers
// in decimal), one map per row.
std::vector<std::map<std::string, std::string>> Rows(iceberg::Table& table) {
  std::vector<std::map<std::string, std::string>> out;
  auto plan = iceberg::PlanScan(table, {});
  EXPECT_TRUE(plan.has_value()) << plan.error().ToString();
  const iceberg::Schema& schema = table.metadata().CurrentSchema();
  for (const auto& task : plan->tasks) {
    auto read = iceberg::ReadTask(table, task, schema, [&](const formats::ColumnBatch& b, const std::vector<int>& columns) -> Status {
      for (int64_t r = 0; r < b.num_rows; ++r) {
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < columns.size(); ++i) {
          const formats::ColumnVector& v = b.columns[static_cast<size_t>(columns[i])];
          if (!v.IsValid(r)) continue;
          row[schema.fields()[i].name] =
              v.type().HasOffsets() ? std::string(v.StringAt(r)) : std::to_string(v.Data<int64_t>()[r]);
        }
        out.push_back(std::move(row));
      }
      return OkStatus();
    });
    EXPECT_TRUE(read.has_value()) << read.error().ToString();
  }
  return out;
}

TEST(IcebergCommitter, ChunkedDecodingKeepsEachDeadLetterWithItsRecord) {
  auto catalog = iceberg::FileSystemCatalog::Open(io::testing::FreshFolder());
  ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
  iceberg::Schema events(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)},
                             NestedField{2, "code", false, Type::Primitive(TypeId::kString)}});
  iceberg::Schema rows(0, {NestedField{1, "id", true, Type::Primitive(TypeId::kLong)},
                           NestedField{2, "code", false, Type::Primitive(TypeId::kLong)}});
  auto dlq_schema = iceberg::SchemaFromJson(DeadLetterSchemaJson());
  ASSERT_TRUE(dlq_schema.has_value());
  auto table = (*catalog)->CreateTable(*iceberg::TableIdentifier::Parse("db.t"), rows, {});
  auto dead = (*catalog)->CreateTable(*iceberg::TableIdentifier::Parse("db.t_dlq"), *dlq_schema, {});
  ASSERT_TRUE(table.has_value() && dead.has_value());
  auto transform = sql::iceberg_sql::BatchTransform::Compile("SELECT id, CAST(code AS BIGINT) AS code FROM events", events);
  ASSERT_TRUE(transform.has_value()) << transform.error().ToString();
  auto committer = IcebergCommitter::Open(std::move(*table), std::move(*dead),
                                          {.topic = "orders",
                                           .transform = std::shared_ptr<sql::iceberg_sql::BatchTransform>(std::move(*transform)),
                                           .event_schema = events,
                                           .decode_chunk_records = 3});
  ASSERT_TRUE(committer.has_value()) << committer.error().ToString();

  // Ten records, three per chunk: 4 and 8 are not JSON objects, 6 fails the transform's cast.
  MicroBatch batch;
  for (int64_t i = 0; i < 10; ++i) {
    std::string value = i == 4 || i == 8 ? "{\"id\": " : "{\"id\":" + std::to_string(i) + ",\"code\":\"" + (i == 6 ? "abc" : std::to_string(i * 10)) + "\"}";
    batch.Add(0, i, 1000 + i, value.data(), value.size());
  }
  auto report = (*committer)->Commit(batch, {}, {{0, 10}});
  ASSERT_TRUE(report.has_value()) << report.error().ToString();
  EXPECT_EQ(report->rows, 7u);
  EXPECT_EQ(report->dead_letters, 3u);

  auto reopened = (*catalog)->LoadTable(*iceberg::TableIdentifier::Parse("db.t"));
  auto dead_letters = (*catalog)->LoadTable(*iceberg::TableIdentifier::Parse("db.t_dlq"));
  ASSERT_TRUE(reopened.has_value() && dead_letters.has_value());
  std::vector<std::string> ids;
  for (auto& row : Rows(**reopened)) {
    EXPECT_EQ(row["code"], std::to_string(std::stoll(row["id"]) * 10));
    ids.push_back(row["id"]);
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::string>{"0", "1", "2", "3", "5", "7", "9"}));
  std::map<std::string, std::string> errors;  // offset -> error
  for (auto& row : Rows(**dead_letters)) errors[row["offset"]] = row["error"];
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors.count("4"), 1u);
  EXPECT_EQ(errors.count("8"), 1u);
  EXPECT_EQ(errors["6"].rfind("transform: ", 0), 0u) << errors["6"];
}

// A job killed between the dead-letter commit and the table's reads the batch again, perhaps
// cut shorter: the dead letters already committed are not added again, and the dead-letter
// table's offsets do not move back (which would let the next batch add them a second time).
TEST(DeadLetterTable, ABatchReadAgainShorterAddsNoDeadLetterTwice) {
  auto catalog = iceberg::FileSystemCatalog::Open(io::testing::FreshFolder());
  ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
  auto dlq_schema = iceberg::SchemaFromJson(DeadLetterSchemaJson());
  ASSERT_TRUE(dlq_schema.has_value());
  auto created = (*catalog)->CreateTable(*iceberg::TableIdentifier::Parse("db.t_dlq"), *dlq_schema, {});
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  auto ids = TopicPartitionIds::ForTopic("orders");
  const int32_t p0 = ids->Id("orders", 0), p1 = ids->Id("orders", 1);
  auto dead = DeadLetterTable::Open(std::move(*created), ids, 64 << 20);
  ASSERT_TRUE(dead.has_value()) << dead.error().ToString();
  // The records [first, end) of a partition, each index of `bad` a dead letter.
  auto commit = [&](std::vector<std::tuple<int32_t, int64_t, int64_t>> ranges,
                    std::set<std::pair<int32_t, int64_t>> bad_offsets) {
    MicroBatch batch;
    DeadLetters bad;
    SourceOffsets next;
    for (const auto& [partition, first, end] : ranges) {
      for (int64_t offset = first; offset < end; ++offset) {
        if (bad_offsets.contains({partition, offset})) bad.emplace_back(batch.records().size(), "not JSON");
        batch.Add(partition, offset, 1000 + offset, "x", 1);
      }
      next[partition] = end;
    }
    return (*dead)->Commit(batch, bad, next);
  };
  auto first = commit({{p0, 0, 20}}, {{p0, 5}, {p0, 15}});  // The job dies before the table's commit.
  ASSERT_TRUE(first.has_value()) << first.error().ToString();
  EXPECT_EQ(*first, 2u);
  auto again = commit({{p0, 0, 10}, {p1, 0, 3}}, {{p0, 5}, {p1, 1}});  // Read again, shorter.
  ASSERT_TRUE(again.has_value()) << again.error().ToString();
  EXPECT_EQ(*again, 1u);
  auto next = commit({{p0, 10, 30}}, {{p0, 15}, {p0, 25}});
  ASSERT_TRUE(next.has_value()) << next.error().ToString();
  EXPECT_EQ(*next, 1u);
  std::multiset<std::string> offsets;
  for (auto& row : Rows((*dead)->table())) offsets.insert(row["offset"]);
  EXPECT_EQ(offsets, (std::multiset<std::string>{"1", "5", "15", "25"}));
}

}  // namespace
}  // namespace floe::stream
