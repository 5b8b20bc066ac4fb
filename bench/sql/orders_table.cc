// Writes the `shop.orders` Iceberg table (docs/orders.md) of order events from floe's own
// generator into a warehouse folder through the SQL catalog's write path (CREATE TABLE, then
// one AppendRows commit per slice of time, as a stream job would): the data set of
// bench/sql.bench.sh and of the DuckDB differential tests.
//
//   sql_orders_table WAREHOUSE|sqlite:PATH EVENTS COMMITS [HOURS] [SEED]
//
// Events are spread evenly over HOURS hours from 2025-01-01 00:00 UTC (the table is
// partitioned by hour(ts)).
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "base/clock.h"
#include "generator/order_event_generator.h"
#include "sql/iceberg/iceberg_sql_catalog.h"
#include "sql/iceberg/iceberg_types.h"

namespace {

using floe::formats::ColumnBatch;
using floe::sql::SqlType;
using floe::sql::TableColumn;

std::vector<TableColumn> OrderColumns() {
  return {{"event_id", SqlType::Varchar(), false}, {"ts", SqlType::TimestampTz(), false},
          {"type", SqlType::Varchar(), false},     {"order_id", SqlType::Bigint(), false},
          {"customer_id", SqlType::Bigint(), false}, {"region", SqlType::Varchar(), false},
          {"items", SqlType::Integer(), false},    {"amount", SqlType::Double(), false},
          {"currency", SqlType::Varchar(), false}, {"coupon", SqlType::Varchar(), true}};
}

int Run(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: sql_orders_table WAREHOUSE EVENTS COMMITS [HOURS] [SEED]\n";
    return 2;
  }
  std::string warehouse = argv[1];
  int64_t events = std::atoll(argv[2]);
  int64_t commits = std::max<int64_t>(1, std::atoll(argv[3]));
  int64_t hours = argc > 4 ? std::atoll(argv[4]) : 24;
  uint64_t seed = argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 1;
  auto start = std::chrono::steady_clock::now();
  // A catalog service URI puts the table's files under a "warehouse" folder beside it.
  bool service = warehouse.starts_with("sqlite:");
  auto catalog = service ? floe::sql::iceberg_sql::IcebergSqlCatalog::OpenService(
                               warehouse, "file://" + std::filesystem::absolute(warehouse.substr(7)).parent_path().string() + "/warehouse")
                         : floe::sql::iceberg_sql::IcebergSqlCatalog::OpenWarehouse(warehouse);
  if (!catalog) {
    std::cerr << catalog.error().ToString() << "\n";
    return 1;
  }
  floe::sql::QualifiedTableName name{"floe", "shop", "orders"};
  (void)(*catalog)->CreateSchema("floe", "shop");
  floe::sql::TableDefinition def;
  def.name = name;
  def.columns = OrderColumns();
  def.partition_by = {"hour(ts)"};
  if (auto st = (*catalog)->CreateTable(def); !st) {
    std::cerr << st.error().ToString() << "\n";
    return 1;
  }
  std::vector<floe::formats::Field> fields;
  for (const TableColumn& c : def.columns) {
    fields.push_back({c.name, -1, c.nullable, floe::sql::iceberg_sql::BatchTypeFor(c.type)});
  }
  const int64_t kStartMs = int64_t{1735689600} * 1000;
  floe::ManualClock clock(kStartMs);
  floe::generator::GeneratorOptions options;
  options.seed = seed;
  floe::generator::OrderEventGenerator generator(options, clock);
  double step_ms = static_cast<double>(hours) * 3'600'000.0 / static_cast<double>(std::max<int64_t>(events, 1));
  double carry = 0;
  int64_t done = 0;
  for (int64_t c = 0; c < commits; ++c) {
    int64_t n = events * (c + 1) / commits - done;
    ColumnBatch b = floe::formats::MakeEmptyBatch(fields);
    for (int64_t i = 0; i < n; ++i) {
      floe::generator::OrderEvent e = generator.NextEvent();
      b.columns[0].AppendString(e.event_id);
      b.columns[1].Append<int64_t>(e.ts_millis * 1000);
      b.columns[2].AppendString(floe::generator::OrderEventTypeName(e.type));
      b.columns[3].Append<int64_t>(e.order_id);
      b.columns[4].Append<int64_t>(e.customer_id);
      b.columns[5].AppendString(e.region);
      b.columns[6].Append<int32_t>(e.items);
      b.columns[7].Append<double>(e.amount);
      b.columns[8].AppendString(e.currency);
      if (e.coupon) {
        b.columns[9].AppendString(*e.coupon);
      } else {
        b.columns[9].AppendNull();
      }
      carry += step_ms;
      auto whole = static_cast<int64_t>(carry);
      carry -= static_cast<double>(whole);
      clock.AdvanceMillis(whole);
    }
    b.num_rows = n;
    done += n;
    std::vector<ColumnBatch> batches;
    batches.push_back(std::move(b));
    auto written = (*catalog)->AppendRows(name, std::move(batches));
    if (!written) {
      std::cerr << written.error().ToString() << "\n";
      return 1;
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "{\"events\":" << done << ",\"commits\":" << commits << ",\"seconds\":" << seconds << "}\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
