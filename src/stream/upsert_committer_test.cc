// The committer in upsert mode, against a table on local files: batch after batch of puts,
// updates, tombstones and re-inserts leave exactly the last row per live key (checked against a
// model), each batch in one `overwrite` snapshot of data files and equality delete files.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "iceberg/data_files.h"
#include "iceberg/filesystem_catalog.h"
#include "iceberg/scan.h"
#include "iceberg/schema_json.h"
#include "io/test_folder.h"
#include "stream/iceberg_committer.h"
#include "stream/maintenance.h"

namespace floe::stream {
namespace {

using iceberg::NestedField;
using iceberg::Type;
using iceberg::TypeId;

struct Fixture {
  std::unique_ptr<iceberg::FileSystemCatalog> catalog;
  std::unique_ptr<IcebergCommitter> committer;
};

iceberg::Schema OrderSchema() {
  return iceberg::Schema(0,
                         {NestedField{1, "order_id", true, Type::Primitive(TypeId::kLong)},
                          NestedField{2, "status", false, Type::Primitive(TypeId::kString)},
                          NestedField{3, "amount", false, Type::Primitive(TypeId::kLong)}},
                         {1});
}

Result<Fixture> Open(const iceberg::Schema& schema, std::vector<iceberg::PartitionField> partition,
                     std::vector<std::string> keys, Envelope envelope = Envelope::kNone) {
  Fixture f;
  FLOE_ASSIGN_OR_RETURN(f.catalog, iceberg::FileSystemCatalog::Open(io::testing::FreshFolder()));
  FLOE_ASSIGN_OR_RETURN(auto dlq_schema, iceberg::SchemaFromJson(DeadLetterSchemaJson()));
  FLOE_ASSIGN_OR_RETURN(auto table,
                        f.catalog->CreateTable(*iceberg::TableIdentifier::Parse("db.t"), schema, partition));
  FLOE_ASSIGN_OR_RETURN(auto dead,
                        f.catalog->CreateTable(*iceberg::TableIdentifier::Parse("db.t_dlq"), dlq_schema, {}));
  FLOE_ASSIGN_OR_RETURN(
      f.committer,
      IcebergCommitter::Open(
          std::move(table), std::move(dead),
          {.topic = "orders", .decode_chunk_records = 7, .key_columns = std::move(keys), .envelope = envelope}));
  return f;
}

// Every row of a table: order_id -> "status/amount", and how many rows there were.
std::map<int64_t, std::string> Rows(iceberg::Table& table, size_t* count) {
  std::map<int64_t, std::string> out;
  *count = 0;
  auto plan = iceberg::PlanScan(table, {});
  EXPECT_TRUE(plan.has_value()) << plan.error().ToString();
  const iceberg::Schema& schema = table.metadata().CurrentSchema();
  for (const auto& task : plan->tasks) {
    auto read =
        iceberg::ReadTask(table, task, schema, [&](const formats::ColumnBatch& b, const std::vector<int>& c) -> Status {
          for (int64_t r = 0; r < b.num_rows; ++r) {
            ++*count;
            out[b.columns[c[0]].Data<int64_t>()[r]] =
                std::string(b.columns[c[1]].StringAt(r)) + "/" + std::to_string(b.columns[c[2]].Data<int64_t>()[r]);
          }
          return OkStatus();
        });
    EXPECT_TRUE(read.has_value()) << read.error().ToString();
  }
  return out;
}

std::map<int64_t, std::string> DeadLetters(iceberg::FileSystemCatalog& catalog) {
  auto table = catalog.LoadTable(*iceberg::TableIdentifier::Parse("db.t_dlq"));
  EXPECT_TRUE(table.has_value());
  std::map<int64_t, std::string> out;  // offset -> error
  auto plan = iceberg::PlanScan(**table, {});
  const iceberg::Schema& schema = (*table)->metadata().CurrentSchema();
  for (const auto& task : plan->tasks) {
    (void)iceberg::ReadTask(**table, task, schema,
                            [&](const formats::ColumnBatch& b, const std::vector<int>& c) -> Status {
                              for (int64_t r = 0; r < b.num_rows; ++r)
                                out[b.columns[c[2]].Data<int64_t>()[r]] = std::string(b.columns[c[4]].StringAt(r));
                              return OkStatus();
                            });
  }
  return out;
}

TEST(UpsertCommitter, BatchesOfChangesLeaveTheLastRowOfEachLiveKey) {
  auto f = Open(OrderSchema(), {}, {"order_id"});
  ASSERT_TRUE(f.has_value()) << f.error().ToString();
  std::mt19937_64 random(25);
  std::map<int64_t, std::string> model;
  int64_t offset = 0;
  for (int b = 0; b < 6; ++b) {
    MicroBatch batch;
    const int64_t start = offset;
    for (int i = 0; i < 300; ++i, ++offset) {
      int64_t id = static_cast<int64_t>(random() % 60);
      std::string key = std::to_string(id);
      if (random() % 5 == 0) {
        batch.Add(0, offset, 0, nullptr, 0, key.data(), key.size());  // Tombstone.
        model.erase(id);
        continue;
      }
      std::string status = random() % 2 ? "paid" : "created";
      std::string value = fmt::format(R"({{"order_id":{},"status":"{}","amount":{}}})", id, status, offset);
      batch.Add(0, offset, 0, value.data(), value.size(), key.data(), key.size());
      model[id] = status + "/" + std::to_string(offset);
    }
    auto report = f->committer->Commit(batch, b == 0 ? SourceOffsets{} : SourceOffsets{{0, start}}, {{0, offset}});
    ASSERT_TRUE(report.has_value()) << report.error().ToString();
    EXPECT_EQ(report->dead_letters, 0u);

    auto table = f->catalog->LoadTable(*iceberg::TableIdentifier::Parse("db.t"));
    ASSERT_TRUE(table.has_value());
    size_t count = 0;
    EXPECT_EQ(Rows(**table, &count), model) << "after batch " << b;
    EXPECT_EQ(count, model.size()) << "a key has two rows after batch " << b;
    const iceberg::Snapshot* snapshot = (*table)->metadata().CurrentSnapshot();
    EXPECT_EQ(snapshot->summary.at("operation"), "overwrite");
    EXPECT_EQ(snapshot->summary.at(OffsetsSummaryKey("orders")), fmt::format(R"({{"0":{}}})", offset));
    EXPECT_EQ(snapshot->summary.at("added-delete-files"), "1");
    auto entries = (*table)->LiveEntries();
    ASSERT_TRUE(entries.has_value());
    for (const auto& e : *entries) {
      if (e.data_file.content == iceberg::FileContent::kEqualityDeletes) {
        EXPECT_EQ(e.data_file.equality_ids, std::vector<int32_t>{1});
      }
    }
  }
}

TEST(UpsertCommitter, BadKeysAreDeadLettersWithReasonsNamingTheColumn) {
  auto f = Open(OrderSchema(), {}, {"order_id"});
  ASSERT_TRUE(f.has_value()) << f.error().ToString();
  MicroBatch batch;
  auto add = [&](int64_t offset, const char* key, const char* value) {
    batch.Add(0, offset, 0, value, value ? std::strlen(value) : 0, key, key ? std::strlen(key) : 0);
  };
  add(0, "1", R"({"order_id":1,"status":"created","amount":5})");
  add(1, nullptr, R"({"status":"created","amount":5})");    // No key column in the row.
  add(2, nullptr, nullptr);                                 // Tombstone without a key.
  add(3, "abc", nullptr);                                   // Key of the wrong type.
  add(4, R"({"order_id":{"a":[1,2,{"b":3}]}})", nullptr);   // Nested garbage.
  add(5, R"({"order_id":)", nullptr);                       // Truncated.
  add(6, "2", R"({"order_id":"two","status":"created"})");  // Row key of the wrong type.
  add(7, "1", R"({"order_id":1,"status":"paid","amount":6})");
  auto report = f->committer->Commit(batch, {}, {{0, 8}});
  ASSERT_TRUE(report.has_value()) << report.error().ToString();
  EXPECT_EQ(report->rows, 1u);
  EXPECT_EQ(report->dead_letters, 6u);
  auto dead = DeadLetters(*f->catalog);
  ASSERT_EQ(dead.size(), 6u);
  // The key column is required (upsert mode makes it so): the decoder names it.
  EXPECT_EQ(dead[1], "required field 'order_id' is missing");
  EXPECT_NE(dead[2].find("without a message key"), std::string::npos) << dead[2];
  for (int64_t offset : {3, 4, 6}) EXPECT_NE(dead[offset].find("order_id"), std::string::npos) << dead[offset];
  EXPECT_NE(dead[5].find("key: "), std::string::npos) << dead[5];
  auto table = f->catalog->LoadTable(*iceberg::TableIdentifier::Parse("db.t"));
  size_t count = 0;
  EXPECT_EQ(Rows(**table, &count), (std::map<int64_t, std::string>{{1, "paid/6"}}));
}

TEST(UpsertCommitter, DebeziumEventsInsertUpdateAndDelete) {
  auto f = Open(OrderSchema(), {}, {"order_id"}, Envelope::kDebezium);
  ASSERT_TRUE(f.has_value()) << f.error().ToString();
  const std::vector<std::pair<const char*, const char*>> events = {
      {R"({"order_id":1})",
       R"({"before":null,"after":{"order_id":1,"status":"created","amount":10},"op":"r","ts_ms":1})"},
      {R"({"order_id":2})",
       R"({"schema":{"type":"struct"},"payload":{"before":null,)"
       R"("after":{"order_id":2,"status":"created","amount":20},"source":{"connector":"postgresql"},"op":"c","ts_ms":2}})"},
      {R"({"order_id":1})",
       R"({"before":{"order_id":1,"status":"created","amount":10},)"
       R"("after":{"order_id":1,"status":"paid","amount":10},"op":"u","ts_ms":3})"},
      {R"({"order_id":2})",
       R"({"before":{"order_id":2,"status":"created","amount":20},"after":null,"op":"d","ts_ms":4})"},
      {R"({"order_id":2})", nullptr},  // Debezium's tombstone after the delete.
      {R"({"order_id":3})",
       R"({"before":null,"after":{"order_id":3,"status":"created","amount":30},"op":"c","ts_ms":5})"},
  };
  MicroBatch first;
  for (size_t i = 0; i < events.size(); ++i) {
    const auto& [key, value] = events[i];
    first.Add(0, static_cast<int64_t>(i), 0, value, value ? std::strlen(value) : 0, key, std::strlen(key));
  }
  ASSERT_TRUE(f->committer->Commit(first, {}, {{0, 6}}).has_value());
  // The next batch deletes 3 by a delete event and re-creates 2.
  MicroBatch second;
  const char* remove = R"({"payload":{"before":{"order_id":3},"after":null,"op":"d"}})";
  const char* again = R"({"after":{"order_id":2,"status":"created","amount":21},"op":"c"})";
  second.Add(0, 6, 0, remove, std::strlen(remove), "3", 1);
  second.Add(0, 7, 0, again, std::strlen(again), "2", 1);
  ASSERT_TRUE(f->committer->Commit(second, {{0, 6}}, {{0, 8}}).has_value());
  auto table = f->catalog->LoadTable(*iceberg::TableIdentifier::Parse("db.t"));
  size_t count = 0;
  EXPECT_EQ(Rows(**table, &count), (std::map<int64_t, std::string>{{1, "paid/10"}, {2, "created/21"}}));
  EXPECT_EQ(count, 2u);
}

TEST(UpsertCommitter, RefusesKeysThatAreNotTheTablesIdentifiersOrPartitioning) {
  iceberg::Schema no_identifiers(0, OrderSchema().fields());
  auto mismatch = Open(no_identifiers, {}, {"order_id"});
  ASSERT_FALSE(mismatch.has_value());
  EXPECT_NE(mismatch.error().message().find("identifier fields"), std::string::npos) << mismatch.error().ToString();
  auto missing = Open(OrderSchema(), {}, {"nope"});
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message().find("no top-level column 'nope'"), std::string::npos);
  auto by_status = iceberg::ParsePartitionField("status", OrderSchema(), 1000);
  ASSERT_TRUE(by_status.has_value());
  auto partitioned = Open(OrderSchema(), {*by_status}, {"order_id"});
  ASSERT_FALSE(partitioned.has_value());
  EXPECT_NE(partitioned.error().message().find("not a key column"), std::string::npos)
      << partitioned.error().ToString();
}

TEST(UpsertCommitter, PartitionedByTheKeyWritesEachDeleteInItsKeysPartition) {
  auto bucket = iceberg::ParsePartitionField("bucket(4, order_id)", OrderSchema(), 1000);
  ASSERT_TRUE(bucket.has_value()) << bucket.error().ToString();
  auto f = Open(OrderSchema(), {*bucket}, {"order_id"});
  ASSERT_TRUE(f.has_value()) << f.error().ToString();
  std::map<int64_t, std::string> model;
  int64_t offset = 0;
  for (int b = 0; b < 3; ++b) {
    MicroBatch batch;
    const int64_t start = offset;
    for (int64_t id = 0; id < 20; ++id, ++offset) {
      std::string key = std::to_string(id);
      if ((id + b) % 4 == 0) {
        batch.Add(0, offset, 0, nullptr, 0, key.data(), key.size());
        model.erase(id);
        continue;
      }
      std::string value = fmt::format(R"({{"order_id":{},"status":"s{}","amount":{}}})", id, b, offset);
      batch.Add(0, offset, 0, value.data(), value.size(), key.data(), key.size());
      model[id] = fmt::format("s{}/{}", b, offset);
    }
    ASSERT_TRUE(
        f->committer->Commit(batch, b == 0 ? SourceOffsets{} : SourceOffsets{{0, start}}, {{0, offset}}).has_value());
  }
  auto table = f->catalog->LoadTable(*iceberg::TableIdentifier::Parse("db.t"));
  size_t count = 0;
  EXPECT_EQ(Rows(**table, &count), model);
  EXPECT_EQ(count, model.size());
}

TEST(UpsertCommitter, TheJobsMaintenanceFoldsTheDeletesAndKeepsTheOffsets) {
  auto f = Open(OrderSchema(), {}, {"order_id"});
  ASSERT_TRUE(f.has_value()) << f.error().ToString();
  std::map<int64_t, std::string> model;
  int64_t offset = 0;
  for (int b = 0; b < 4; ++b) {
    MicroBatch batch;
    const int64_t start = offset;
    for (int64_t id = 0; id < 30; ++id, ++offset) {
      std::string key = std::to_string(id);
      if ((id + b) % 5 == 0) {
        batch.Add(0, offset, 0, nullptr, 0, key.data(), key.size());
        model.erase(id);
        continue;
      }
      std::string value = fmt::format(R"({{"order_id":{},"status":"s{}","amount":{}}})", id, b, offset);
      batch.Add(0, offset, 0, value.data(), value.size(), key.data(), key.size());
      model[id] = fmt::format("s{}/{}", b, offset);
    }
    SourceOffsets expected = b == 0 ? SourceOffsets{} : SourceOffsets{{0, start}};
    ASSERT_TRUE(f->committer->Commit(batch, expected, {{0, offset}}).has_value());
  }
  auto id = *iceberg::TableIdentifier::Parse("db.t");
  MetricsRegistry metrics;
  TableMaintenance maintenance([&]() { return f->catalog->LoadTable(id); },
                               {.interval_ms = 0, .target_file_size_bytes = 1 << 20}, metrics);
  auto report = maintenance.RunOnce();
  ASSERT_TRUE(report.has_value()) << report.error().ToString();
  EXPECT_EQ(report->files_rewritten, 4u);
  auto table = f->catalog->LoadTable(id);
  ASSERT_TRUE(table.has_value());
  size_t count = 0;
  EXPECT_EQ(Rows(**table, &count), model);
  EXPECT_EQ(count, model.size());
  const iceberg::TableMetadata& m = (*table)->metadata();
  EXPECT_EQ(m.CurrentSnapshot()->summary.at("operation"), "replace");
  EXPECT_EQ(m.CurrentSnapshot()->summary.at("total-delete-files"), "0");
  auto offsets = OffsetsInAncestryOf(m, m.CurrentSnapshot(), "orders");
  ASSERT_TRUE(offsets.has_value());
  EXPECT_EQ(*offsets, (SourceOffsets{{0, offset}}));
  // The job goes on committing on top of the compacted table.
  MicroBatch next;
  const char* value = R"({"order_id":1,"status":"late","amount":1})";
  next.Add(0, offset, 0, value, std::strlen(value), "1", 1);
  ASSERT_TRUE(f->committer->Commit(next, {{0, offset}}, {{0, offset + 1}}).has_value());
  model[1] = "late/1";
  table = f->catalog->LoadTable(id);
  EXPECT_EQ(Rows(**table, &count), model);
  EXPECT_EQ(count, model.size());
}

}  // namespace
}  // namespace floe::stream
