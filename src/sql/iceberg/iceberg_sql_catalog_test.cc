#include "sql/iceberg/iceberg_sql_catalog.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <map>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "iceberg/table_metadata.h"
#include "io/test_folder.h"
#include "sql/iceberg/iceberg_types.h"
#include "sql/sql_session.h"
#include "sql/catalog/table_scan.h"

namespace floe::sql::iceberg_sql {
namespace {

using formats::ColumnBatch;
using formats::ColumnVector;

constexpr int64_t kHour = int64_t{3600} * 1000000;
constexpr int64_t kBase = int64_t{1735689600} * 1000000;  // 2025-01-01 00:00:00 UTC

struct Order {
  int64_t id;
  int64_t ts;
  std::string region;
  int64_t cents;
  std::optional<int32_t> qty;
};

std::vector<TableColumn> OrderColumns() {
  return {{"id", SqlType::Bigint(), false},
          {"ts", SqlType::TimestampTz()},
          {"region", SqlType::Varchar()},
          {"amount", SqlType::Decimal(10, 2)},
          {"qty", SqlType::Integer()}};
}

ColumnBatch OrderBatch(const std::vector<Order>& orders) {
  std::vector<formats::Field> fields;
  for (const TableColumn& c : OrderColumns()) fields.push_back({c.name, -1, c.nullable, BatchTypeFor(c.type)});
  ColumnBatch b = formats::MakeEmptyBatch(fields);
  for (const Order& o : orders) {
    b.columns[0].Append<int64_t>(o.id);
    b.columns[1].Append<int64_t>(o.ts);
    b.columns[2].AppendString(o.region);
    b.columns[3].Append<__int128>(o.cents);
    if (o.qty) {
      b.columns[4].Append<int32_t>(*o.qty);
    } else {
      b.columns[4].AppendNull();
    }
  }
  b.num_rows = static_cast<int64_t>(orders.size());
  return b;
}

// Orders in hour `hour` (ids from `first`), regions cycling.
std::vector<Order> HourOrders(int hour, int64_t first, int count) {
  static const char* kRegions[] = {"eu", "us", "apac"};
  std::vector<Order> out;
  for (int i = 0; i < count; ++i) {
    int64_t id = first + i;
    out.push_back({id, kBase + hour * kHour + i * 1000000, kRegions[id % 3], 100 + id * 7 % 5000,
                   id % 10 == 0 ? std::nullopt : std::optional<int32_t>(static_cast<int32_t>(id % 5 + 1))});
  }
  return out;
}

// Every row of a scan as text cells, with the stats after reading.
struct ScanResult {
  std::vector<std::vector<std::string>> rows;
  ScanStats stats;
  std::string describe;
  size_t splits = 0;
};

std::string Cell(const ColumnVector& v, int64_t r) {
  if (!v.IsValid(r)) return "NULL";
  switch (v.type().id) {
    case formats::TypeId::kInt32:
    case formats::TypeId::kDate: return std::to_string(v.Data<int32_t>()[r]);
    case formats::TypeId::kInt64:
    case formats::TypeId::kTimestamp:
    case formats::TypeId::kTimestampTz: return std::to_string(v.Data<int64_t>()[r]);
    case formats::TypeId::kDecimal: return std::to_string(static_cast<int64_t>(v.Data<__int128>()[r]));
    case formats::TypeId::kBoolean: return v.Data<uint8_t>()[r] ? "true" : "false";
    case formats::TypeId::kDouble: return std::to_string(v.Data<double>()[r]);
    case formats::TypeId::kString:
    case formats::TypeId::kBinary: return std::string(v.StringAt(r));
    case formats::TypeId::kMap:
    case formats::TypeId::kList: return "[" + std::to_string(v.offsets[r + 1] - v.offsets[r]) + "]";
    default: return "?";
  }
}

Result<ScanResult> ReadAll(const SqlCatalog& catalog, std::shared_ptr<const CatalogTable> table, std::vector<int> columns,
                           const ScanPredicate* predicate = nullptr, std::string metadata_table = "") {
  ScanRequest request;
  request.table = std::move(table);
  request.columns = std::move(columns);
  request.predicate = predicate;
  request.metadata_table = std::move(metadata_table);
  FLOE_ASSIGN_OR_RETURN(auto scan, catalog.OpenScan(request));
  ScanResult out;
  out.splits = scan->split_count();
  for (size_t s = 0; s < scan->split_count(); ++s) {
    FLOE_RETURN_IF_ERROR(scan->ReadSplit(s, [&](ColumnBatch& b) -> Status {
      if (b.columns.size() != request.columns.size()) return Internal("batch has {} columns", b.columns.size());
      for (int64_t r = 0; r < b.num_rows; ++r) {
        std::vector<std::string> row;
        for (const ColumnVector& c : b.columns) {
          if (c.length != b.num_rows) return Internal("column length {} != {}", c.length, b.num_rows);
          row.push_back(Cell(c, r));
        }
        out.rows.push_back(std::move(row));
      }
      return OkStatus();
    }));
  }
  out.stats = scan->stats();
  out.describe = scan->Describe();
  return out;
}

class IcebergSqlCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    warehouse_ = io::testing::FreshFolder();
    auto catalog = IcebergSqlCatalog::OpenWarehouse(warehouse_);
    ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
    catalog_ = std::move(*catalog);
    ASSERT_TRUE(catalog_->CreateSchema("floe", "sales").has_value());
    TableDefinition def;
    def.name = name_;
    def.columns = OrderColumns();
    def.partition_by = {"hour(ts)"};
    auto created = catalog_->CreateTable(def);
    ASSERT_TRUE(created.has_value()) << created.error().ToString();
  }

  // Appends hours [first_hour, first_hour + hours) with `per_hour` orders each, in one commit.
  void Append(int first_hour, int hours, int per_hour) {
    std::vector<Order> orders;
    for (int h = first_hour; h < first_hour + hours; ++h) {
      auto more = HourOrders(h, next_id_, per_hour);
      next_id_ += per_hour;
      orders.insert(orders.end(), more.begin(), more.end());
    }
    all_.insert(all_.end(), orders.begin(), orders.end());
    std::vector<ColumnBatch> batches;
    batches.push_back(OrderBatch(orders));
    auto n = catalog_->AppendRows(name_, std::move(batches));
    ASSERT_TRUE(n.has_value()) << n.error().ToString();
    EXPECT_EQ(*n, static_cast<int64_t>(orders.size()));
  }

  std::shared_ptr<const CatalogTable> Table(TableVersion version = {}) {
    auto t = catalog_->GetTable(name_, version);
    EXPECT_TRUE(t.has_value()) << t.error().ToString();
    return t ? *t : nullptr;
  }

  std::string warehouse_;
  std::unique_ptr<IcebergSqlCatalog> catalog_;
  QualifiedTableName name_{"floe", "sales", "orders"};
  std::vector<Order> all_;
  int64_t next_id_ = 1;
};

TEST_F(IcebergSqlCatalogTest, DescribesTheTable) {
  Append(0, 2, 10);
  auto names = catalog_->SchemaNames("floe");
  ASSERT_TRUE(names.has_value());
  EXPECT_EQ(*names, std::vector<std::string>{"sales"});
  auto tables = catalog_->TableNames("floe", "sales");
  ASSERT_TRUE(tables.has_value());
  EXPECT_EQ(*tables, std::vector<std::string>{"orders"});
  auto t = Table();
  ASSERT_TRUE(t);
  ASSERT_EQ(t->columns.size(), 5u);
  for (size_t i = 0; i < t->columns.size(); ++i) {
    EXPECT_EQ(t->columns[i].name, OrderColumns()[i].name);
    EXPECT_EQ(t->columns[i].type, OrderColumns()[i].type) << t->columns[i].type.ToString();
    EXPECT_GT(t->columns[i].field_id, 0);
  }
  EXPECT_FALSE(t->columns[0].nullable);
  EXPECT_EQ(t->estimated_rows, static_cast<int64_t>(all_.size()));
  EXPECT_EQ(t->partition_columns, std::vector<std::string>{"ts"});
  EXPECT_FALSE(catalog_->GetTable({"floe", "sales", "nope"}, {}).has_value());
  EXPECT_FALSE(catalog_->GetTable({"other", "sales", "orders"}, {}).has_value());
}

// Each GetTable re-checks the table's pointer: a commit by another writer (here another
// catalog on the same folder) is seen by the next query, though parsed metadata is reused.
// The optimizer's distinct counts come from the files' bounds: ids 1..60 over two commits give
// at most 60 values, qty (1..5, with nulls) at most 5; strings and timestamps-as-text have none.
TEST_F(IcebergSqlCatalogTest, ColumnStatisticsFromFileBounds) {
  Append(0, 2, 10);
  Append(5, 4, 10);
  auto table = Table();
  ASSERT_TRUE(table);
  ASSERT_EQ(table->column_statistics.size(), table->columns.size());
  auto distinct = [&](const std::string& name) -> std::optional<double> {
    for (size_t i = 0; i < table->columns.size(); ++i) {
      if (table->columns[i].name == name) return table->column_statistics[i].distinct_count;
    }
    return std::nullopt;
  };
  EXPECT_EQ(distinct("id"), 60.0);
  EXPECT_EQ(distinct("qty"), 5.0);
  EXPECT_FALSE(distinct("region").has_value());
}

// ANALYZE counts every column's distinct values (theta sketches in a Puffin statistics file),
// strings included, where bounds only bound the integer columns.
TEST_F(IcebergSqlCatalogTest, ColumnStatisticsFromAnalyze) {
  Append(0, 2, 10);
  Append(5, 4, 10);
  auto done = catalog_->ExecuteProcedure(name_, "analyze", {});
  ASSERT_TRUE(done.has_value()) << done.error().ToString();
  EXPECT_EQ(*done, "ANALYZE: 60 rows, 5 columns");
  auto table = Table();
  ASSERT_TRUE(table);
  auto distinct = [&](const std::string& name) -> std::optional<double> {
    for (size_t i = 0; i < table->columns.size(); ++i) {
      if (table->columns[i].name == name) return table->column_statistics[i].distinct_count;
    }
    return std::nullopt;
  };
  EXPECT_EQ(distinct("id"), 60.0);
  EXPECT_EQ(distinct("region"), 3.0);
  EXPECT_EQ(distinct("qty"), 5.0);
  // The counts guide later snapshots too (an ancestor's file) until the next ANALYZE.
  Append(10, 1, 10);
  EXPECT_EQ(Table()->column_statistics.size(), Table()->columns.size());
}

TEST_F(IcebergSqlCatalogTest, SeesOtherWritersCommits) {
  Append(0, 1, 10);
  EXPECT_EQ(Table()->estimated_rows, 10);
  EXPECT_EQ(Table()->estimated_rows, 10);
  auto other = IcebergSqlCatalog::OpenWarehouse(warehouse_);
  ASSERT_TRUE(other.has_value());
  std::vector<ColumnBatch> batches;
  batches.push_back(OrderBatch(HourOrders(1, 100, 7)));
  ASSERT_TRUE((*other)->AppendRows(name_, std::move(batches)).has_value());
  EXPECT_EQ(Table()->estimated_rows, 17);
  auto rows = ReadAll(*catalog_, Table(), {0});
  ASSERT_TRUE(rows.has_value());
  EXPECT_EQ(rows->rows.size(), 17u);
}

TEST_F(IcebergSqlCatalogTest, ScansEveryRowWithProjection) {
  Append(0, 3, 50);
  Append(3, 2, 40);
  auto result = ReadAll(*catalog_, Table(), {2, 0, 4});
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  std::multiset<std::string> got, want;
  for (const auto& row : result->rows) got.insert(row[0] + "|" + row[1] + "|" + row[2]);
  for (const Order& o : all_) {
    want.insert(o.region + "|" + std::to_string(o.id) + "|" + (o.qty ? std::to_string(*o.qty) : "NULL"));
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(result->stats.files_total, 5);  // One file per hour partition.
  EXPECT_EQ(result->stats.files_read, 5);
  EXPECT_EQ(result->stats.rows_read, static_cast<int64_t>(all_.size()));
  // count(*): no columns.
  auto count = ReadAll(*catalog_, Table(), {});
  ASSERT_TRUE(count.has_value()) << count.error().ToString();
  EXPECT_EQ(count->rows.size(), all_.size());
}

TEST_F(IcebergSqlCatalogTest, PrunesByPartitionAndBounds) {
  Append(0, 6, 30);
  ScanPredicate predicate;
  ColumnPredicate term;
  term.column = "ts";
  term.field_id = 2;
  term.op = ColumnPredicate::Op::kGtEq;
  term.values.push_back(Value::Int(SqlType::TimestampTz(), kBase + 4 * kHour));
  predicate.terms.push_back(term);
  auto result = ReadAll(*catalog_, Table(), {0, 1}, &predicate);
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  int64_t want = 0;
  for (const Order& o : all_) want += o.ts >= kBase + 4 * kHour;
  EXPECT_EQ(static_cast<int64_t>(result->rows.size()), want);  // Pruning here is exact.
  EXPECT_EQ(result->stats.files_total, 6);
  EXPECT_EQ(result->stats.files_read, 2);
  EXPECT_NE(result->describe.find("files 2 of 6"), std::string::npos) << result->describe;

  // A bound on id prunes by column bounds (each hour's file has its own id range).
  ScanPredicate by_id;
  ColumnPredicate id_term;
  id_term.column = "id";
  id_term.field_id = 1;
  id_term.op = ColumnPredicate::Op::kLt;
  id_term.values.push_back(Value::Int(SqlType::Bigint(), 31));
  by_id.terms.push_back(id_term);
  auto first = ReadAll(*catalog_, Table(), {0}, &by_id);
  ASSERT_TRUE(first.has_value()) << first.error().ToString();
  EXPECT_EQ(first->stats.files_read, 1);
  EXPECT_EQ(first->rows.size(), 30u);

  // IN over regions cannot prune files here, but must keep every matching row.
  ScanPredicate in;
  ColumnPredicate in_term;
  in_term.column = "region";
  in_term.field_id = 3;
  in_term.op = ColumnPredicate::Op::kIn;
  in_term.values = {Value::String(SqlType::Varchar(), "eu"), Value::String(SqlType::Varchar(), "zz")};
  in.terms.push_back(in_term);
  auto regions = ReadAll(*catalog_, Table(), {2}, &in);
  ASSERT_TRUE(regions.has_value());
  EXPECT_EQ(regions->rows.size(), all_.size());
}

TEST_F(IcebergSqlCatalogTest, TimeTravelAndMetadataTables) {
  Append(0, 1, 20);
  Append(1, 1, 25);
  auto table = Table();
  ASSERT_TRUE(table);
  // $snapshots: committed_at, snapshot_id, parent_id, operation, manifest_list, summary.
  auto snapshots = ReadAll(*catalog_, table, {1, 2, 3, 5}, nullptr, "snapshots");
  ASSERT_TRUE(snapshots.has_value()) << snapshots.error().ToString();
  ASSERT_EQ(snapshots->rows.size(), 2u);
  EXPECT_EQ(snapshots->rows[0][1], "NULL");
  EXPECT_EQ(snapshots->rows[1][1], snapshots->rows[0][0]);
  EXPECT_EQ(snapshots->rows[0][2], "append");
  int64_t first_id = std::stoll(snapshots->rows[0][0]);

  TableVersion v;
  v.kind = TableVersion::Kind::kSnapshotId;
  v.snapshot_id = first_id;
  auto old = ReadAll(*catalog_, Table(v), {0});
  ASSERT_TRUE(old.has_value()) << old.error().ToString();
  EXPECT_EQ(old->rows.size(), 20u);
  v.snapshot_id = first_id ^ 1;
  EXPECT_EQ(catalog_->GetTable(name_, v).error().kind(), ErrorKind::kNotFound);
  TableVersion main;
  main.kind = TableVersion::Kind::kRef;
  main.ref = "main";
  auto by_ref = ReadAll(*catalog_, Table(main), {0});
  ASSERT_TRUE(by_ref.has_value());
  EXPECT_EQ(by_ref->rows.size(), 45u);

  auto history = ReadAll(*catalog_, table, {1, 3}, nullptr, "history");
  ASSERT_TRUE(history.has_value()) << history.error().ToString();
  ASSERT_EQ(history->rows.size(), 2u);
  EXPECT_EQ(history->rows[0][1], "true");

  // $files: content, file_path, ..., record_count (4), ..., lower_bounds (10)
  auto files = ReadAll(*catalog_, table, {0, 1, 4, 10}, nullptr, "files");
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  ASSERT_EQ(files->rows.size(), 2u);
  std::multiset<std::string> counts;
  for (const auto& row : files->rows) counts.insert(row[2]);
  EXPECT_EQ(counts, (std::multiset<std::string>{"20", "25"}));
  EXPECT_EQ(files->rows[0][3], "[5]");  // A bound per column.

  auto manifests = ReadAll(*catalog_, table, {0, 4, 10}, nullptr, "manifests");
  ASSERT_TRUE(manifests.has_value()) << manifests.error().ToString();
  EXPECT_EQ(manifests->rows.size(), 2u);

  auto refs = ReadAll(*catalog_, table, {0, 1, 2}, nullptr, "refs");
  ASSERT_TRUE(refs.has_value()) << refs.error().ToString();
  ASSERT_EQ(refs->rows.size(), 1u);
  EXPECT_EQ(refs->rows[0][0], "main");
  EXPECT_EQ(refs->rows[0][1], "BRANCH");
  EXPECT_EQ(refs->rows[0][2], snapshots->rows[1][0]);

  // $partitions: partition (row), record_count, file_count, total_size, data.
  auto partitions = ReadAll(*catalog_, table, {1, 2}, nullptr, "partitions");
  ASSERT_TRUE(partitions.has_value()) << partitions.error().ToString();
  std::multiset<std::string> records;
  for (const auto& row : partitions->rows) records.insert(row[0] + "/" + row[1]);
  EXPECT_EQ(records, (std::multiset<std::string>{"20/1", "25/1"}));
}

TEST_F(IcebergSqlCatalogTest, SchemaEvolutionAndMaintenance) {
  Append(0, 1, 10);
  Append(0, 1, 10);
  Append(0, 1, 10);
  TableChange add;
  add.kind = TableChange::Kind::kAddColumn;
  add.column = {"note", SqlType::Varchar()};
  ASSERT_TRUE(catalog_->AlterTable(name_, add).has_value());
  auto t = Table();
  ASSERT_EQ(t->columns.size(), 6u);
  auto rows = ReadAll(*catalog_, t, {5, 0});
  ASSERT_TRUE(rows.has_value()) << rows.error().ToString();
  ASSERT_EQ(rows->rows.size(), 30u);
  for (const auto& row : rows->rows) EXPECT_EQ(row[0], "NULL");
  TableChange rename;
  rename.kind = TableChange::Kind::kRenameColumn;
  rename.name = "qty";
  rename.new_name = "quantity";
  ASSERT_TRUE(catalog_->AlterTable(name_, rename).has_value());
  t = Table();
  EXPECT_EQ(t->columns[4].name, "quantity");
  auto renamed = ReadAll(*catalog_, t, {4});
  ASSERT_TRUE(renamed.has_value()) << renamed.error().ToString();
  int nulls = 0;
  for (const auto& row : renamed->rows) nulls += row[0] == "NULL";
  int want_nulls = 0;
  for (const Order& o : all_) want_nulls += !o.qty;
  EXPECT_EQ(nulls, want_nulls);

  // optimize: three small files of one partition become one.
  auto before = ReadAll(*catalog_, Table(), {0});
  ASSERT_TRUE(before.has_value());
  EXPECT_EQ(before->stats.files_total, 3);
  auto optimized = catalog_->ExecuteProcedure(name_, "optimize", {});
  ASSERT_TRUE(optimized.has_value()) << optimized.error().ToString();
  auto after = ReadAll(*catalog_, Table(), {0});
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->stats.files_total, 1);
  EXPECT_EQ(after->rows.size(), 30u);

  // Below the minimum retention (7 days unless the catalog lowers it) nothing is expired.
  auto refused = catalog_->ExecuteProcedure(name_, "expire_snapshots", {{"retention_threshold", Value::String(SqlType::Varchar(), "0s")}});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind(), ErrorKind::kInvalidArgument);
  catalog_->set_min_retention_ms(0);
  auto expired = catalog_->ExecuteProcedure(name_, "expire_snapshots", {{"retention_threshold", Value::String(SqlType::Varchar(), "0s")}});
  ASSERT_TRUE(expired.has_value()) << expired.error().ToString();
  auto snapshots = ReadAll(*catalog_, Table(), {1}, nullptr, "snapshots");
  ASSERT_TRUE(snapshots.has_value());
  EXPECT_EQ(snapshots->rows.size(), 1u);
  auto orphans = catalog_->ExecuteProcedure(name_, "remove_orphan_files", {{"retention_threshold", Value::String(SqlType::Varchar(), "0s")}});
  ASSERT_TRUE(orphans.has_value()) << orphans.error().ToString();
  auto still = ReadAll(*catalog_, Table(), {0});
  ASSERT_TRUE(still.has_value()) << still.error().ToString();
  EXPECT_EQ(still->rows.size(), 30u);
  EXPECT_FALSE(catalog_->ExecuteProcedure(name_, "vacuum", {}).has_value());

  ASSERT_TRUE(catalog_->DropTable(name_).has_value());
  EXPECT_FALSE(catalog_->GetTable(name_, {}).has_value());
  ASSERT_TRUE(catalog_->DropSchema("floe", "sales").has_value());
}

// The text of a folder table's newest metadata file.
std::string NewestMetadata(const std::filesystem::path& table) {
  std::filesystem::path newest;
  for (const auto& entry : std::filesystem::directory_iterator(table / "metadata")) {
    if (entry.path().string().ends_with(".metadata.json") && entry.path() > newest) newest = entry.path();
  }
  std::ifstream in(newest);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The current schema as floe reads it.
iceberg::Schema NewestSchema(const std::filesystem::path& table) {
  auto metadata = iceberg::TableMetadataFromJson(NewestMetadata(table));
  EXPECT_TRUE(metadata.has_value()) << table;
  return metadata->CurrentSchema();
}

// The current schema's `identifier-field-ids` as the spec spells them, read with a plain JSON
// parser, as any other Iceberg reader finds them.
std::vector<int32_t> SpecIdentifierFieldIds(const std::filesystem::path& table) {
  auto json = nlohmann::json::parse(NewestMetadata(table));
  for (const auto& schema : json["schemas"]) {
    if (schema["schema-id"] == json["current-schema-id"]) return schema.value("identifier-field-ids", std::vector<int32_t>{});
  }
  ADD_FAILURE() << "no current schema in " << table;
  return {};
}

// PRIMARY KEY becomes the schema's identifier fields (required columns), as a column or a table
// constraint; UNIQUE is accepted with a warning; mistakes are positioned errors.
TEST(IcebergSqlCatalogDdl, PrimaryKeyBecomesIdentifierFields) {
  std::string warehouse = io::testing::FreshFolder();
  auto catalog = IcebergSqlCatalog::OpenWarehouse(warehouse);
  ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
  SqlSession session(**catalog);
  QueryOptions options;
  auto run = [&](const std::string& sql) { return session.Run(sql, options); };
  ASSERT_TRUE(run("CREATE SCHEMA shop").has_value());
  auto one = run("CREATE TABLE shop.orders (order_id bigint PRIMARY KEY, status varchar UNIQUE, amount decimal(10,2))");
  ASSERT_TRUE(one.has_value()) << one.error().ToString();
  ASSERT_EQ(one->size(), 1u);
  ASSERT_EQ((*one)[0].warnings.size(), 1u);
  EXPECT_NE((*one)[0].warnings[0].find("UNIQUE is not enforced"), std::string::npos);
  auto two = run("CREATE TABLE shop.lines (order_id bigint, line integer, sku varchar, PRIMARY KEY (order_id, line))");
  ASSERT_TRUE(two.has_value()) << two.error().ToString();

  iceberg::Schema orders = NewestSchema(std::filesystem::path(warehouse) / "shop" / "orders");
  EXPECT_EQ(orders.identifier_field_ids(), std::vector<int32_t>{1});
  EXPECT_EQ(SpecIdentifierFieldIds(std::filesystem::path(warehouse) / "shop" / "orders"), std::vector<int32_t>{1});
  EXPECT_TRUE(orders.fields()[0].required);
  EXPECT_FALSE(orders.fields()[1].required);
  iceberg::Schema lines = NewestSchema(std::filesystem::path(warehouse) / "shop" / "lines");
  EXPECT_EQ(lines.identifier_field_ids(), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(SpecIdentifierFieldIds(std::filesystem::path(warehouse) / "shop" / "lines"), (std::vector<int32_t>{1, 2}));
  EXPECT_TRUE(lines.fields()[0].required && lines.fields()[1].required);
  EXPECT_FALSE(lines.fields()[2].required);

  // A key must name columns once each, and a table has one key.
  for (const char* bad : {"CREATE TABLE shop.a (x int, PRIMARY KEY (y))", "CREATE TABLE shop.b (x int PRIMARY KEY, y int PRIMARY KEY)",
                          "CREATE TABLE shop.c (x int PRIMARY KEY, y int, PRIMARY KEY (y))", "CREATE TABLE shop.d (x int, PRIMARY KEY (x, x))",
                          "CREATE TABLE shop.e (x double PRIMARY KEY)"}) {
    auto refused = run(bad);
    ASSERT_FALSE(refused.has_value()) << bad;
    EXPECT_EQ(refused.error().kind(), ErrorKind::kInvalidArgument) << bad << ": " << refused.error().ToString();
    EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(warehouse) / "shop" / std::string(1, bad[18]))) << bad;
  }
}

// The same statements through a catalog service (a SQLite catalog, as Iceberg's JDBC catalog
// keeps it) with a warehouse for new tables.
TEST(IcebergSqlService, CreatesWritesAndReadsThroughSqliteCatalog) {
  std::string dir = io::testing::FreshFolder();
  auto catalog = IcebergSqlCatalog::OpenService("sqlite:" + dir + "/catalog.db", "file://" + dir + "/wh");
  ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
  ASSERT_TRUE((*catalog)->CreateSchema("floe", "sales").has_value());
  EXPECT_FALSE((*catalog)->CreateSchema("floe", "sales").has_value());
  TableDefinition def;
  def.name = {"floe", "sales", "orders"};
  def.columns = OrderColumns();
  def.partition_by = {"region", "bucket(4, id)"};
  auto created = (*catalog)->CreateTable(def);
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  std::vector<ColumnBatch> batches;
  auto orders = HourOrders(0, 1, 60);
  batches.push_back(OrderBatch(orders));
  ASSERT_TRUE((*catalog)->AppendRows(def.name, std::move(batches)).has_value());
  auto tables = (*catalog)->TableNames("floe", "sales");
  ASSERT_TRUE(tables.has_value());
  EXPECT_EQ(*tables, std::vector<std::string>{"orders"});
  auto table = (*catalog)->GetTable(def.name, {});
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  EXPECT_EQ((*table)->partition_columns, std::vector<std::string>{"region"});
  // region = 'eu' prunes by the identity partition; id = 7 by the bucket transform.
  ScanPredicate predicate;
  ColumnPredicate region;
  region.column = "region";
  region.field_id = 3;
  region.op = ColumnPredicate::Op::kEq;
  region.values.push_back(Value::String(SqlType::Varchar(), "eu"));
  predicate.terms.push_back(region);
  ColumnPredicate id;
  id.column = "id";
  id.field_id = 1;
  id.op = ColumnPredicate::Op::kEq;
  id.values.push_back(Value::Int(SqlType::Bigint(), 6));
  predicate.terms.push_back(id);
  auto rows = ReadAll(**catalog, *table, {0, 2}, &predicate);
  ASSERT_TRUE(rows.has_value()) << rows.error().ToString();
  EXPECT_EQ(rows->stats.files_read, 1);
  EXPECT_GT(rows->stats.files_total, 4);
  bool found = false;
  for (const auto& row : rows->rows) found = found || (row[0] == "6" && row[1] == "eu");
  EXPECT_TRUE(found);
  // Metadata parsed for one pointer is reused only while the catalog still points there.
  std::vector<ColumnBatch> more;
  more.push_back(OrderBatch(HourOrders(1, 100, 5)));
  ASSERT_TRUE((*catalog)->AppendRows(def.name, std::move(more)).has_value());
  auto after = (*catalog)->GetTable(def.name, {});
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ((*after)->estimated_rows, 65);
  ASSERT_TRUE((*catalog)->DropTable(def.name).has_value());
  EXPECT_EQ((*catalog)->GetTable(def.name, {}).error().kind(), ErrorKind::kNotFound);
}

// PyIceberg's table leaves the identity partition column out of its data files: the values
// come from the partition tuple.
TEST(IcebergSqlCorpus, PyIcebergIdentityPartitionThroughSqliteCatalog) {
  std::string dir = io::testing::CorpusDir() + "/iceberg/partition_timestamp";
  ASSERT_TRUE(std::filesystem::exists(dir)) << "corpus not found at " << dir;
  // Work on a copy: the catalog file is a database.
  std::string copy = io::testing::FreshFolder() + "/corpus";
  std::filesystem::copy(dir, copy, std::filesystem::copy_options::recursive);
  auto catalog = IcebergSqlCatalog::OpenService("sqlite:" + copy + "/pyiceberg_catalog.db");
  ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
  auto schemas = (*catalog)->SchemaNames("floe");
  ASSERT_TRUE(schemas.has_value()) << schemas.error().ToString();
  ASSERT_FALSE(schemas->empty());
  auto tables = (*catalog)->TableNames("floe", (*schemas)[0]);
  ASSERT_TRUE(tables.has_value()) << tables.error().ToString();
  ASSERT_FALSE(tables->empty());
  auto table = (*catalog)->GetTable({"floe", (*schemas)[0], (*tables)[0]}, {});
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  int ts = -1;
  for (size_t i = 0; i < (*table)->columns.size(); ++i) {
    if ((*table)->columns[i].name == "partition_col") ts = static_cast<int>(i);
  }
  ASSERT_GE(ts, 0);
  auto rows = ReadAll(**catalog, *table, {ts});
  ASSERT_TRUE(rows.has_value()) << rows.error().ToString();
  ASSERT_FALSE(rows->rows.empty());
  for (const auto& row : rows->rows) EXPECT_NE(row[0], "NULL");
  // Pruning on the identity partition keeps only the August file.
  ScanPredicate predicate;
  ColumnPredicate term;
  term.column = "partition_col";
  term.field_id = (*table)->columns[static_cast<size_t>(ts)].field_id;
  term.op = ColumnPredicate::Op::kGtEq;
  term.values.push_back(Value::Int((*table)->columns[static_cast<size_t>(ts)].type, int64_t{1685577600} * 1000000));
  predicate.terms.push_back(term);
  auto pruned = ReadAll(**catalog, *table, {ts}, &predicate);
  ASSERT_TRUE(pruned.has_value()) << pruned.error().ToString();
  EXPECT_EQ(pruned->stats.files_read, 1);
  ASSERT_EQ(pruned->rows.size(), 1u);
  EXPECT_GE(std::stoll(pruned->rows[0][0]), int64_t{1685577600} * 1000000);
}

// Spark's lineitem by location: TPC-H Q6 over the current snapshot (the corpus README's answer).
TEST(IcebergSqlCorpus, SparkLineitemByLocation) {
  std::string dir = io::testing::CorpusDir() + "/iceberg/iceberg/lineitem_iceberg";
  ASSERT_TRUE(std::filesystem::exists(dir)) << "corpus not found at " << dir;
  IcebergSqlCatalog catalog(nullptr);
  auto table = catalog.GetTableAt(dir, {});
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  std::map<std::string, int> col;
  for (size_t i = 0; i < (*table)->columns.size(); ++i) col[(*table)->columns[i].name] = static_cast<int>(i);
  ScanRequest request;
  request.table = *table;
  request.columns = {col["l_extendedprice"], col["l_discount"], col["l_shipdate"], col["l_quantity"]};
  auto scan = catalog.OpenScan(request);
  ASSERT_TRUE(scan.has_value()) << scan.error().ToString();
  __int128 revenue = 0;  // scale 4
  int scale_price = (*table)->columns[col["l_extendedprice"]].type.scale();
  int scale_discount = (*table)->columns[col["l_discount"]].type.scale();
  ASSERT_EQ(scale_price + scale_discount, 4);
  int32_t from = 8766, to = 9131;  // 1994-01-01, 1995-01-01 (days)
  for (size_t s = 0; s < (*scan)->split_count(); ++s) {
    auto st = (*scan)->ReadSplit(s, [&](ColumnBatch& b) -> Status {
      for (int64_t r = 0; r < b.num_rows; ++r) {
        __int128 price = b.columns[0].Data<__int128>()[r], discount = b.columns[1].Data<__int128>()[r];
        int32_t ship = b.columns[2].Data<int32_t>()[r];
        __int128 qty = b.columns[3].Data<__int128>()[r];
        int qty_scale = b.columns[3].type().scale;
        __int128 q24 = 24;
        for (int i = 0; i < qty_scale; ++i) q24 *= 10;
        if (ship >= from && ship < to && discount >= 5 && discount <= 7 && qty < q24) revenue += price * discount;
      }
      return OkStatus();
    });
    ASSERT_TRUE(st.has_value()) << st.error().ToString();
  }
  EXPECT_EQ(static_cast<int64_t>(revenue), int64_t{10775369101});
}

}  // namespace
}  // namespace floe::sql::iceberg_sql
