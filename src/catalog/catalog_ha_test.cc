// High availability: two `floe catalog` processes on one PostgreSQL serve the same tables, and
// concurrent commits through both never lose an update; when one is killed the other carries on.
#include <signal.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "base/subprocess.h"
#include "catalog/postgres_test_server.h"
#include "catalog/rest_catalog.h"
#include "io/test_folder.h"

namespace floe::catalog {
namespace {

using Json = nlohmann::json;

// Starts `floe catalog` on a free port and returns its base URL once it listens.
Result<std::string> StartCatalog(const std::string& backend, const std::string& warehouse, const std::string& log,
                                 std::unique_ptr<Subprocess>* process) {
  const char* bin = std::getenv("FLOE_BIN");
  if (bin == nullptr) {
    return InvalidArgument("FLOE_BIN is not set");
  }
  FLOE_ASSIGN_OR_RETURN(*process, Subprocess::Start({bin, "catalog", "--listen", "127.0.0.1:0", "--backend", backend,
                                                     "--warehouse", warehouse},
                                                    log));
  std::regex listening("listening on (127\\.0\\.0\\.1:[0-9]+)");
  for (int i = 0; i < 200; ++i) {
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::smatch match;
    if (std::regex_search(text, match, listening)) {
      return "http://" + match[1].str();
    }
    if (!(*process)->Running()) {
      return Internal("floe catalog exited: {}", text);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return Unavailable("floe catalog did not start; see {}", log);
}

TableCommit Append(const TableIdentifier& id, const Json& m, int64_t snapshot_id) {
  int64_t current = m.value("current-snapshot-id", int64_t{-1});
  TableCommit commit;
  commit.id = id;
  commit.requirements = {std::make_shared<const iceberg::AssertRefSnapshotId>(
      "main", current == -1 ? std::nullopt : std::optional<int64_t>(current))};
  Json snapshot = {{"snapshot-id", snapshot_id},
                   {"sequence-number", m["last-sequence-number"].get<int64_t>() + 1},
                   {"timestamp-ms", 1700000000000 + snapshot_id},
                   {"manifest-list", fmt::format("{}/metadata/snap-{}.avro", m["location"].get<std::string>(), snapshot_id)},
                   {"summary", {{"operation", "append"}}},
                   {"schema-id", 0}};
  if (current != -1) snapshot["parent-snapshot-id"] = current;
  commit.updates = {std::make_shared<const iceberg::AddSnapshot>(snapshot),
                    std::make_shared<const iceberg::SetSnapshotRef>("main", snapshot_id)};
  return commit;
}

TEST(CatalogHaTest, TwoServersOnOnePostgresLoseNoUpdate) {
  auto postgres = PostgresTestServer::Start();
  ASSERT_TRUE(postgres) << postgres.error().ToString();
  std::string folder = io::testing::FreshFolder();
  std::string warehouse = "file://" + folder + "/warehouse";
  std::unique_ptr<Subprocess> a_process, b_process;
  auto a_url = StartCatalog((*postgres)->uri(), warehouse, folder + "/a.log", &a_process);
  ASSERT_TRUE(a_url) << a_url.error().ToString();
  auto b_url = StartCatalog((*postgres)->uri(), warehouse, folder + "/b.log", &b_process);
  ASSERT_TRUE(b_url) << b_url.error().ToString();

  auto a = RestCatalog::Open(*a_url);
  auto b = RestCatalog::Open(*b_url);
  ASSERT_TRUE(a && b);
  ASSERT_TRUE((*a)->CreateNamespace({"ha"}, {}));
  EXPECT_TRUE(*(*b)->NamespaceExists({"ha"}));
  TableIdentifier t{{"ha"}, "t"};
  TableCreation creation;
  creation.schema = Json::parse(R"({"type":"struct","fields":[{"id":1,"name":"x","required":false,"type":"long"}]})");
  ASSERT_TRUE((*b)->CreateTable(t, creation, false));

  constexpr int kWritersPerServer = 3;
  constexpr int kCommitsEach = 8;
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < 2 * kWritersPerServer; ++w) {
    writers.emplace_back([&, w] {
      auto client = RestCatalog::Open(w % 2 == 0 ? *a_url : *b_url);
      if (!client) {
        ++failures;
        return;
      }
      for (int i = 0; i < kCommitsEach; ++i) {
        while (true) {
          auto table = (*client)->LoadTable(t);
          if (!table) {
            ++failures;
            return;
          }
          auto committed = (*client)->CommitTable(Append(t, table->metadata, (w + 1) * 1000 + i));
          if (committed) break;
          if (committed.error().kind() != ErrorKind::kConflict) {
            ADD_FAILURE() << committed.error().ToString();
            ++failures;
            return;
          }
        }
      }
    });
  }
  for (auto& writer : writers) writer.join();
  ASSERT_EQ(failures.load(), 0);
  auto through_a = (*a)->LoadTable(t);
  auto through_b = (*b)->LoadTable(t);
  ASSERT_TRUE(through_a && through_b);
  EXPECT_EQ(through_a->metadata_location, through_b->metadata_location);
  std::set<int64_t> ids;
  for (const Json& snapshot : through_a->metadata["snapshots"]) ids.insert(snapshot["snapshot-id"].get<int64_t>());
  EXPECT_EQ(ids.size(), size_t{2 * kWritersPerServer * kCommitsEach});
  EXPECT_EQ(through_a->metadata["snapshots"].size(), size_t{2 * kWritersPerServer * kCommitsEach});

  // One server dies; the other still commits on top of everything.
  a_process->Stop(SIGKILL);
  auto committed = (*b)->CommitTable(Append(t, through_b->metadata, 999999));
  ASSERT_TRUE(committed) << committed.error().ToString();
  EXPECT_EQ(committed->metadata["snapshots"].size(), size_t{2 * kWritersPerServer * kCommitsEach + 1});
  b_process->Stop(SIGTERM);
}

}  // namespace
}  // namespace floe::catalog
