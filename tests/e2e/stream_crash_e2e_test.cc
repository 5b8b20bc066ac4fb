// The stream job against real processes while events flow in: killed with -9 at random moments,
// run as two workers of one group on a four-partition topic, and compacting its table while it
// ingests. Afterwards every acknowledged valid event is in shop.orders exactly once (count,
// distinct ids and the ledger's event-id checksum agree) and every malformed one is in the
// dead-letter table once; readers during compaction only ever see whole snapshots.
#include <signal.h>

#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <xxhash.h>

#include "catalog/catalog_table_operations.h"
#include "catalog/open_catalog.h"
#include "iceberg/data_files.h"
#include "iceberg/scan.h"
#include "support/child_process.h"
#include "support/run_process.h"

namespace floe::testing {
namespace {

struct LedgerTotals {
  uint64_t acked_valid = 0, acked_malformed = 0, event_id_hash_sum = 0;
};

LedgerTotals ReadLedger(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  std::smatch m;
  LedgerTotals totals;
  std::regex total(
      R"re("total":\{"acked":\d+,"acked_valid":(\d+),"acked_malformed":(\d+),"failed":\d+,"value_hash_sum":"[0-9a-f]+","event_id_hash_sum":"([0-9a-f]+)")re");
  if (std::regex_search(s, m, total)) {
    totals.acked_valid = std::stoull(m[1]);
    totals.acked_malformed = std::stoull(m[2]);
    totals.event_id_hash_sum = std::stoull(m[3], nullptr, 16);
  }
  return totals;
}

// Every value of string column `column` in the table's current snapshot, and that snapshot's
// total-records when `total_records` is given.
std::vector<std::string> ReadColumn(const std::string& catalog_uri, const std::string& table_name,
                                    const std::string& column, int64_t* total_records = nullptr) {
  auto catalog = catalog::OpenCatalog({.uri = catalog_uri});
  EXPECT_TRUE(catalog) << catalog.error().ToString();
  auto ops = catalog::CatalogTableOperations::Open(std::move(*catalog), *catalog::IdentifierFromString(table_name));
  EXPECT_TRUE(ops) << ops.error().ToString();
  auto table = iceberg::Table::Load(*ops);
  EXPECT_TRUE(table) << table.error().ToString();
  auto plan = iceberg::PlanScan(**table, {});
  EXPECT_TRUE(plan) << plan.error().ToString();
  if (total_records) {
    const iceberg::Snapshot* current = (*table)->metadata().CurrentSnapshot();
    *total_records = current && current->summary.contains("total-records") ? std::stoll(current->summary.at("total-records")) : 0;
  }
  const iceberg::NestedField* field = plan->schema.FindFieldByName(column);
  EXPECT_NE(field, nullptr);
  int index = -1;
  for (size_t i = 0; i < plan->schema.fields().size(); ++i) {
    if (plan->schema.fields()[i].id == field->id) index = static_cast<int>(i);
  }
  std::vector<std::string> values;
  for (const auto& task : plan->tasks) {
    auto status = iceberg::ReadTask(**table, task, plan->schema,
                                    [&](const formats::ColumnBatch& batch, const std::vector<int>& columns) -> Status {
                                      const auto& vector = batch.columns[static_cast<size_t>(columns[index])];
                                      for (int64_t i = 0; i < batch.num_rows; ++i) {
                                        values.emplace_back(vector.StringAt(i));
                                      }
                                      return OkStatus();
                                    });
    EXPECT_TRUE(status) << status.error().ToString();
  }
  return values;
}

// Checks shop.orders and its dead letters against the producer's ledger.
void ExpectExactlyTheLedger(const std::string& catalog, const std::string& ledger) {
  LedgerTotals totals = ReadLedger(ledger);
  ASSERT_GT(totals.acked_valid, 0u);
  std::vector<std::string> ids = ReadColumn(catalog, "shop.orders", "event_id");
  std::set<std::string> distinct(ids.begin(), ids.end());
  EXPECT_EQ(ids.size(), totals.acked_valid);
  EXPECT_EQ(distinct.size(), ids.size()) << "duplicated events";
  uint64_t sum = 0;
  for (const auto& id : distinct) sum += XXH64(id.data(), id.size(), 0);
  EXPECT_EQ(sum, totals.event_id_hash_sum) << "the table holds other events than the broker acknowledged";
  EXPECT_EQ(ReadColumn(catalog, "shop.orders_dlq", "error").size(), totals.acked_malformed);
}

// A broker with a four-partition `orders` topic, the orders schema and the job's command line.
struct Pipeline {
  TempFolder dir;
  int port = FreeLoopbackPort();
  std::string brokers = "127.0.0.1:" + std::to_string(port);
  std::unique_ptr<ChildProcess> broker;
  std::string catalog = "sqlite:" + dir.path() + "/catalog.db";
  std::string ledger = dir.path() + "/ledger.json";

  Pipeline() {
    broker = std::make_unique<ChildProcess>(std::vector<std::string>{FloeBinary(), "broker", "--listen", brokers, "--data",
                                                                     dir.path() + "/broker", "--metrics-listen", ""},
                                            dir.path() + "/broker.log");
    EXPECT_TRUE(WaitForPort(port)) << broker->ReadLog();
    EXPECT_EQ(RunProcess({FloeBinary(), "topic", "create", "orders", "--partitions", "4", "--brokers", brokers}).exit_code, 0);
    std::ofstream(dir.path() + "/orders.json") << RunProcess({FloeBinary(), "produce", "--print-schema"}).out;
  }
  std::unique_ptr<ChildProcess> Produce(int count, int rate) {
    return std::make_unique<ChildProcess>(
        std::vector<std::string>{FloeBinary(), "produce", "--brokers", brokers, "--count", std::to_string(count), "--rate",
                                 std::to_string(rate), "--malformed-rate", "0.01", "--seed", "5", "--ledger", ledger},
        dir.path() + "/produce.log");
  }
  std::vector<std::string> Stream(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {FloeBinary(), "stream", "--brokers", brokers, "--topic", "orders", "--table",
                                     "shop.orders", "--catalog", catalog, "--warehouse", "file://" + dir.path() + "/wh",
                                     "--schema", dir.path() + "/orders.json", "--partition", "hour(ts)"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  void Drain() {
    auto drained = RunProcess(Stream({"--trigger", "200ms", "--max-batch-records", "2000", "--available-now",
                                      "--maintenance-interval", "0"}));
    ASSERT_EQ(drained.exit_code, 0) << drained.err;
  }
};

int CountLines(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(StreamWorkers, TwoWorkersOnFourPartitionsStillExactlyOnce) {
  Pipeline p;
  auto producer = p.Produce(10000, 4000);
  auto args = p.Stream({"--trigger", "300ms", "--max-batch-records", "1000"});
  int metrics_port = FreeLoopbackPort();
  auto first_args = args;
  first_args.insert(first_args.end(), {"--metrics-listen", "127.0.0.1:" + std::to_string(metrics_port)});
  ChildProcess first(first_args, p.dir.path() + "/first.log");
  ChildProcess second(args, p.dir.path() + "/second.log");
  ASSERT_EQ(producer->Wait(std::chrono::seconds(60)), 0) << producer->ReadLog();
  std::this_thread::sleep_for(std::chrono::seconds(4));
  // The first worker's Prometheus metrics: what it committed, its files and its lag.
  auto scraped = RunProcess({"/usr/bin/curl", "-sf", "http://127.0.0.1:" + std::to_string(metrics_port) + "/metrics"});
  EXPECT_EQ(scraped.exit_code, 0) << scraped.err;
  std::smatch committed;
  ASSERT_TRUE(std::regex_search(scraped.out, committed, std::regex(R"(floe_stream_rows_committed_total (\d+))")))
      << scraped.out;
  EXPECT_GT(std::stoll(committed[1]), 0);
  EXPECT_NE(scraped.out.find("floe_stream_files_written_total"), std::string::npos) << scraped.out;
  EXPECT_NE(scraped.out.find("floe_stream_lag{partition="), std::string::npos) << scraped.out;
  first.Stop(SIGTERM);
  second.Stop(SIGTERM);
  // Both took part: each committed batches of the partitions the group gave it.
  EXPECT_GT(CountLines(first.ReadLog(), "committed snapshot"), 0) << first.ReadLog();
  EXPECT_GT(CountLines(second.ReadLog(), "committed snapshot"), 0) << second.ReadLog();
  p.Drain();
  ExpectExactlyTheLedger(p.catalog, p.ledger);
}

// Compaction every second while small batches keep arriving, and `floe table compact` run
// against the same table by another process: a reader scanning all along only sees whole
// snapshots (each count is its snapshot's total, counts never shrink), the file count falls,
// nothing is lost or doubled.
TEST(StreamMaintenance, CompactionDuringIngestionKeepsEveryEventOnce) {
  Pipeline p;
  auto producer = p.Produce(12000, 2000);
  ChildProcess job(p.Stream({"--trigger", "200ms", "--max-batch-records", "500", "--maintenance-interval", "1s",
                             "--target-file-size-mb", "1"}),
                   p.dir.path() + "/stream.log");
  std::vector<size_t> seen;
  int cli_compactions = 0;
  while (producer->running()) {
    auto catalog = catalog::OpenCatalog({.uri = p.catalog});
    ASSERT_TRUE(catalog.has_value());
    auto exists = (*catalog)->TableExists(*catalog::IdentifierFromString("shop.orders"));
    if (!exists || !*exists) continue;
    int64_t total = -1;
    seen.push_back(ReadColumn(p.catalog, "shop.orders", "event_id", &total).size());
    EXPECT_EQ(static_cast<int64_t>(seen.back()), total) << "a reader saw a partial snapshot";
    if (seen.size() % 5 == 0) {
      // A second compactor racing the job's appends and its own maintenance: it either commits
      // or loses to a rewrite of the same files, cleanly.
      auto compact = RunProcess({FloeBinary(), "table", "compact", "shop.orders", "--catalog", p.catalog, "--target-size",
                                 std::to_string(1 << 20)});
      if (compact.exit_code == 0) {
        ++cli_compactions;
      } else {
        EXPECT_NE(compact.err.find("no longer in the table"), std::string::npos) << compact.err;
      }
    }
  }
  ASSERT_EQ(producer->Wait(std::chrono::seconds(60)), 0) << producer->ReadLog();
  std::this_thread::sleep_for(std::chrono::seconds(4));  // A few more rounds of maintenance.
  job.Stop(SIGTERM);
  std::string log = job.ReadLog();
  int commits = CountLines(log, "committed snapshot");
  EXPECT_GT(CountLines(log, "maintenance: compacted"), 0) << log;
  ASSERT_GT(seen.size(), 5u);
  EXPECT_GT(cli_compactions, 0);
  for (size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i], seen[i - 1]) << "a reader saw rows disappear";

  auto catalog = catalog::OpenCatalog({.uri = p.catalog});
  auto ops = catalog::CatalogTableOperations::Open(std::move(*catalog), *catalog::IdentifierFromString("shop.orders"));
  auto table = iceberg::Table::Load(*ops);
  auto plan = iceberg::PlanScan(**table, {});
  ASSERT_TRUE(plan.has_value());
  EXPECT_LT(plan->tasks.size() * 2, static_cast<size_t>(commits)) << "compaction should leave far fewer files than commits";
  p.Drain();
  ExpectExactlyTheLedger(p.catalog, p.ledger);
}

TEST(StreamCrash, KilledFiveTimesStillExactlyOnce) {
  Pipeline p;
  auto producer = p.Produce(12000, 3000);
  std::vector<std::string> stream = p.Stream({"--trigger", "200ms", "--max-batch-records", "1500"});
  std::mt19937 random(42);
  for (int life = 0; life < 5; ++life) {
    ChildProcess job(stream, p.dir.path() + "/stream.log");
    std::this_thread::sleep_for(std::chrono::milliseconds(400 + random() % 1200));
    EXPECT_EQ(job.Stop(SIGKILL), 128 + SIGKILL) << "life " << life << ": " << job.ReadLog();
  }
  ASSERT_EQ(producer->Wait(std::chrono::seconds(60)), 0) << producer->ReadLog();
  p.Drain();
  ExpectExactlyTheLedger(p.catalog, p.ledger);
}

}  // namespace
}  // namespace floe::testing
