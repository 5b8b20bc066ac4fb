#include "catalog/catalog_table_operations.h"

#include <thread>

#include <gtest/gtest.h>

#include "catalog/open_catalog.h"
#include "formats/json/event_decoder.h"
#include "formats/json/iceberg_fields.h"
#include "iceberg/data_files.h"
#include "iceberg/schema_json.h"
#include "iceberg/table.h"
#include "iceberg/table_statistics.h"
#include "io/test_folder.h"

namespace floe::catalog {
namespace {

constexpr std::string_view kOperationsSchema = R"({"type":"struct","schema-id":0,"fields":[
  {"id":1,"name":"id","required":true,"type":"long"},
  {"id":2,"name":"region","required":false,"type":"string"}]})";

class CatalogTableOperationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = io::testing::FreshFolder();
    auto opened = OpenCatalog({.uri = "sqlite:" + dir_ + "/catalog.db", .warehouse = "file://" + dir_ + "/warehouse"});
    ASSERT_TRUE(opened) << opened.error().ToString();
    catalog_ = std::move(*opened);
    ASSERT_TRUE(catalog_->CreateNamespace({"shop"}, {}));
    TableCreation creation;
    creation.schema = nlohmann::json::parse(kOperationsSchema);
    creation.partition_spec = nlohmann::json::parse(
        R"({"spec-id":0,"fields":[{"source-id":2,"field-id":1000,"name":"region","transform":"identity"}]})");
    ASSERT_TRUE(catalog_->CreateTable(id_, creation, /*stage=*/false));
  }

  std::unique_ptr<iceberg::Table> LoadTable() {
    auto ops = CatalogTableOperations::Open(catalog_, id_);
    EXPECT_TRUE(ops) << ops.error().ToString();
    auto table = iceberg::Table::Load(*ops);
    EXPECT_TRUE(table) << table.error().ToString();
    return std::move(*table);
  }

  std::vector<iceberg::DataFile> WriteRows(iceberg::Table& table, std::string_view jsonl) {
    auto schema = iceberg::SchemaFromJson(kOperationsSchema);
    auto fields = formats::BatchFieldsFromSchema(*schema);
    auto decoder = formats::JsonEventDecoder::Make(*fields);
    std::string padded(jsonl);
    padded.append(formats::JsonEventDecoder::kPadding, '\0');
    (*decoder)->DecodeLines(std::string_view(padded.data(), jsonl.size()), 1);
    EXPECT_TRUE((*decoder)->errors().empty());
    std::vector<formats::ColumnBatch> batches;
    batches.push_back((*decoder)->TakeBatch());
    auto files = iceberg::WriteDataFiles(table, batches);
    EXPECT_TRUE(files) << files.error().ToString();
    return *files;
  }

  std::string dir_;
  std::shared_ptr<Catalog> catalog_;
  TableIdentifier id_{{"shop"}, "orders"};
};

TEST_F(CatalogTableOperationsTest, AppendsThroughTheCatalogAndReadsBack) {
  auto table = LoadTable();
  auto files = WriteRows(*table, "{\"id\":1,\"region\":\"eu\"}\n{\"id\":2,\"region\":\"us\"}\n{\"id\":3}\n");
  EXPECT_EQ(files.size(), 3u);  // One per partition: eu, us, null.
  table->set_summary_properties({{"floe.offsets.orders", R"({"0":3})"}});
  ASSERT_TRUE(table->FastAppend(files)) << "append";

  auto reloaded = LoadTable();
  const iceberg::Snapshot* current = reloaded->metadata().CurrentSnapshot();
  ASSERT_NE(current, nullptr);
  EXPECT_EQ(current->summary.at("floe.offsets.orders"), R"({"0":3})");
  EXPECT_EQ(current->summary.at("added-records"), "3");
  auto live = reloaded->LiveEntries();
  ASSERT_TRUE(live);
  EXPECT_EQ(live->size(), 3u);
  // The catalog's pointer moved to a metadata file inside the table's location.
  auto loaded = catalog_->LoadTable(id_);
  EXPECT_NE(loaded->metadata_location.find(dir_ + "/warehouse/shop/orders/metadata/"), std::string::npos)
      << loaded->metadata_location;
}

TEST_F(CatalogTableOperationsTest, ConcurrentAppendersRebaseAndAllLand) {
  constexpr int kWriters = 4, kAppends = 5;
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      auto table = LoadTable();
      for (int i = 0; i < kAppends; ++i) {
        auto files = WriteRows(*table, fmt::format("{{\"id\":{},\"region\":\"r{}\"}}\n", w * 100 + i, w));
        auto status = table->FastAppend(files);
        EXPECT_TRUE(status) << status.error().ToString();
      }
    });
  }
  for (auto& t : writers) t.join();
  auto table = LoadTable();
  EXPECT_EQ(table->LiveEntries()->size(), static_cast<size_t>(kWriters * kAppends));
  EXPECT_EQ(table->metadata().snapshots.size(), static_cast<size_t>(kWriters * kAppends));
}

TEST_F(CatalogTableOperationsTest, ASummaryFunctionCanRefuseTheBase) {
  auto table = LoadTable();
  auto files = WriteRows(*table, "{\"id\":1,\"region\":\"eu\"}\n");
  table->set_summary_function([](const iceberg::TableMetadata&) -> Result<std::map<std::string, std::string>> {
    return Conflict("the offsets moved");
  });
  auto status = table->FastAppend(files);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind(), ErrorKind::kConflict);
  EXPECT_EQ(LoadTable()->metadata().CurrentSnapshot(), nullptr);
  // The function belonged to that commit only.
  ASSERT_TRUE(table->FastAppend(files));
}

// Catalog operations that remember every change a Table sent through them.
class RecordingOperations final : public iceberg::TableOperations {
 public:
  explicit RecordingOperations(std::shared_ptr<CatalogTableOperations> inner) : inner_(std::move(inner)) {}
  Result<iceberg::VersionedMetadata> Refresh() override { return inner_->Refresh(); }
  Result<iceberg::VersionedMetadata> Commit(const iceberg::VersionedMetadata& base,
                                            const iceberg::TableChange& change) override {
    changes.push_back(change);
    return inner_->Commit(base, change);
  }
  io::ObjectStore& store() override { return inner_->store(); }
  Result<std::string> KeyForLocation(std::string_view location) const override {
    return inner_->KeyForLocation(location);
  }
  std::string NewLocation(std::string_view relative) const override { return inner_->NewLocation(relative); }
  const std::string& table_key() const override { return inner_->table_key(); }

  std::vector<std::string> Actions(size_t change) const {
    std::vector<std::string> out;
    for (const auto& update : changes.at(change).updates) out.emplace_back(update->action());
    return out;
  }
  std::vector<std::string> RequirementTypes(size_t change) const {
    std::vector<std::string> out;
    for (const auto& requirement : changes.at(change).requirements) out.emplace_back(requirement->type());
    return out;
  }

  std::vector<iceberg::TableChange> changes;

 private:
  std::shared_ptr<CatalogTableOperations> inner_;
};

TEST_F(CatalogTableOperationsTest, OperationsAreSentAsRestUpdatesWithTheirRequirements) {
  auto ops = CatalogTableOperations::Open(catalog_, id_);
  ASSERT_TRUE(ops);
  auto recording = std::make_shared<RecordingOperations>(*ops);
  auto table = iceberg::Table::Load(recording);
  ASSERT_TRUE(table);
  ASSERT_TRUE((*table)->SetProperties({{"owner", "shop-team"}}, {"absent"}));
  iceberg::SchemaChange add;
  add.kind = iceberg::SchemaChange::Kind::kAddColumn;
  add.column = "coupon";
  add.type = *iceberg::TypeFromJsonValue("string");
  ASSERT_TRUE((*table)->UpdateSchema({add}));
  ASSERT_TRUE((*table)->FastAppend(WriteRows(**table, "{\"id\":1,\"region\":\"eu\"}\n")));
  ASSERT_EQ(recording->changes.size(), 3u);
  EXPECT_EQ(recording->Actions(0), (std::vector<std::string>{"set-properties", "remove-properties"}));
  EXPECT_EQ(recording->RequirementTypes(0), (std::vector<std::string>{"assert-table-uuid"}));
  EXPECT_EQ(recording->Actions(1), (std::vector<std::string>{"add-schema", "set-current-schema"}));
  EXPECT_EQ(
      recording->RequirementTypes(1),
      (std::vector<std::string>{"assert-table-uuid", "assert-last-assigned-field-id", "assert-current-schema-id"}));
  EXPECT_EQ(recording->Actions(2), (std::vector<std::string>{"add-snapshot", "set-snapshot-ref"}));
  EXPECT_EQ(recording->RequirementTypes(2), (std::vector<std::string>{"assert-table-uuid", "assert-ref-snapshot-id"}));
  EXPECT_TRUE(recording->changes[2].requirements[1]->ToJson()["snapshot-id"].is_null());  // main did not exist.
  auto reloaded = LoadTable();
  EXPECT_EQ(reloaded->metadata().properties.at("owner"), "shop-team");
  EXPECT_NE(reloaded->metadata().CurrentSchema().FindFieldByName("coupon"), nullptr);
  EXPECT_NE(reloaded->metadata().CurrentSnapshot(), nullptr);
}

// ANALYZE's statistics file reaches the catalog as set-statistics, and its metadata keeps it.
TEST_F(CatalogTableOperationsTest, StatisticsFilesBecomeSetStatisticsUpdates) {
  auto ops = CatalogTableOperations::Open(catalog_, id_);
  ASSERT_TRUE(ops);
  auto recording = std::make_shared<RecordingOperations>(*ops);
  auto table = iceberg::Table::Load(recording);
  ASSERT_TRUE(table);
  ASSERT_TRUE((*table)->FastAppend(WriteRows(**table, "{\"id\":1,\"region\":\"eu\"}\n{\"id\":2,\"region\":\"eu\"}\n")));
  auto statistics = iceberg::UpdateTableStatistics(**table);
  ASSERT_TRUE(statistics) << statistics.error().ToString();
  ASSERT_EQ(recording->changes.size(), 2u);
  ASSERT_EQ(recording->Actions(1), (std::vector<std::string>{"set-statistics"}));
  EXPECT_EQ(recording->changes[1].updates[0]->ToJson()["statistics"]["statistics-path"], statistics->path);
  auto reloaded = LoadTable();
  ASSERT_EQ(reloaded->metadata().statistics.size(), 1u);
  EXPECT_EQ(iceberg::DistinctCounts(reloaded->metadata()), statistics->ndv);
}

}  // namespace
}  // namespace floe::catalog
