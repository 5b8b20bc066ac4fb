// The console's side of `floe up`: a whole in-process pipeline on free loopback ports, read and
// turned through the PipelineControl the query server will call.
#include "up/pipeline_console.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <set>
#include <thread>

#include "base/clock.h"
#include "support/child_process.h"
#include "up/pipeline.h"

namespace floe::up {
namespace {

using nlohmann::json;

// Polls `check` on fresh snapshots until it holds or a generous deadline passes.
bool WaitFor(PipelineConsole& console, const std::function<bool(const json&)>& check,
             std::chrono::seconds deadline = std::chrono::seconds(60)) {
  auto end = std::chrono::steady_clock::now() + deadline;
  while (std::chrono::steady_clock::now() < end) {
    console.SampleNow();
    if (check(console.Snapshot())) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return false;
}

// The reconciliation once it is equal, or the last one after a generous deadline: the upsert
// job into shop.order_state commits on its own schedule, a trigger behind the event table.
json SettledReconciliation(
    PipelineConsole& console,
    const std::function<bool(const json&)>& settled = [](const json& r) { return r["equal"] == true; }) {
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  json r = console.Reconciliation();
  while (!settled(r) && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    console.SampleNow();
    r = console.Reconciliation();
  }
  return r;
}

// Pauses the generator, waits until the broker acknowledged all it sent and the job committed
// all of it, and expects the reconciliation to be equal.
void ExpectReconciledOncePaused(PipelineConsole& console) {
  ASSERT_TRUE(console.SetTraffic(0));
  ASSERT_TRUE(WaitFor(console, [](const json& s) {
    return s["generator"]["acknowledged"] == s["generator"]["sent"] && s["stream"]["consumer_lag"] == 0;
  })) << console.Snapshot().dump();
  json r = SettledReconciliation(console);
  EXPECT_EQ(r["equal"], true) << r.dump();
}

// The reconciliation of a linked topic (payments, shipments), or null.
json LinkedTopic(const json& reconciliation, const std::string& topic) {
  for (const auto& t : reconciliation["topics"]) {
    if (t["topic"] == topic) return t;
  }
  return json();
}

std::string RoleState(const json& snapshot, const std::string& name) {
  for (const auto& role : snapshot["roles"]) {
    if (role["name"] == name) return role["state"];
  }
  return "";
}

int64_t SourceEndOffset(const json& snapshot) {
  for (const auto& topic : snapshot["broker"]["topics"]) {
    if (topic["name"] == "orders") return topic["end_offset"];
  }
  return 0;
}

class PipelineConsoleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    UpOptions& options = options_;
    options.data = folder_.path() + "/data";
    options.traffic = 300;
    options.stream.trigger_millis = 300;
    options.broker_port = testing::FreeLoopbackPort();
    options.broker_metrics_port = -1;
    options.catalog_port = testing::FreeLoopbackPort();
    options.registry_port = testing::FreeLoopbackPort();
    options.query_port = testing::FreeLoopbackPort();
    options.pg_port = testing::FreeLoopbackPort();
    options.partitions = 2;
    options.malformed_rate = 0.02;
    Configure(options);
    pipeline_ = std::make_unique<Pipeline>(options);
    auto started = pipeline_->Start();
    ASSERT_TRUE(started) << started.error().ToString();
  }
  void TearDown() override {
    if (pipeline_) pipeline_->Stop();
  }
  PipelineConsole& console() { return pipeline_->console(); }
  virtual void Configure(UpOptions&) {}  // A test's own options, before the pipeline starts.

  testing::TempFolder folder_;
  UpOptions options_;
  std::unique_ptr<Pipeline> pipeline_;
};

TEST_F(PipelineConsoleTest, NumbersRiseAndNothingIsLostAcrossATakeDown) {
  // The broker's end offsets and the table's rows rise; the map has every box's numbers.
  ASSERT_TRUE(WaitFor(console(), [](const json& s) {
    return s["broker"]["up"] == true && SourceEndOffset(s) > 100 && s["table"].value("rows", 0) > 0 &&
           s["stream"]["last_snapshot_id"].is_number() && s["generator"].value("acknowledged", 0) > 0;
  })) << console().Snapshot().dump(2);
  json s = console().Snapshot();
  EXPECT_EQ(RoleState(s, "broker"), "running");
  EXPECT_EQ(RoleState(s, "stream job"), "running");
  // The orders topic by name: the registry role's _schemas topic is listed too.
  nlohmann::json orders;
  for (const auto& topic : s["broker"]["topics"]) {
    if (topic["name"] == "orders") orders = topic;
  }
  ASSERT_TRUE(orders.is_object()) << s["broker"].dump();
  EXPECT_EQ(orders["partitions"].size(), 2u);
  EXPECT_GT(s["table"]["files"].get<int64_t>(), 0);
  EXPECT_GT(s["table"]["mean_file_bytes"].get<double>(), 0);
  EXPECT_FALSE(s["table"]["schema"].empty());
  EXPECT_GT(s["storage"]["data_bytes"].get<int64_t>(), 0);
  // Where each role listens, for the box pages' "at scale" settings.
  EXPECT_EQ(s["endpoints"]["brokers"], fmt::format("127.0.0.1:{}", options_.broker_port));
  EXPECT_EQ(s["endpoints"]["catalog"], fmt::format("http://127.0.0.1:{}", options_.catalog_port));
  EXPECT_EQ(s["endpoints"]["query_http"], fmt::format("http://127.0.0.1:{}", options_.query_port));
  EXPECT_EQ(s["endpoints"]["partitions"], 2);
  EXPECT_EQ(s["endpoints"]["authentication"], false);
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return s["broker"]["events_per_second"].get<double>() > 0; }));

  // Paused, only bursts are sent.
  ASSERT_TRUE(console().SetTraffic(0));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  uint64_t sent = pipeline_->GeneratorNumbers()["sent"];
  ASSERT_TRUE(console().Burst(100));
  ASSERT_TRUE(WaitFor(console(), [&](const json& s) { return s["generator"]["sent"].get<uint64_t>() == sent + 100; }))
      << console().Snapshot()["generator"].dump();
  EXPECT_EQ(console().Snapshot()["generator"]["paused"], true);

  // The stream job down: a burst piles up as lag.
  ASSERT_TRUE(console().TakeDown("stream"));
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return RoleState(s, "stream job") == "down"; }));
  ASSERT_TRUE(console().Burst(500));
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return s["stream"]["consumer_lag"].get<int64_t>() >= 500; }))
      << console().Snapshot()["stream"].dump();

  // Back up: the lag drains and every acknowledged event is in the table exactly once.
  ASSERT_TRUE(console().BringUp("stream job"));
  ASSERT_TRUE(WaitFor(console(), [](const json& s) {
    return RoleState(s, "stream job") == "running" && s["stream"]["consumer_lag"] == 0;
  })) << console().Snapshot()["stream"].dump();
  json r = SettledReconciliation(console());
  EXPECT_EQ(r["acknowledged"], r["produced"]) << r.dump();
  EXPECT_EQ(r["committed"], r["acknowledged_valid"]) << r.dump();
  EXPECT_EQ(r["dead_lettered"], r["acknowledged_malformed"]) << r.dump();
  EXPECT_GT(r["dead_lettered"].get<int64_t>(), 0) << r.dump();
  EXPECT_EQ(r["equal"], true) << r.dump();
  EXPECT_EQ(r["queryable"], r["committed"]) << r.dump();  // count(*) through the query server's engine.
  // The order-state table: one row per order, each its latest event.
  EXPECT_GT(r["state"]["rows"].get<int64_t>(), 0) << r.dump();
  EXPECT_EQ(r["state"]["rows"], r["state"]["orders"]) << r.dump();
  EXPECT_EQ(r["state"]["stale"], 0) << r.dump();
  // The payments and shipments, each topic against its own table.
  ASSERT_EQ(r["topics"].size(), 2u) << r.dump();
  for (const auto& topic : r["topics"]) {
    EXPECT_EQ(topic["equal"], true) << topic.dump();
    EXPECT_GT(topic["committed"].get<int64_t>(), 0) << topic.dump();
    EXPECT_EQ(topic["committed"], topic["acknowledged_valid"]) << topic.dump();
    EXPECT_EQ(topic["queryable"], topic["committed"]) << topic.dump();
  }
}

TEST_F(PipelineConsoleTest, ThePaymentsJobDownLeavesItsTopicUnequalUntilItCatchesUp) {
  ASSERT_TRUE(WaitFor(console(), [](const json& s) {
    return s["generator"]["topics"]["payments"].value("acknowledged", 0) > 0;
  })) << console().Snapshot()["generator"].dump();
  ASSERT_TRUE(console().SetTraffic(0));
  ASSERT_TRUE(console().TakeDown("payments job"));
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return RoleState(s, "payments job") == "down"; }));
  const int64_t payments_before = pipeline_->GeneratorNumbers()["topics"]["payments"]["acknowledged"];
  ASSERT_TRUE(console().Burst(600));
  // The burst's paid orders bring payments that wait in the broker, while everything else
  // catches up.
  ASSERT_TRUE(WaitFor(console(), [&](const json& s) {
    return s["generator"]["topics"]["payments"]["acknowledged"].get<int64_t>() >= payments_before + 20 &&
           s["generator"]["acknowledged"] == s["generator"]["sent"] && s["stream"]["consumer_lag"] == 0;
  })) << console().Snapshot()["generator"].dump();
  // The orders and the shipments settle; the payments cannot.
  json behind = SettledReconciliation(console(), [](const json& r) {
    return r["committed"] == r["acknowledged_valid"] && LinkedTopic(r, "shipments")["equal"] == true;
  });
  json payments = LinkedTopic(behind, "payments");
  EXPECT_EQ(behind["equal"], false) << behind.dump();
  EXPECT_EQ(payments["equal"], false) << payments.dump();
  EXPECT_LT(payments["committed"].get<int64_t>(), payments["acknowledged_valid"].get<int64_t>()) << payments.dump();
  EXPECT_EQ(LinkedTopic(behind, "shipments")["equal"], true) << behind.dump();
  EXPECT_EQ(behind["committed"], behind["acknowledged_valid"]) << behind.dump();

  ASSERT_TRUE(console().BringUp("payments job"));
  json r = SettledReconciliation(console());
  EXPECT_EQ(r["equal"], true) << r.dump();
  payments = LinkedTopic(r, "payments");
  EXPECT_EQ(payments["committed"], payments["acknowledged_valid"]) << payments.dump();
  EXPECT_GE(payments["committed"].get<int64_t>(), payments_before + 20) << payments.dump();
  EXPECT_EQ(payments["consumer_lag"], 0) << payments.dump();
}

TEST_F(PipelineConsoleTest, TheOrderStateJobDownLeavesTheReconciliationUnequalUntilItCatchesUp) {
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return s["table"].value("rows", 0) > 0; }));
  ASSERT_TRUE(console().SetTraffic(0));
  ASSERT_TRUE(console().TakeDown("state job"));
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return RoleState(s, "state job") == "down"; }));
  console().SampleNow();
  const json before_burst = console().Snapshot();
  const int64_t sent_before = before_burst["generator"]["sent"].get<int64_t>();
  const int64_t end_before = SourceEndOffset(before_burst);
  ASSERT_TRUE(console().Burst(300));
  // The event table takes the burst (sent first, and in the sampled broker end offsets: the
  // lags are measured against those, so until they hold the burst both lags read 0); the
  // order-state table stays behind, and says so.
  ASSERT_TRUE(WaitFor(console(), [&](const json& s) {
    return s["generator"]["sent"].get<int64_t>() >= sent_before + 300 && SourceEndOffset(s) >= end_before + 300 &&
           s["generator"]["acknowledged"] == s["generator"]["sent"] && s["stream"]["consumer_lag"] == 0;
  })) << console().Snapshot().dump();
  json behind = console().Reconciliation();
  EXPECT_EQ(behind["equal"], false) << behind.dump();
  EXPECT_GE(behind["state"]["consumer_lag"].get<int64_t>(), 300) << behind.dump();
  EXPECT_EQ(behind["committed"], behind["acknowledged_valid"]) << behind.dump();

  ASSERT_TRUE(console().BringUp("state job"));
  json r = SettledReconciliation(console());
  EXPECT_EQ(r["equal"], true) << r.dump();
  EXPECT_EQ(r["state"]["consumer_lag"], 0) << r.dump();
  EXPECT_EQ(r["state"]["stale"], 0) << r.dump();
  EXPECT_EQ(r["state"]["rows"], r["state"]["orders"]) << r.dump();
  EXPECT_GT(r["state"]["rows"].get<int64_t>(), 0) << r.dump();
}

TEST_F(PipelineConsoleTest, TheBrokerComesBackOnItsPortAndTheGeneratorCatchesUp) {
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return SourceEndOffset(s) > 0; }));
  ASSERT_TRUE(console().TakeDown("broker"));
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return s["broker"]["up"] == false; }));
  EXPECT_EQ(RoleState(console().Snapshot(), "broker"), "down");
  ASSERT_TRUE(console().BringUp("broker"));
  int64_t before = SourceEndOffset(console().Snapshot());
  ASSERT_TRUE(WaitFor(console(), [&](const json& s) { return s["broker"]["up"] == true && SourceEndOffset(s) > before; }))
      << console().Snapshot()["broker"].dump();
}

TEST_F(PipelineConsoleTest, TheCatalogComesBackAndCommitsResume) {
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return s["table"].value("rows", 0) > 0; }));
  ASSERT_TRUE(console().TakeDown("catalog"));
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return s["table"]["up"] == false; }));
  ASSERT_TRUE(console().BringUp("catalog"));
  int64_t rows = console().Snapshot()["table"]["rows"];
  ASSERT_TRUE(WaitFor(console(), [&](const json& s) { return s["table"]["up"] == true && s["table"]["rows"] > rows; }))
      << console().Snapshot()["table"].dump();
}

TEST_F(PipelineConsoleTest, ARestartOnTheSameDataStillReconciles) {
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return s["table"].value("rows", 0) > 0; }));
  pipeline_->Stop();
  pipeline_.reset();
  options_.traffic = 0;  // Paused from the start: only the burst below.
  pipeline_ = std::make_unique<Pipeline>(options_);
  ASSERT_TRUE(pipeline_->Start());
  json before = console().Reconciliation();
  EXPECT_GT(before["acknowledged"].get<int64_t>(), 0) << before.dump();  // The ledger was continued.
  ASSERT_TRUE(console().Burst(300));
  ASSERT_TRUE(WaitFor(console(), [&](const json& s) {
    return s["generator"]["acknowledged"].get<int64_t>() == before["acknowledged"].get<int64_t>() + 300 &&
           s["stream"]["consumer_lag"] == 0;
  })) << console().Snapshot().dump();
  json r = SettledReconciliation(console());
  EXPECT_EQ(r["equal"], true) << r.dump();
}

TEST_F(PipelineConsoleTest, RewiringTheStreamJobKeepsEveryEventOnce) {
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return s["table"].value("rows", 0) > 0; }));
  // Compaction off and a short trigger: every batch adds files and none go away.
  ASSERT_TRUE(console().RewireStream({{"compaction", false}, {"trigger_ms", 200}}));
  console().SampleNow();
  json s = console().Snapshot();
  EXPECT_EQ(s["stream"]["settings"]["compaction"], false) << s["stream"].dump();
  EXPECT_EQ(s["stream"]["settings"]["trigger_ms"], 200) << s["stream"].dump();
  EXPECT_EQ(RoleState(s, "stream job"), "running");
  int64_t files_before = s["table"]["files"];
  int64_t most_files = 0;
  ASSERT_TRUE(WaitFor(console(), [&](const json& s) {
    most_files = std::max<int64_t>(most_files, s["table"]["files"].get<int64_t>());
    return most_files >= files_before + 10;
  })) << console().Snapshot()["table"].dump();
  // Planning a scan reads the manifests the appends wrote.
  s = console().Snapshot();
  ASSERT_TRUE(s["table"]["scan"].contains("planning_ms")) << s["table"].dump();
  EXPECT_GT(s["table"]["scan"]["manifests"].get<int64_t>(), 0) << s["table"].dump();
  EXPECT_GT(s["table"]["scan"]["planned_files"].get<int64_t>(), 0) << s["table"].dump();

  // Compaction on, every second, with the traffic paused so no new small file races it (how
  // fast a round is depends on the machine): the small files are folded and the count falls.
  ASSERT_TRUE(console().SetTraffic(0));
  ASSERT_TRUE(
      console().RewireStream({{"compaction", true}, {"compaction_target_mb", 1}, {"maintenance_interval_ms", 1000}}));
  ASSERT_TRUE(WaitFor(
      console(), [&](const json& s) { return s["table"]["files"].get<int64_t>() < most_files / 2; },
      std::chrono::seconds(300)))
      << console().Snapshot()["table"].dump();

  // Partition evolution: new files are daily, the hourly ones keep their spec.
  ASSERT_TRUE(console().SetTraffic(300));
  ASSERT_TRUE(console().RewireStream({{"partition", {"day(ts)"}}}));
  int64_t rows_before = console().Snapshot()["table"]["rows"];
  ASSERT_TRUE(WaitFor(console(), [&](const json& s) {
    const json& fields = s["table"]["partition_fields"];
    return fields.size() == 1 && fields[0]["transform"] == "day" && s["table"]["rows"].get<int64_t>() > rows_before;
  })) << console().Snapshot()["table"].dump();

  // Out of bounds: refused, and the job keeps what it had.
  auto refused = console().RewireStream({{"trigger_ms", 5}});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind(), ErrorKind::kInvalidArgument);
  console().SampleNow();
  EXPECT_EQ(console().Snapshot()["stream"]["settings"]["trigger_ms"], 200);

  // Every event that went through the three jobs is in the table exactly once.
  ExpectReconciledOncePaused(console());
}

// The stream job's group as the console shows it: members with the orders partitions they hold.
std::vector<std::vector<int>> Assignment(const json& snapshot) {
  std::vector<std::vector<int>> out;
  const json& group = snapshot["stream"]["group"];
  if (!group.is_object() || group.value("state", "") != "Stable") return out;
  for (const auto& member : group["members"]) out.push_back(member["partitions"].get<std::vector<int>>());
  return out;
}

TEST_F(PipelineConsoleTest, WorkersSplitThePartitionsAndEveryEventLandsOnce) {
  ASSERT_TRUE(WaitFor(console(), [](const json& s) {
    return s["table"].value("rows", 0) > 0 && Assignment(s) == std::vector<std::vector<int>>{{0, 1}};
  })) << console().Snapshot()["stream"].dump();
  int64_t rebalances = console().Snapshot()["stream"]["group"]["rebalances"];

  // Two workers: the rebalance gives each one of the two partitions; the traffic goes on.
  ASSERT_TRUE(console().RewireStream({{"workers", 2}}));
  ASSERT_TRUE(WaitFor(console(), [](const json& s) {
    return Assignment(s) == std::vector<std::vector<int>>{{0}, {1}} ||
           Assignment(s) == std::vector<std::vector<int>>{{1}, {0}};
  })) << console().Snapshot()["stream"].dump();
  json s = console().Snapshot();
  EXPECT_EQ(s["stream"]["settings"]["workers"], 2);
  EXPECT_GT(s["stream"]["group"]["rebalances"].get<int64_t>(), rebalances) << s["stream"].dump();
  std::set<std::string> clients;
  for (const auto& member : s["stream"]["group"]["members"]) clients.insert(member["client_id"].get<std::string>());
  EXPECT_EQ(clients, (std::set<std::string>{"floe-stream-worker-1", "floe-stream-worker-2"}));
  int64_t rows = s["table"]["rows"];
  ASSERT_TRUE(WaitFor(console(), [&](const json& s) { return s["table"]["rows"].get<int64_t>() > rows + 100; }))
      << console().Snapshot()["table"].dump();

  // Back to one, and every event went through exactly once.
  ASSERT_TRUE(console().RewireStream({{"workers", 1}}));
  ASSERT_TRUE(WaitFor(console(), [](const json& s) {
    return Assignment(s) == std::vector<std::vector<int>>{{0, 1}};
  })) << console().Snapshot()["stream"].dump();
  ExpectReconciledOncePaused(console());
}

class PipelineConsoleReplicaTest : public PipelineConsoleTest {
 protected:
  void Configure(UpOptions& options) override { options.catalog_replica_port = testing::FreeLoopbackPort(); }
};

TEST_F(PipelineConsoleReplicaTest, CommitsGoOnThroughTheSecondCatalogWhileTheFirstIsDown) {
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return s["table"].value("rows", 0) > 0; }));
  EXPECT_EQ(RoleState(console().Snapshot(), "catalog replica"), "down");  // Until asked for.
  ASSERT_TRUE(console().BringUp("catalog replica"));
  ASSERT_TRUE(console().TakeDown("catalog"));
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return RoleState(s, "catalog") == "down"; }));
  int64_t down_at = Clock::System().NowMillis();
  // The job commits through the replica, and the console reads the table through it too.
  ASSERT_TRUE(WaitFor(console(), [&](const json& s) {
    return s["table"].value("up", false) && s["stream"]["last_commit_ms"].is_number() &&
           s["stream"]["last_commit_ms"].get<int64_t>() > down_at + 1000;
  })) << console().Snapshot()["stream"].dump();

  // Back to the first alone: commits go on there.
  ASSERT_TRUE(console().BringUp("catalog"));
  ASSERT_TRUE(console().TakeDown("catalog replica"));
  int64_t switched_at = Clock::System().NowMillis();
  ASSERT_TRUE(WaitFor(console(), [&](const json& s) {
    return s["stream"]["last_commit_ms"].is_number() &&
           s["stream"]["last_commit_ms"].get<int64_t>() > switched_at + 1000;
  })) << console().Snapshot()["stream"].dump();
  ExpectReconciledOncePaused(console());
}

TEST_F(PipelineConsoleTest, AFreshnessMarkerIsFoundByBothReadsAndCountedOnce) {
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return s["table"].value("rows", 0) > 0; }));
  ASSERT_TRUE(console().SetTraffic(0));  // Paused: the marker is sent all the same.
  uint64_t sent = pipeline_->GeneratorNumbers()["sent"];
  auto marker = console().ProbeFreshness();
  ASSERT_TRUE(marker) << marker.error().ToString();
  std::string event_id = (*marker)["event_id"];
  // At least the marker went out (events the loop was sending as the pause arrived may follow).
  EXPECT_GE(pipeline_->GeneratorNumbers()["sent"].get<uint64_t>(), sent + 1);
  ASSERT_TRUE(WaitFor(console(), [](const json& s) { return s["freshness"]["running"] == false; }))
      << console().Snapshot()["freshness"].dump();
  json probe = console().Snapshot()["freshness"]["probes"].back();
  EXPECT_EQ(probe["event_id"], event_id);
  EXPECT_TRUE(probe["live_ms"].is_number()) << probe.dump();
  EXPECT_TRUE(probe["snapshot_ms"].is_number()) << probe.dump();
  EXPECT_EQ(probe["timed_out"], false) << probe.dump();
  // The marker is an event like the others: in the ledger and in the table, once.
  ASSERT_TRUE(WaitFor(console(), [](const json& s) {
    return s["generator"]["acknowledged"] == s["generator"]["sent"] && s["stream"]["consumer_lag"] == 0;
  }));
  json r = SettledReconciliation(console());
  EXPECT_EQ(r["equal"], true) << r.dump();
}

TEST_F(PipelineConsoleTest, RefusesWhatItCannotDo) {
  EXPECT_EQ(console().TakeDown("coffee machine").error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(console().SetTraffic(-5).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(console().Burst(0).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(console().SetStorageFaults({{"error_rate", 7}}).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_TRUE(console().SetStorageFaults({{"latency_ms", 5}}));
  console().SampleNow();
  EXPECT_EQ(console().Snapshot()["storage"]["faults"]["latency_ms"], 5);
  EXPECT_TRUE(console().SetStorageFaults(json::object()));
  // Taking a role down twice, or bringing a running one up, changes nothing.
  EXPECT_TRUE(console().TakeDown("generator"));
  EXPECT_TRUE(console().TakeDown("generator"));
  EXPECT_TRUE(console().BringUp("generator"));
  EXPECT_TRUE(console().BringUp("generator"));
}

// The payments' job as the playground's job choice rewires it: its own settings, partition
// fields over its own table's columns, partition evolution of shop.payments, nothing lost.
json LinkedEntry(const json& snapshot, const std::string& topic) {
  for (const auto& linked : snapshot["linked"]) {
    if (linked["topic"] == topic) return linked;
  }
  return json();
}

TEST_F(PipelineConsoleTest, RewiresThePaymentsJobOverItsOwnColumns) {
  ASSERT_TRUE(WaitFor(console(), [](const json& s) {
    return LinkedEntry(s, "payments").value("rows", 0) > 0 && LinkedEntry(s, "shipments").is_object();
  })) << console().Snapshot()["linked"].dump();
  // The orders have no method column; the payments do.
  auto orders = console().RewireStream({{"partition", {"day(ts)", "method"}}});
  ASSERT_FALSE(orders);
  EXPECT_EQ(orders.error().kind(), ErrorKind::kInvalidArgument);
  auto unknown = console().RewireStream({{"job", "refunds job"}, {"trigger_ms", 500}});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message().find("refunds job"), std::string::npos) << unknown.error().message();
  auto bad = console().RewireStream({{"job", "payments job"}, {"partition", {"day(nope)"}}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind(), ErrorKind::kInvalidArgument);

  auto rewired =
      console().RewireStream({{"job", "payments job"}, {"trigger_ms", 500}, {"partition", {"day(ts)", "method"}}});
  ASSERT_TRUE(rewired) << rewired.error().ToString();
  console().SampleNow();
  json s = console().Snapshot();
  json payments = LinkedEntry(s, "payments");
  EXPECT_EQ(payments["settings"]["trigger_ms"], 500);
  EXPECT_EQ(payments["settings"]["partition"], json({"day(ts)", "method"}));
  EXPECT_EQ(payments["job"], "payments job");
  // The others keep theirs.
  EXPECT_EQ(LinkedEntry(s, "shipments")["settings"]["partition"], json({"day(ts)"}));
  EXPECT_EQ(s["stream"]["settings"]["partition"], json({"hour(ts)"}));
  // The restarted job evolves shop.payments' spec and commits on.
  ASSERT_TRUE(WaitFor(console(), [](const json& snapshot) {
    return LinkedEntry(snapshot, "payments")["partition_fields"].size() == 2;
  })) << LinkedEntry(console().Snapshot(), "payments").dump();
  ExpectReconciledOncePaused(console());
  json r = console().Reconciliation();
  EXPECT_EQ(LinkedTopic(r, "payments")["equal"], true) << r.dump();
}

}  // namespace
}  // namespace floe::up

namespace floe::up {
namespace {

// With --processes the boxes are child processes: the rate restarts the generator's child.
TEST(PipelineConsoleProcesses, TrafficRestartsTheGeneratorAndRolesGoDownAndUp) {
  const char* floe = std::getenv("FLOE_BIN");
  if (floe == nullptr) GTEST_SKIP() << "FLOE_BIN is not set (run through ctest)";
  testing::TempFolder folder;
  UpOptions options;
  options.data = folder.path() + "/data";
  options.traffic = 100;
  options.processes = true;
  options.floe_binary = floe;
  options.broker_port = testing::FreeLoopbackPort();
  options.broker_metrics_port = -1;
  options.catalog_port = testing::FreeLoopbackPort();
  options.query_port = testing::FreeLoopbackPort();
  options.pg_port = testing::FreeLoopbackPort();
  options.partitions = 2;
  Pipeline pipeline(options);
  ASSERT_TRUE(pipeline.Start());
  PipelineConsole& console = pipeline.console();
  ASSERT_TRUE(WaitFor(console, [](const json& s) { return SourceEndOffset(s) > 0; }));

  ASSERT_TRUE(console.SetTraffic(0));
  console.SampleNow();
  EXPECT_EQ(RoleState(console.Snapshot(), "generator"), "down");
  EXPECT_EQ(console.Snapshot()["generator"]["paused"], true);
  EXPECT_EQ(console.Burst(10).error().kind(), ErrorKind::kNotImplemented);
  // Stopped cleanly, its ledger holds every acknowledgement; the next child continues it.
  uint64_t acknowledged = pipeline.GeneratorNumbers()["acknowledged"];
  EXPECT_GT(acknowledged, 0u);
  ASSERT_TRUE(console.SetTraffic(300));
  ASSERT_TRUE(WaitFor(console, [&](const json& s) {
    return RoleState(s, "generator") == "running" && s["generator"]["acknowledged"].get<uint64_t>() > acknowledged;
  })) << console.Snapshot()["generator"].dump();

  // Rewired, the stream job's child starts again with the new flags and commits on.
  ASSERT_TRUE(console.RewireStream({{"trigger_ms", 500}, {"compaction", false}, {"partition", {"day(ts)"}}}));
  console.SampleNow();
  std::string describe;
  json rewired = console.Snapshot();
  for (const auto& role : rewired["roles"]) {
    if (role["name"] == "stream job") describe = role["describe"].get<std::string>();
  }
  EXPECT_NE(describe.find("every 500 ms"), std::string::npos) << describe;
  EXPECT_NE(describe.find("compaction off"), std::string::npos) << describe;
  EXPECT_NE(describe.find("partitioned by day(ts)"), std::string::npos) << describe;
  int64_t rows = console.Snapshot()["table"].value("rows", int64_t{0});
  ASSERT_TRUE(WaitFor(console, [&](const json& s) {
    return RoleState(s, "stream job") == "running" && s["table"].value("rows", int64_t{0}) > rows;
  })) << console.Snapshot().dump();

  // Two workers are two `floe stream` children in the job's group, one partition each.
  ASSERT_TRUE(console.RewireStream({{"workers", 2}}));
  json split;
  ASSERT_TRUE(WaitFor(console, [&](const json& s) {
    split = s;
    return Assignment(s) == std::vector<std::vector<int>>{{0}, {1}} ||
           Assignment(s) == std::vector<std::vector<int>>{{1}, {0}};
  })) << console.Snapshot()["stream"].dump();
  std::set<std::string> clients;
  for (const auto& member : split["stream"]["group"]["members"]) {
    clients.insert(member["client_id"].get<std::string>());
  }
  EXPECT_EQ(clients, (std::set<std::string>{"floe-stream-worker-1", "floe-stream-worker-2"}));
  rows = console.Snapshot()["table"].value("rows", int64_t{0});
  ASSERT_TRUE(WaitFor(console, [&](const json& s) { return s["table"].value("rows", int64_t{0}) > rows + 100; }))
      << console.Snapshot()["table"].dump();
  // The second worker's log is a box log of the stream job too.
  auto stream_logs = console.Logs("stream", 1000);
  ASSERT_TRUE(stream_logs) << stream_logs.error().ToString();
  EXPECT_TRUE(std::filesystem::exists(options.data + "/logs/stream-2.log")) << stream_logs->dump(2);
  ASSERT_TRUE(console.RewireStream({{"workers", 1}}));
  ASSERT_TRUE(WaitFor(console, [](const json& s) {
    return Assignment(s) == std::vector<std::vector<int>>{{0, 1}};
  })) << console.Snapshot()["stream"].dump();

  ASSERT_TRUE(console.TakeDown("broker"));
  ASSERT_TRUE(WaitFor(console, [](const json& s) { return s["broker"]["up"] == false; }));
  EXPECT_EQ(RoleState(console.Snapshot(), "broker"), "down");
  ASSERT_TRUE(console.BringUp("broker"));
  ASSERT_TRUE(WaitFor(console, [](const json& s) { return s["broker"]["up"] == true; }));

  // The box logs come from the children's files: the broker's two starts are both there.
  auto logs = console.Logs("broker", 1000);
  ASSERT_TRUE(logs) << logs.error().ToString();
  EXPECT_EQ((*logs)["source"], "files");
  int starts = 0;
  for (const auto& line : (*logs)["lines"])
    starts += line.get<std::string>().find("[broker] listening on") != std::string::npos;
  EXPECT_EQ(starts, 2) << logs->dump(2);
  // Through the workers, the rewires and the broker's restart, every event landed once.
  ExpectReconciledOncePaused(console);
  pipeline.Stop();
}

}  // namespace
}  // namespace floe::up
