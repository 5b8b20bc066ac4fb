// Storage-side costs of the SQL engine over shop.orders (written by sql_orders_table), without
// the executor: resolving a table (the per-query catalog pointer check), planning a selective
// scan (manifest and file pruning, caches warm), and reading one column of every split on one
// thread.
//
//   sql_scan_bench WAREHOUSE|CATALOG-URI [google-benchmark flags]
#include <benchmark/benchmark.h>

#include <iostream>

#include "base/allocator.h"
#include "sql/iceberg/iceberg_sql_catalog.h"
#include "sql/catalog/table_scan.h"

namespace {

using floe::sql::ColumnPredicate;
using floe::sql::QualifiedTableName;
using floe::sql::ScanPredicate;
using floe::sql::ScanRequest;
using floe::sql::SqlType;
using floe::sql::Value;

std::unique_ptr<floe::sql::iceberg_sql::IcebergSqlCatalog> catalog;
const QualifiedTableName kOrders{"floe", "shop", "orders"};

int Column(const floe::sql::CatalogTable& t, const std::string& name) {
  for (size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

void GetTable(benchmark::State& state) {
  for (auto _ : state) {
    auto t = catalog->GetTable(kOrders, {});
    if (!t) state.SkipWithError(t.error().ToString().c_str());
    benchmark::DoNotOptimize(t);
  }
}

void PlanLastHour(benchmark::State& state) {
  auto t = catalog->GetTable(kOrders, {});
  ScanPredicate predicate;
  ColumnPredicate term;
  term.column = "ts";
  term.field_id = (*t)->columns[Column(**t, "ts")].field_id;
  term.op = ColumnPredicate::Op::kGtEq;
  term.values.push_back(Value::Int(SqlType::TimestampTz(), (int64_t{1735689600} + 23 * 3600) * 1000000));
  predicate.terms.push_back(term);
  ScanRequest request;
  request.table = *t;
  request.columns = {Column(**t, "ts")};
  request.predicate = &predicate;
  size_t splits = 0;
  for (auto _ : state) {
    auto scan = catalog->OpenScan(request);
    if (!scan) state.SkipWithError(scan.error().ToString().c_str());
    splits = (*scan)->split_count();
  }
  state.counters["splits"] = static_cast<double>(splits);
}

void ReadColumn(benchmark::State& state, const std::string& column) {
  auto t = catalog->GetTable(kOrders, {});
  ScanRequest request;
  request.table = *t;
  request.columns = {Column(**t, column)};
  int64_t rows = 0;
  for (auto _ : state) {
    auto scan = catalog->OpenScan(request);
    rows = 0;
    for (size_t s = 0; s < (*scan)->split_count(); ++s) {
      auto st = (*scan)->ReadSplit(s, [&](floe::formats::ColumnBatch& b) -> floe::Status {
        rows += b.num_rows;
        return floe::OkStatus();
      });
      if (!st) state.SkipWithError(st.error().ToString().c_str());
    }
  }
  state.counters["rows/s"] = benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

int main(int argc, char** argv) {
  floe::ConfigureAllocatorForBatches(argv, floe::HugePages::kEveryThread);
  if (argc < 2) {
    std::cerr << "usage: sql_scan_bench WAREHOUSE [benchmark flags]\n";
    return 2;
  }
  std::string where = argv[1];
  auto opened = where.starts_with("sqlite:") || where.starts_with("postgresql:") || where.starts_with("http")
                    ? floe::sql::iceberg_sql::IcebergSqlCatalog::OpenService(where)
                    : floe::sql::iceberg_sql::IcebergSqlCatalog::OpenWarehouse(where);
  if (!opened) {
    std::cerr << opened.error().ToString() << "\n";
    return 1;
  }
  catalog = std::move(*opened);
  benchmark::RegisterBenchmark("get_table", GetTable)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("plan_last_hour", PlanLastHour)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("read_amount", ReadColumn, std::string("amount"))->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("read_ts", ReadColumn, std::string("ts"))->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("read_region", ReadColumn, std::string("region"))->Unit(benchmark::kMillisecond);
  argv[1] = argv[0];
  int n = argc - 1;
  benchmark::Initialize(&n, argv + 1);
  benchmark::RunSpecifiedBenchmarks();
  catalog.reset();
  return 0;
}
