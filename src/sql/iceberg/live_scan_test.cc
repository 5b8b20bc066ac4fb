// Fresh reads against real processes: floe's broker, `floe produce` and `floe stream` (the
// Kafka protocol through librdkafka, the SQLite catalog, local storage), queried in-process
// through the engine. A live query counts every acknowledged valid event exactly once, whether
// it is still in the log or committed; it never goes backwards or past what the broker
// acknowledged while a stream job commits and is killed; snapshot reads, time travel, an
// unreachable broker and the memory bound behave as documented.
#include <unistd.h>

#include <fstream>
#include <map>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/logging.h"
#include "serve/query_server.h"
#include "sql/iceberg/iceberg_sql_catalog.h"
#include "sql/iceberg/log_tail.h"
#include "sql/sql_session.h"
#include "support/child_process.h"
#include "support/run_process.h"

namespace floe::sql::iceberg_sql {
namespace {

using floe::testing::ChildProcess;
using floe::testing::FloeBinary;
using floe::testing::RunProcess;

class LiveScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    (void)InitLogging({.level = "warn"});
    broker_port_ = floe::testing::FreeLoopbackPort();
    brokers_ = "127.0.0.1:" + std::to_string(broker_port_);
    StartBroker();
    auto created = RunProcess({FloeBinary(), "topic", "create", "orders", "--partitions", "3", "--brokers", brokers_});
    ASSERT_EQ(created.exit_code, 0) << created.err;
    auto schema = RunProcess({FloeBinary(), "produce", "--print-schema"});
    ASSERT_EQ(schema.exit_code, 0) << schema.err;
    std::ofstream(dir_.path() + "/orders.schema.json") << schema.out;
  }

  void StartBroker() {
    broker_ = std::make_unique<ChildProcess>(
        std::vector<std::string>{FloeBinary(), "broker", "--listen", brokers_, "--data", dir_.path() + "/broker",
                                 "--metrics-listen", ""},
        dir_.path() + "/broker.log");
    ASSERT_TRUE(floe::testing::WaitForPort(broker_port_)) << broker_->ReadLog();
  }

  // Produces `count` events (a few malformed); returns how many valid ones the broker acknowledged.
  int64_t Produce(int count, int seed, const std::string& rate = "0") {
    std::string ledger = dir_.path() + "/ledger" + std::to_string(seed) + ".json";
    auto produced = RunProcess({FloeBinary(), "produce", "--brokers", brokers_, "--topic", "orders", "--count",
                                std::to_string(count), "--rate", rate, "--malformed-rate", "0.05", "--seed",
                                std::to_string(seed), "--ledger", ledger});
    EXPECT_EQ(produced.exit_code, 0) << produced.err;
    std::ifstream in(ledger);
    auto json = nlohmann::json::parse(in);
    return json["total"]["acked_valid"].get<int64_t>();
  }

  std::vector<std::string> StreamArgs() {
    return {FloeBinary(), "stream", "--brokers", brokers_, "--topic", "orders", "--table", "shop.orders",
            "--catalog", "sqlite:" + dir_.path() + "/catalog.db", "--warehouse", "file://" + dir_.path() + "/wh",
            "--schema", dir_.path() + "/orders.schema.json", "--partition", "hour(ts)"};
  }

  void StreamAvailableNow() {
    auto args = StreamArgs();
    args.insert(args.end(), {"--trigger", "200ms", "--max-batch-records", "400", "--available-now"});
    auto streamed = RunProcess(args);
    ASSERT_EQ(streamed.exit_code, 0) << streamed.err;
  }

  std::unique_ptr<IcebergSqlCatalog> OpenCatalog() {
    auto catalog = IcebergSqlCatalog::OpenService("sqlite:" + dir_.path() + "/catalog.db", "file://" + dir_.path() + "/wh");
    EXPECT_TRUE(catalog.has_value()) << catalog.error().ToString();
    return std::move(*catalog);
  }

  static StatementResult Query(SqlCatalog& catalog, const std::string& sql, QueryOptions options = {}) {
    SqlSession session(static_cast<const SqlCatalog&>(catalog));
    auto results = session.Run(sql, options);
    EXPECT_TRUE(results.has_value()) << sql << ": " << results.error().ToString();
    if (!results || results->empty()) return {};
    return std::move(results->back());
  }

  static int64_t Count(SqlCatalog& catalog, Freshness freshness, std::vector<std::string>* warnings = nullptr,
                       int64_t max_bytes = int64_t{256} << 20) {
    StatementResult r = Query(catalog, "SELECT count(*) FROM floe.shop.orders",
                              {.freshness = freshness, .live_tail_max_bytes = max_bytes});
    if (warnings != nullptr) *warnings = r.warnings;
    return r.rows.empty() ? -1 : r.rows[0][0].as_int();
  }

  // floe's query server over `catalog`, for psql (Debian's client, nobody's code here).
  static std::unique_ptr<serve::QueryServer> StartQueryServer(SqlCatalog& catalog) {
    serve::QueryServerOptions options;
    options.http_port = 0;
    options.pg_port = 0;
    auto server = std::make_unique<serve::QueryServer>(catalog, options);
    EXPECT_TRUE(server->Start().has_value());
    return server;
  }
  static floe::testing::ProcessOutput Psql(uint16_t port, const std::string& sql) {
    return RunProcess({"/usr/bin/psql", "-X", "-A", "-t", "-h", "127.0.0.1", "-p", std::to_string(port), "-U", "tester",
                       "-d", "floe", "-c", sql},
                      {"PGCONNECT_TIMEOUT=10"});
  }

  floe::testing::TempFolder dir_;
  int broker_port_ = 0;
  std::string brokers_;
  std::unique_ptr<ChildProcess> broker_;
};

TEST_F(LiveScanTest, CountsEachAcknowledgedEventOnceBeforeAndAfterItsCommit) {
  int64_t first = Produce(600, 1);
  StreamAvailableNow();
  int64_t second = Produce(450, 2);
  auto catalog = OpenCatalog();

  std::vector<std::string> warnings;
  EXPECT_EQ(Count(*catalog, Freshness::kSnapshot), first);
  EXPECT_EQ(Count(*catalog, Freshness::kLive, &warnings), first + second);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  // The same through PostgreSQL's wire protocol, as psql sees it.
  if (access("/usr/bin/psql", X_OK) == 0) {
    auto server = StartQueryServer(*catalog);
    auto live_psql = Psql(server->pg_port(), "SELECT count(*) FROM shop.orders");
    EXPECT_EQ(live_psql.out, std::to_string(first + second) + "\n") << live_psql.err;
    auto snapshot_psql = Psql(server->pg_port(), "SET freshness = 'snapshot'; SELECT count(*) FROM shop.orders");
    EXPECT_EQ(snapshot_psql.out, "SET\n" + std::to_string(first) + "\n") << snapshot_psql.err;
    server->Stop();
  }

  // Filters, projections and aggregates see the tail's rows as table rows.
  const std::string by_type =
      "SELECT type, count(*), count(DISTINCT event_id), round(sum(amount), 2) FROM floe.shop.orders WHERE items >= 1 "
      "GROUP BY type ORDER BY type";
  StatementResult live = Query(*catalog, by_type);
  EXPECT_EQ(Query(*catalog, "SELECT count(DISTINCT event_id) FROM floe.shop.orders").rows[0][0].as_int(),
            first + second);

  // The tail's rows are in no data file yet: their metadata columns are null.
  StatementResult files =
      Query(*catalog,
            "SELECT count(*) FILTER (WHERE \"$path\" IS NULL), count(*) FILTER (WHERE _pos IS NULL), "
            "count(DISTINCT _file) FROM floe.shop.orders");
  ASSERT_EQ(files.rows.size(), 1u);
  EXPECT_EQ(files.rows[0][0].as_int(), second);
  EXPECT_EQ(files.rows[0][1].as_int(), second);
  EXPECT_GE(files.rows[0][2].as_int(), 1);

  // EXPLAIN names the tail's partitions and offset ranges.
  StatementResult plan = Query(*catalog, "EXPLAIN SELECT count(*) FROM floe.shop.orders");
  ASSERT_FALSE(plan.rows.empty());
  std::string text = plan.rows[0][0].ToText();
  EXPECT_NE(text.find("live: log tail of topic 'orders' p"), std::string::npos) << text;

  // Time travel reads the snapshot it names, never the tail.
  StatementResult snapshot = Query(*catalog, "SELECT snapshot_id FROM floe.shop.\"orders$snapshots\" ORDER BY committed_at DESC, snapshot_id LIMIT 1");
  ASSERT_FALSE(snapshot.rows.empty());
  EXPECT_EQ(Query(*catalog, "SELECT count(*) FROM floe.shop.orders FOR VERSION AS OF " + snapshot.rows[0][0].ToText())
                .rows[0][0]
                .as_int(),
            first);

  // After the commit the same rows come from the table: nothing doubles, nothing changes.
  StreamAvailableNow();
  EXPECT_EQ(Count(*catalog, Freshness::kSnapshot), first + second);
  EXPECT_EQ(Count(*catalog, Freshness::kLive), first + second);
  StatementResult committed = Query(*catalog, by_type, {.freshness = Freshness::kSnapshot});
  ASSERT_EQ(live.rows.size(), committed.rows.size());
  for (size_t r = 0; r < live.rows.size(); ++r) {
    for (size_t c = 0; c < live.rows[r].size(); ++c) {
      EXPECT_EQ(live.rows[r][c].ToText(), committed.rows[r][c].ToText()) << "row " << r << " column " << c;
    }
  }
  text = Query(*catalog, "EXPLAIN SELECT count(*) FROM floe.shop.orders").rows[0][0].ToText();
  EXPECT_NE(text.find("has no records past the snapshot"), std::string::npos) << text;
}

TEST_F(LiveScanTest, FallsBackToTheSnapshotWithAWarning) {
  int64_t first = Produce(300, 3);
  StreamAvailableNow();
  int64_t second = Produce(300, 4);
  auto catalog = OpenCatalog();

  // Past the memory bound.
  std::vector<std::string> warnings;
  EXPECT_EQ(Count(*catalog, Freshness::kLive, &warnings, 1024), first);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("live_tail_max_bytes"), std::string::npos) << warnings[0];
  EXPECT_EQ(Count(*catalog, Freshness::kLive, &warnings), first + second);
  EXPECT_TRUE(warnings.empty());

  // The broker is gone: the committed rows still answer.
  ASSERT_EQ(broker_->Stop(SIGKILL), 128 + SIGKILL);
  EXPECT_EQ(Count(*catalog, Freshness::kLive, &warnings), first);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("read the committed snapshot only"), std::string::npos) << warnings[0];

  // psql sees the fallback as a WARNING and still gets the committed rows; SET checks its values.
  if (access("/usr/bin/psql", X_OK) == 0) {
    auto server = StartQueryServer(*catalog);
    auto psql = [&](const std::string& sql) { return Psql(server->pg_port(), sql); };
    auto fallback = psql("SELECT count(*) FROM shop.orders");
    EXPECT_EQ(fallback.exit_code, 0) << fallback.err;
    EXPECT_EQ(fallback.out, std::to_string(first) + "\n");
    EXPECT_NE(fallback.err.find("WARNING:  floe.shop.orders: read the committed snapshot only"), std::string::npos)
        << fallback.err;
    auto bad = psql("SET freshness = 'recent'");
    EXPECT_NE(bad.exit_code, 0);
    EXPECT_NE(bad.err.find("'live' or 'snapshot'"), std::string::npos) << bad.err;
    auto snapshot = psql("SET freshness = 'snapshot'; SELECT count(*) FROM shop.orders");
    EXPECT_EQ(snapshot.exit_code, 0) << snapshot.err;
    EXPECT_EQ(snapshot.err.find("WARNING"), std::string::npos) << snapshot.err;
    server->Stop();
  }

  // And the tail is back once the broker is (its clients reconnect with a backoff).
  StartBroker();
  int64_t count = 0;
  for (int attempt = 0; attempt < 20 && count != first + second; ++attempt) {
    count = Count(*catalog, Freshness::kLive, &warnings);
    if (count != first + second) std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  EXPECT_EQ(count, first + second);
}

// A job with a --transform: the tail goes through the same SQL, so live rows before the commit
// are the table's rows after it, and rows the transform rejects are dead letters, not rows.
TEST_F(LiveScanTest, TheJobsTransformShapesTheTailToo) {
  const std::string transform =
      "SELECT event_id, ts, upper(region) AS region, CAST(substr(event_id, 1, 1) AS integer) AS lead, amount * 100 AS cents "
      "FROM events WHERE type <> 'cancelled'";
  auto stream = [&] {
    std::vector<std::string> args = {FloeBinary(), "stream", "--brokers", brokers_, "--topic", "orders", "--table",
                                     "shop.paid", "--catalog", "sqlite:" + dir_.path() + "/catalog.db", "--warehouse",
                                     "file://" + dir_.path() + "/wh", "--schema", dir_.path() + "/orders.schema.json",
                                     "--partition", "day(ts)", "--transform", transform, "--trigger", "200ms",
                                     "--max-batch-records", "400", "--available-now"};
    auto streamed = RunProcess(args);
    ASSERT_EQ(streamed.exit_code, 0) << streamed.err;
  };
  Produce(500, 6);
  stream();
  Produce(400, 7);
  auto catalog = OpenCatalog();
  const std::string shape =
      "SELECT count(*), count(DISTINCT event_id), min(lead), max(lead), round(sum(cents), 0), "
      "count(*) FILTER (WHERE region <> upper(region)) FROM floe.shop.paid";
  StatementResult snapshot_before = Query(*catalog, shape, {.freshness = Freshness::kSnapshot});
  StatementResult live = Query(*catalog, shape);
  ASSERT_FALSE(live.rows.empty());
  EXPECT_TRUE(live.warnings.empty()) << live.warnings.front();
  EXPECT_GT(live.rows[0][0].as_int(), snapshot_before.rows[0][0].as_int());
  EXPECT_EQ(live.rows[0][2].as_int(), 0);  // Only event ids starting with a digit made rows.
  EXPECT_EQ(live.rows[0][3].as_int(), 9);
  EXPECT_EQ(live.rows[0][5].as_int(), 0);
  stream();
  StatementResult committed = Query(*catalog, shape, {.freshness = Freshness::kSnapshot});
  for (size_t c = 0; c < live.rows[0].size(); ++c) {
    EXPECT_EQ(live.rows[0][c].ToText(), committed.rows[0][c].ToText()) << "column " << c;
  }
  // The ids starting with a-f failed the cast: dead letters with the transform's reason.
  StatementResult dead =
      Query(*catalog, "SELECT count(*) FROM floe.shop.paid_dlq WHERE error LIKE 'transform: %'", {.freshness = Freshness::kSnapshot});
  EXPECT_GT(dead.rows[0][0].as_int(), 0);
  StatementResult recorded =
      Query(*catalog, "SELECT value FROM floe.shop.\"paid$properties\" WHERE key = 'floe.source.transform'");
  ASSERT_EQ(recorded.rows.size(), 1u);
  EXPECT_EQ(recorded.rows[0][0].ToText(), transform);
}

// --evolve: events with new top-level keys add optional columns (a schema change before the
// batch); older rows read null there; live reads decode the tail with the evolved schema.
TEST_F(LiveScanTest, EvolveAddsColumnsForNewEventFields) {
  int64_t first = Produce(200, 8);
  auto args = StreamArgs();
  args.insert(args.end(), {"--trigger", "200ms", "--available-now", "--evolve"});
  auto streamed = RunProcess(args);
  ASSERT_EQ(streamed.exit_code, 0) << streamed.err;
  // Events with two new fields, sent as any producer would (kcat).
  std::string lines;
  for (int i = 0; i < 30; ++i) {
    lines += fmt::format(R"({{"event_id":"evolved-{}","ts":1767322800000,"type":"created","order_id":{},"customer_id":7,)"
                         R"("region":"eu","items":1,"amount":2.5,"currency":"EUR","channel":"app","score":{}}})",
                         i, i, i);
    lines += "\n";
  }
  std::ofstream(dir_.path() + "/evolved.jsonl") << lines;
  auto sent = RunProcess({"/bin/sh", "-c", "kcat -P -b " + brokers_ + " -t orders -p 0 < " + dir_.path() + "/evolved.jsonl"});
  ASSERT_EQ(sent.exit_code, 0) << sent.err;
  auto catalog = OpenCatalog();
  streamed = RunProcess(args);
  ASSERT_EQ(streamed.exit_code, 0) << streamed.err;
  StatementResult r = Query(*catalog,
                            "SELECT count(*), count(channel), min(score), max(score), count(*) FILTER (WHERE channel = 'app') "
                            "FROM floe.shop.orders",
                            {.freshness = Freshness::kSnapshot});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0][0].as_int(), first + 30);
  EXPECT_EQ(r.rows[0][1].as_int(), 30);
  EXPECT_EQ(r.rows[0][2].as_int(), 0);
  EXPECT_EQ(r.rows[0][3].as_int(), 29);
  // The tail decodes into the evolved schema too.
  sent = RunProcess({"/bin/sh", "-c", "kcat -P -b " + brokers_ + " -t orders -p 1 < " + dir_.path() + "/evolved.jsonl"});
  ASSERT_EQ(sent.exit_code, 0) << sent.err;
  r = Query(*catalog, "SELECT count(*), count(channel) FROM floe.shop.orders");
  EXPECT_EQ(r.rows[0][0].as_int(), first + 60);
  EXPECT_EQ(r.rows[0][1].as_int(), 60);
}

// While events arrive and a stream job commits (and is killed and restarted), repeated live
// counts never go backwards and never pass what the broker acknowledged.
TEST_F(LiveScanTest, LiveCountsOnlyGrowThroughCommitsAndCrashes) {
  StreamAvailableNow();  // Creates the table.
  auto catalog = OpenCatalog();
  auto args = StreamArgs();
  args.insert(args.end(), {"--trigger", "500ms", "--max-batch-records", "500"});
  std::atomic<bool> producing{true};
  int64_t produced_valid = 0;
  std::thread producer([&] {
    produced_valid = Produce(8000, 5, "1000");
    producing = false;
  });
  auto job = std::make_unique<ChildProcess>(args, dir_.path() + "/stream.log");
  auto tail = LogTail::Open({.brokers = brokers_, .topic = "orders"}, {});
  ASSERT_TRUE(tail.has_value()) << tail.error().ToString();
  auto acknowledged = [&] {
    auto marks = (*tail)->Watermarks(std::chrono::seconds(10));
    EXPECT_TRUE(marks.has_value()) << marks.error().ToString();
    int64_t sum = 0;
    for (const auto& [partition, w] : marks.value_or(std::map<int32_t, PartitionWatermarks>{})) sum += w.high;
    return sum;
  };
  int64_t last = 0;
  int queries = 0, kills = 0;
  std::set<int64_t> committed_counts;
  auto started = std::chrono::steady_clock::now();
  auto last_kill = started;
  // Until the producer is done, three crashes have happened and the job has committed several
  // times in between (bounded, so a stuck job fails instead of hanging).
  while ((producing || kills < 3 || committed_counts.size() < 4) &&
         std::chrono::steady_clock::now() - started < std::chrono::minutes(3)) {
    std::vector<std::string> warnings;
    int64_t count = Count(*catalog, Freshness::kLive, &warnings);
    int64_t limit = acknowledged();
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    EXPECT_GE(count, last) << "a live count went backwards after " << queries << " queries";
    EXPECT_LE(count, limit) << "more rows than acknowledged records";
    last = count;
    ++queries;
    committed_counts.insert(Count(*catalog, Freshness::kSnapshot));
    if (kills < 3 && std::chrono::steady_clock::now() - last_kill > std::chrono::seconds(3)) {
      job->Stop(SIGKILL);
      ++kills;
      last_kill = std::chrono::steady_clock::now();
      job = std::make_unique<ChildProcess>(args, dir_.path() + "/stream.log");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  producer.join();
  job->Stop(SIGKILL);
  EXPECT_EQ(kills, 3);
  EXPECT_GE(committed_counts.size(), 4u) << "the job committed too rarely to cross commit boundaries";
  EXPECT_EQ(Count(*catalog, Freshness::kLive), produced_valid);
  StreamAvailableNow();
  EXPECT_EQ(Count(*catalog, Freshness::kSnapshot), produced_valid);
  EXPECT_EQ(Count(*catalog, Freshness::kLive), produced_valid);
}

// A keyed table (`floe stream --mode upsert`): the live tail replaces and deletes the snapshot's
// rows by key as the job's next commit will. Records produced by kcat (librdkafka), keyed so
// each key stays in one partition: updates, tombstones, a delete then a re-insert, an update
// then a delete, a delete of a key never seen, a malformed record; '' and NULL kept apart.
TEST_F(LiveScanTest, AKeyedTablesTailReplacesAndDeletesRowsByKey) {
  if (access("/usr/bin/kcat", X_OK) != 0) GTEST_SKIP() << "kcat is not installed (make deps installs it)";
  auto created = RunProcess({FloeBinary(), "topic", "create", "state", "--partitions", "3", "--brokers", brokers_});
  ASSERT_EQ(created.exit_code, 0) << created.err;
  std::ofstream(dir_.path() + "/state.schema.json")
      << R"({"type": "struct", "schema-id": 0, "fields": [)"
         R"({"id": 1, "name": "id", "required": true, "type": "long"},)"
         R"({"id": 2, "name": "status", "required": false, "type": "string"},)"
         R"({"id": 3, "name": "amount", "required": false, "type": "double"},)"
         R"({"id": 4, "name": "note", "required": false, "type": "string"}]})";
  // What the table should hold: id -> "status|amount|note" as floe prints them.
  std::map<int64_t, std::string> expected;
  std::string lines;
  auto put = [&](int64_t id, const std::string& status, double amount, bool empty_note) {
    // Keys as the bare value or as a JSON object, both of which a tombstone may use.
    std::string key = id % 2 == 0 ? std::to_string(id) : fmt::format(R"({{"id":{}}})", id);
    lines += fmt::format(R"({}|{{"id":{},"status":"{}","amount":{}{}}})", key, id, status, amount,
                         empty_note ? R"(,"note":"")" : "") + "\n";
    expected[id] = fmt::format("{}|{}|{}", status, Value::Double(SqlType::Double(), amount).ToText(), empty_note ? "" : "NULL");
  };
  auto tombstone = [&](int64_t id) {
    lines += fmt::format("{}|\n", id % 2 == 0 ? std::to_string(id) : fmt::format(R"({{"id":{}}})", id));
    expected.erase(id);
  };
  auto produce = [&] {
    std::ofstream(dir_.path() + "/records.txt") << lines;
    lines.clear();
    auto produced = RunProcess({"/usr/bin/kcat", "-P", "-b", brokers_, "-t", "state", "-K", "|", "-Z", "-l",
                                dir_.path() + "/records.txt"});
    ASSERT_EQ(produced.exit_code, 0) << produced.err;
  };
  auto stream = [&] {
    auto streamed = RunProcess({FloeBinary(), "stream", "--brokers", brokers_, "--topic", "state", "--table",
                                "shop.state", "--catalog", "sqlite:" + dir_.path() + "/catalog.db", "--warehouse",
                                "file://" + dir_.path() + "/wh", "--schema", dir_.path() + "/state.schema.json",
                                "--mode", "upsert", "--key", "id", "--trigger", "200ms", "--available-now"});
    ASSERT_EQ(streamed.exit_code, 0) << streamed.err;
  };
  for (int64_t id = 1; id <= 60; ++id) put(id, "created", id * 1.5, id % 3 == 0);
  produce();
  stream();
  const std::map<int64_t, std::string> committed = expected;

  for (int64_t id = 1; id <= 20; ++id) put(id, "paid", id * 2.25, id % 4 == 0);
  for (int64_t id = 21; id <= 30; ++id) tombstone(id);
  tombstone(31);
  put(31, "reborn", 31, false);
  put(40, "paid", 40, false);
  tombstone(40);
  tombstone(999);
  for (int64_t id = 61; id <= 70; ++id) put(id, "created", id * 0.5, false);
  lines += "62|{not json\n";  // A dead letter: the job skips it, so does the tail.
  produce();

  auto catalog = OpenCatalog();
  auto rows_of = [&](Freshness freshness) {
    StatementResult r = Query(*catalog, "SELECT id, status, amount, note FROM floe.shop.state ORDER BY id",
                              {.freshness = freshness});
    EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
    std::map<int64_t, std::string> out;
    for (const auto& row : r.rows) {
      out[row[0].as_int()] = fmt::format("{}|{}|{}", row[1].ToText(), row[2].ToText(), row[3].is_null() ? "NULL" : row[3].ToText());
    }
    EXPECT_EQ(out.size(), r.rows.size()) << "a key appears twice";
    return out;
  };
  EXPECT_EQ(rows_of(Freshness::kSnapshot), committed);
  EXPECT_EQ(rows_of(Freshness::kLive), expected);
  // Without the key among the columns read, and through an aggregate.
  EXPECT_EQ(Query(*catalog, "SELECT count(*) FROM floe.shop.state").rows[0][0].as_int(),
            static_cast<int64_t>(expected.size()));
  StatementResult paid = Query(*catalog, "SELECT count(*) FROM floe.shop.state WHERE status = 'paid'");
  EXPECT_EQ(paid.rows[0][0].as_int(), 20);
  std::string text = Query(*catalog, "EXPLAIN SELECT count(*) FROM floe.shop.state").rows[0][0].ToText();
  EXPECT_NE(text.find("live by key: log tail of topic 'state' p"), std::string::npos) << text;

  // Committed, the same rows come from the table.
  stream();
  EXPECT_EQ(rows_of(Freshness::kSnapshot), expected);
  EXPECT_EQ(rows_of(Freshness::kLive), expected);
}

}  // namespace
}  // namespace floe::sql::iceberg_sql
