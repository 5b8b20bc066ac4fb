// The floe side of bench/sql.bench.sh and bench/tpch.bench.sh: runs each query against a
// warehouse through the SQL engine in this process, best of REPEAT runs (no process start-up in
// the time; the catalog pointer is re-read per query as always, file caches are warm after the
// first run, as in a query server). The first run's time is reported as the cold one.
//
//   sql_dashboard_bench WAREHOUSE THREADS REPEAT [SCHEMA] < QUERIES     (lines: NAME<TAB>SQL)
//
// Prints one JSON object per query: {"name","seconds","cold","cpu","rows"}; cpu is the process's
// user + system seconds during the best run (all worker threads).
// FLOE_BENCH_TIME_LIMIT_S and FLOE_BENCH_MEMORY_MB set each query's time and memory limits.
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

#include "base/allocator.h"
#include "sql/iceberg/iceberg_sql_catalog.h"
#include "sql/sql_session.h"

namespace {

double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

}  // namespace

int main(int argc, char** argv) {
  floe::ConfigureAllocatorForBatches(argv, floe::HugePages::kEveryThread);
  if (argc < 4) {
    std::cerr << "usage: sql_dashboard_bench WAREHOUSE THREADS REPEAT [SCHEMA] < QUERIES\n";
    return 2;
  }
  auto catalog = floe::sql::iceberg_sql::IcebergSqlCatalog::OpenWarehouse(argv[1]);
  if (!catalog) {
    std::cerr << catalog.error().ToString() << "\n";
    return 1;
  }
  floe::sql::QueryOptions options;
  options.threads = std::atoi(argv[2]);
  // FLOE_BENCH_TIME_LIMIT_S bounds each run (a query past it is reported as failed).
  if (const char* limit = std::getenv("FLOE_BENCH_TIME_LIMIT_S")) options.time_limit = std::chrono::seconds(std::atoi(limit));
  // FLOE_BENCH_MEMORY_MB sets the per-query memory limit (default 1 GiB, as floe sql).
  if (const char* memory = std::getenv("FLOE_BENCH_MEMORY_MB")) options.memory_limit_bytes = int64_t{std::atoi(memory)} << 20;
  int repeat = std::max(1, std::atoi(argv[3]));
  floe::sql::BindOptions bind;
  if (argc > 4) bind.schema = argv[4];
  floe::sql::SqlSession session(**catalog, bind);
  std::string line;
  int status = 0;
  while (std::getline(std::cin, line)) {
    size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    std::string name = line.substr(0, tab), sql = line.substr(tab + 1);
    double best = 1e30, cold = 0, cpu = 0;
    size_t rows = 0;
    bool failed = false;
    for (int i = 0; i < repeat; ++i) {
      double cpu_start = CpuSeconds();
      auto start = std::chrono::steady_clock::now();
      auto result = session.Run(sql, options);
      double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      double cpu_used = CpuSeconds() - cpu_start;
      if (!result) {
        // The other queries still run; the exit status says one failed.
        std::cerr << name << ": " << result.error().ToString() << "\n";
        failed = true;
        break;
      }
      rows = result->empty() ? 0 : result->back().rows.size();
      if (i == 0) cold = seconds;
      if (seconds < best) {
        best = seconds;
        cpu = cpu_used;
      }
    }
    if (failed) {
      status = 1;
      continue;
    }
    std::cout << "{\"name\":\"" << name << "\",\"seconds\":" << best << ",\"cold\":" << cold << ",\"cpu\":" << cpu
              << ",\"rows\":" << rows << "}" << std::endl;
  }
  return status;
}
