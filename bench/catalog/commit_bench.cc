// Commit latency through `floe catalog`'s REST server (SQLite backend, local warehouse), p50 and
// p99, beside the floor every commit pays in the same run: the two durable writes a commit is
// made of (the new metadata file, fsync'd, and the SQLite compare-and-swap, synchronous=FULL),
// done directly without HTTP, JSON or requirement checks. Then concurrent committers through
// REST: throughput, retried conflicts, and a check that every commit landed exactly once.
#include <algorithm>
#include <numeric>
#include <unistd.h>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "catalog/metadata_file_io.h"
#include "catalog/open_catalog.h"
#include "catalog/rest_catalog.h"
#include "catalog/rest_server.h"
#include "catalog/sql_catalog.h"

namespace floe::catalog {
namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;

double Millis(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double Percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  size_t index = std::min(values.size() - 1, static_cast<size_t>(q * static_cast<double>(values.size())));
  return values[index];
}

TableCommit Append(const TableIdentifier& id, const Json& m, int64_t snapshot_id) {
  int64_t current = m.value("current-snapshot-id", int64_t{-1});
  TableCommit commit;
  commit.id = id;
  commit.requirements = {std::make_shared<const iceberg::AssertTableUuid>(m["table-uuid"].get<std::string>()),
                         std::make_shared<const iceberg::AssertRefSnapshotId>(
                             "main", current == -1 ? std::nullopt : std::optional<int64_t>(current))};
  Json snapshot = {{"snapshot-id", snapshot_id},
                   {"sequence-number", m["last-sequence-number"].get<int64_t>() + 1},
                   {"timestamp-ms", 1700000000000 + snapshot_id},
                   {"manifest-list", fmt::format("{}/metadata/snap-{}.avro", m["location"].get<std::string>(), snapshot_id)},
                   {"summary", {{"operation", "append"}, {"added-data-files", "1"}, {"added-records", "1000"}}},
                   {"schema-id", 0}};
  if (current != -1) snapshot["parent-snapshot-id"] = current;
  commit.updates = {std::make_shared<const iceberg::AddSnapshot>(snapshot),
                    std::make_shared<const iceberg::SetSnapshotRef>("main", snapshot_id)};
  return commit;
}

TableCreation Creation() {
  TableCreation creation;
  creation.schema = Json::parse(R"({"type":"struct","fields":[{"id":1,"name":"order_id","required":true,"type":"long"},
    {"id":2,"name":"ts","required":false,"type":"timestamptz"},{"id":3,"name":"amount","required":false,"type":"double"}]})");
  creation.properties = {{"write.metadata.previous-versions-max", "20"}};
  return creation;
}

int Run(int commits, int writers, int commits_each) {
  std::string folder = (std::filesystem::temp_directory_path() / fmt::format("floe-catalog-bench-{}", ::getpid())).string();
  std::filesystem::create_directories(folder);
  auto backend = OpenCatalog({"sqlite:" + folder + "/catalog.db", "file://" + folder + "/warehouse"});
  if (!backend) {
    fmt::print(stderr, "{}\n", backend.error().ToString());
    return 1;
  }
  RestServerOptions options;
  options.port = 0;
  RestCatalogServer server(**backend, options);
  if (!server.Start()) return 1;
  std::string url = fmt::format("http://127.0.0.1:{}", server.port());
  auto client = RestCatalog::Open(url);
  if (!client || !(*client)->CreateNamespace({"bench"}, {})) return 1;

  // 1. Sequential commits through REST.
  TableIdentifier seq{{"bench"}, "sequential"};
  auto table = (*client)->CreateTable(seq, Creation(), false);
  if (!table) return 1;
  Json metadata = table->metadata;
  std::vector<double> rest_ms;
  size_t metadata_bytes = 0;
  for (int i = 0; i < commits; ++i) {
    auto start = Clock::now();
    auto committed = (*client)->CommitTable(Append(seq, metadata, i + 1));
    rest_ms.push_back(Millis(Clock::now() - start));
    if (!committed) {
      fmt::print(stderr, "commit {}: {}\n", i, committed.error().ToString());
      return 1;
    }
    metadata = std::move(committed->metadata);
    metadata_bytes = metadata.dump().size();
  }

  // 2. The floor: the same two durable writes per commit, done directly.
  auto sql = SqlCatalog::Open([path = folder + "/floor.db"] { return OpenSqlite(path); });
  if (!sql || !(*sql)->CreateNamespace({"bench"}, {})) return 1;
  MetadataFileIo files;
  std::string body(metadata_bytes, 'x');
  TableIdentifier floor_id{{"bench"}, "floor"};
  std::string previous = "file://" + folder + "/floor/metadata/00000.metadata.json";
  if (!(*sql)->SwapPointers({{floor_id, std::nullopt, previous}})) return 1;
  std::vector<double> floor_ms;
  for (int i = 0; i < commits; ++i) {
    std::string next = fmt::format("file://{}/floor/metadata/{:05d}.metadata.json", folder, i + 1);
    auto start = Clock::now();
    if (!files.Write(next, body) || !(*sql)->SwapPointers({{floor_id, previous, next}})) return 1;
    floor_ms.push_back(Millis(Clock::now() - start));
    previous = next;
  }

  // 3. Concurrent committers through REST, each with its own client, retrying on 409.
  TableIdentifier hot{{"bench"}, "concurrent"};
  if (!(*client)->CreateTable(hot, Creation(), false)) return 1;
  std::atomic<int> conflicts{0};
  std::atomic<int> failures{0};
  auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int w = 0; w < writers; ++w) {
    threads.emplace_back([&, w] {
      auto mine = RestCatalog::Open(url);
      if (!mine) {
        ++failures;
        return;
      }
      for (int i = 0; i < commits_each; ++i) {
        while (true) {
          auto current = (*mine)->LoadTable(hot);
          if (!current) {
            ++failures;
            return;
          }
          auto committed = (*mine)->CommitTable(Append(hot, current->metadata, (w + 1) * 1000000 + i));
          if (committed) break;
          if (committed.error().kind() != ErrorKind::kConflict) {
            ++failures;
            return;
          }
          ++conflicts;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  auto final_table = (*client)->LoadTable(hot);
  std::set<int64_t> ids;
  for (const Json& snapshot : final_table->metadata["snapshots"]) ids.insert(snapshot["snapshot-id"].get<int64_t>());
  int expected = writers * commits_each;
  bool exact = failures == 0 && final_table->metadata["snapshots"].size() == static_cast<size_t>(expected) &&
               ids.size() == static_cast<size_t>(expected);
  server.Stop();
  std::filesystem::remove_all(folder);

  double p50 = Percentile(rest_ms, 0.50), p99 = Percentile(rest_ms, 0.99);
  double f50 = Percentile(floor_ms, 0.50), f99 = Percentile(floor_ms, 0.99);
  fmt::print("commit latency, {} sequential commits (metadata grows to {} bytes):\n", commits, metadata_bytes);
  fmt::print("  floe REST commit        p50 {:7.2f} ms  p99 {:7.2f} ms\n", p50, p99);
  fmt::print("  floor (file+fsync, CAS) p50 {:7.2f} ms  p99 {:7.2f} ms\n", f50, f99);
  fmt::print("  ratio floe/floor        p50 {:7.2f}x    p99 {:7.2f}x\n", p50 / f50, p99 / f99);
  double sequential_rate = 1000.0 / (std::accumulate(rest_ms.begin(), rest_ms.end(), 0.0) / commits);
  fmt::print("concurrent: {} writers x {} commits through REST: {:.1f} commits/s ({} conflicts retried), "
             "sequential {:.1f} commits/s, ratio {:.2f}x; every commit exactly once: {}\n",
             writers, commits_each, expected / seconds, conflicts.load(), sequential_rate,
             (expected / seconds) / sequential_rate, exact ? "yes" : "NO");
  return exact ? 0 : 1;
}

}  // namespace
}  // namespace floe::catalog

int main(int argc, char** argv) {
  int commits = argc > 1 ? std::atoi(argv[1]) : 300;
  int writers = argc > 2 ? std::atoi(argv[2]) : 8;
  int each = argc > 3 ? std::atoi(argv[3]) : 25;
  return floe::catalog::Run(commits, writers, each);
}
