// The floe side of bench/sql.bench.sh: runs each dashboard query against a warehouse through
// the SQL engine in this process, best of REPEAT runs (no process start-up in the time; the
// catalog pointer is re-read per query as always, file caches are warm after the first run, as
// in a query server).
//
//   sql_dashboard_bench WAREHOUSE THREADS REPEAT < QUERIES     (lines: NAME<TAB>SQL)
//
// Prints one JSON object per query: {"name","seconds","rows"}.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

#include "base/allocator.h"
#include "sql/iceberg/iceberg_sql_catalog.h"
#include "sql/sql_session.h"

int main(int argc, char** argv) {
  floe::ConfigureAllocatorForBatches(argv, floe::HugePages::kEveryThread);
  if (argc < 4) {
    std::cerr << "usage: sql_dashboard_bench WAREHOUSE THREADS REPEAT < QUERIES\n";
    return 2;
  }
  auto catalog = floe::sql::iceberg_sql::IcebergSqlCatalog::OpenWarehouse(argv[1]);
  if (!catalog) {
    std::cerr << catalog.error().ToString() << "\n";
    return 1;
  }
  floe::sql::QueryOptions options;
  options.threads = std::atoi(argv[2]);
  int repeat = std::max(1, std::atoi(argv[3]));
  floe::sql::SqlSession session(**catalog);
  std::string line;
  while (std::getline(std::cin, line)) {
    size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    std::string name = line.substr(0, tab), sql = line.substr(tab + 1);
    double best = 1e30;
    size_t rows = 0;
    for (int i = 0; i < repeat; ++i) {
      auto start = std::chrono::steady_clock::now();
      auto result = session.Run(sql, options);
      double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!result) {
        std::cerr << name << ": " << result.error().ToString() << "\n";
        return 1;
      }
      rows = result->empty() ? 0 : result->back().rows.size();
      best = std::min(best, seconds);
    }
    std::cout << "{\"name\":\"" << name << "\",\"seconds\":" << best << ",\"rows\":" << rows << "}" << std::endl;
  }
  return 0;
}
