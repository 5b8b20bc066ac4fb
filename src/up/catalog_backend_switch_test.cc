// The catalog's backing store moved while `floe up` runs: SQLite → a real PostgreSQL → SQLite,
// with the generator sending throughout, the rows checked in PostgreSQL with psql (a client
// nobody here wrote), and the reconciliation equal at the end.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <thread>

#include "catalog/open_catalog.h"
#include "catalog/postgres_test_server.h"
#include "support/child_process.h"
#include "support/run_process.h"
#include "up/pipeline.h"

namespace floe::up {
namespace {

using nlohmann::json;

bool SwitchWaitFor(PipelineConsole& console, const std::function<bool(const json&)>& check,
                   std::chrono::seconds deadline = std::chrono::seconds(60)) {
  auto end = std::chrono::steady_clock::now() + deadline;
  while (std::chrono::steady_clock::now() < end) {
    console.SampleNow();
    if (check(console.Snapshot())) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return false;
}

std::string SwitchRoleState(const json& snapshot, const std::string& name) {
  for (const auto& role : snapshot["roles"]) {
    if (role["name"] == name) return role["state"];
  }
  return "";
}

// psql's answer to `sql`, one row a line, columns split by '|'.
std::string Psql(const std::string& uri, const std::string& sql) {
  auto out = testing::RunProcess({"/usr/bin/psql", uri, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  return out.out;
}

class CatalogBackendSwitchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = catalog::PostgresTestServer::Start();
    if (!server) {
      if (server.error().message().find("no PostgreSQL initdb") != std::string::npos) {
        GTEST_SKIP() << server.error().ToString();
      }
      FAIL() << "PostgreSQL could not start: " << server.error().ToString();
    }
    postgres_ = std::move(*server);
    UpOptions options;
    options.data = folder_.path() + "/data";
    options.traffic = 300;
    options.stream.trigger_millis = 300;
    options.broker_port = testing::FreeLoopbackPort();
    options.broker_metrics_port = -1;
    options.catalog_port = testing::FreeLoopbackPort();
    options.catalog_replica_port = testing::FreeLoopbackPort();
    options.registry_port = testing::FreeLoopbackPort();
    options.query_port = testing::FreeLoopbackPort();
    options.pg_port = testing::FreeLoopbackPort();
    options.partitions = 2;
    options.malformed_rate = 0.02;
    pipeline_ = std::make_unique<Pipeline>(options);
    auto started = pipeline_->Start();
    ASSERT_TRUE(started) << started.error().ToString();
  }
  void TearDown() override {
    if (pipeline_) pipeline_->Stop();
  }
  PipelineConsole& console() { return pipeline_->console(); }

  // Waits until shop.orders has a snapshot other than `than`: commits go on.
  void ExpectCommitsAfter(const json& than) {
    EXPECT_TRUE(SwitchWaitFor(console(), [&](const json& s) {
      return s["table"].value("up", false) && s["table"]["snapshot_id"].is_number() &&
             s["table"]["snapshot_id"] != than;
    })) << console().Snapshot()["table"].dump();
  }

  // shop.orders' metadata location in PostgreSQL's iceberg_tables, as psql reads it.
  std::string PostgresOrdersPointer() {
    std::string out = Psql(postgres_->uri(),
                           "SELECT metadata_location FROM iceberg_tables WHERE catalog_name = 'default' AND "
                           "table_namespace = 'shop' AND table_name = 'orders'");
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  }

  testing::TempFolder folder_;
  std::unique_ptr<catalog::PostgresTestServer> postgres_;
  std::unique_ptr<Pipeline> pipeline_;
};

TEST_F(CatalogBackendSwitchTest, MovesToPostgresAndBackWhileTheGeneratorRuns) {
  ASSERT_TRUE(SwitchWaitFor(console(), [](const json& s) { return s["table"].value("rows", 0) > 0; }))
      << console().Snapshot().dump();
  ASSERT_TRUE(console().BringUp(std::string(kCatalogReplica)));
  json s = console().Snapshot();
  EXPECT_EQ(s["catalog_store"]["kind"], "sqlite");
  EXPECT_EQ(s["endpoints"]["catalog_backend"], s["catalog_store"]["default_backend"]);

  // Bad input: refused with its code, and the catalog stays up on SQLite.
  auto other = console().SwitchCatalogBackend("mysql://root@127.0.0.1/catalog");
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().code(), ErrorCode::kInvalidCatalogBackend);
  auto malformed = console().SwitchCatalogBackend("postgresql://postgres@127.0.0.1/db?no_such_option=1");
  ASSERT_FALSE(malformed);
  EXPECT_EQ(malformed.error().code(), ErrorCode::kInvalidCatalogBackend) << malformed.error().ToString();
  auto unreachable = console().SwitchCatalogBackend(
      fmt::format("postgresql://postgres:secret@127.0.0.1:{}/postgres", testing::FreeLoopbackPort()));
  ASSERT_FALSE(unreachable);
  EXPECT_EQ(unreachable.error().code(), ErrorCode::kCatalogStoreUnreachable);
  EXPECT_EQ(unreachable.error().message().find("secret"), std::string::npos) << unreachable.error().message();
  console().SampleNow();
  s = console().Snapshot();
  EXPECT_EQ(s["catalog_store"]["last_switch"]["ok"], false);
  EXPECT_EQ(s["catalog_store"]["last_switch"]["code"], "catalog store unreachable");
  EXPECT_EQ(s["catalog_store"]["last_switch"].dump().find("secret"), std::string::npos);

  // PostgreSQL already holds another history of shop.orders: refused, nothing moves.
  ASSERT_TRUE(catalog::OpenSqlCatalog(postgres_->uri()));  // Its tables, for psql's INSERT.
  Psql(postgres_->uri(),
       "INSERT INTO iceberg_tables VALUES ('default', 'shop', 'orders', 'file:///elsewhere/v9.metadata.json', "
       "NULL, 'TABLE')");
  auto conflict = console().SwitchCatalogBackend(postgres_->uri());
  ASSERT_FALSE(conflict);
  EXPECT_EQ(conflict.error().code(), ErrorCode::kCatalogStoreConflict) << conflict.error().ToString();
  EXPECT_EQ(Psql(postgres_->uri(), "SELECT count(*) FROM iceberg_tables"), "1\n");
  console().SampleNow();
  s = console().Snapshot();
  EXPECT_EQ(s["catalog_store"]["kind"], "sqlite");
  EXPECT_EQ(SwitchRoleState(s, "catalog"), "running");
  EXPECT_EQ(SwitchRoleState(s, std::string(kCatalogReplica)), "running");
  ExpectCommitsAfter(s["table"]["snapshot_id"]);
  Psql(postgres_->uri(), "DELETE FROM iceberg_tables");

  // To PostgreSQL, with the generator sending.
  auto to_postgres = console().SwitchCatalogBackend(postgres_->uri());
  ASSERT_TRUE(to_postgres) << to_postgres.error().ToString();
  EXPECT_EQ((*to_postgres)["ok"], true);
  // shop.orders, order_state, payments, shipments and each one's dead letters.
  EXPECT_GE((*to_postgres)["tables"].get<int64_t>(), 8) << to_postgres->dump();
  console().SampleNow();
  s = console().Snapshot();
  EXPECT_EQ(s["catalog_store"]["kind"], "postgresql");
  EXPECT_EQ(s["endpoints"]["catalog_backend"], postgres_->uri());
  EXPECT_EQ(SwitchRoleState(s, "catalog"), "running");
  EXPECT_EQ(SwitchRoleState(s, std::string(kCatalogReplica)), "running");
  std::string tables = Psql(postgres_->uri(),
                            "SELECT table_namespace || '.' || table_name FROM iceberg_tables WHERE catalog_name = "
                            "'default' AND iceberg_type = 'TABLE' ORDER BY 1");
  for (const char* table :
       {"shop.orders\n", "shop.orders_dlq\n", "shop.order_state\n", "shop.payments\n", "shop.shipments\n"}) {
    EXPECT_NE(tables.find(table), std::string::npos) << table << " not in\n" << tables;
  }
  EXPECT_EQ(Psql(postgres_->uri(),
                 "SELECT property_value FROM iceberg_namespace_properties WHERE catalog_name = "
                 "'default' AND namespace = 'shop' AND property_key = 'exists'"),
            "true\n");
  // The old store gave its rows up.
  auto sqlite = catalog::OpenSqlCatalog(s["catalog_store"]["default_backend"].get<std::string>());
  ASSERT_TRUE(sqlite) << sqlite.error().ToString();
  EXPECT_TRUE((*sqlite)->ExportRows()->pointers.empty());
  sqlite->reset();
  // Commits land in PostgreSQL: psql sees shop.orders' pointer move on.
  std::string moved_pointer = PostgresOrdersPointer();
  EXPECT_TRUE(moved_pointer.starts_with("file:///")) << moved_pointer;
  ExpectCommitsAfter(s["table"]["snapshot_id"]);
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (PostgresOrdersPointer() == moved_pointer && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_NE(PostgresOrdersPointer(), moved_pointer);
  // The same switch again changes nothing.
  auto again = console().SwitchCatalogBackend(postgres_->uri());
  ASSERT_TRUE(again) << again.error().ToString();
  EXPECT_EQ((*again)["moved"], false);

  // Back to SQLite, the generator still sending.
  auto back = console().SwitchCatalogBackend("sqlite");
  ASSERT_TRUE(back) << back.error().ToString();
  EXPECT_EQ(Psql(postgres_->uri(), "SELECT count(*) FROM iceberg_tables WHERE catalog_name = 'default'"), "0\n");
  console().SampleNow();
  s = console().Snapshot();
  EXPECT_EQ(s["catalog_store"]["kind"], "sqlite");
  EXPECT_EQ(s["catalog_store"]["last_switch"]["ok"], true);
  ExpectCommitsAfter(s["table"]["snapshot_id"]);

  // Nothing lost or doubled across both moves.
  ASSERT_TRUE(console().SetTraffic(0));
  ASSERT_TRUE(SwitchWaitFor(console(), [](const json& snapshot) {
    return snapshot["generator"]["acknowledged"] == snapshot["generator"]["sent"] &&
           snapshot["stream"]["consumer_lag"] == 0;
  })) << console().Snapshot().dump();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  json r = console().Reconciliation();
  while (r["equal"] != true && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    console().SampleNow();
    r = console().Reconciliation();
  }
  EXPECT_EQ(r["equal"], true) << r.dump();
  EXPECT_GT(r["committed"].get<int64_t>(), 0);
}

}  // namespace
}  // namespace floe::up
