// PipelineConsole: the console's view of a running `floe up` and its playground knobs (the
// serve::PipelineControl the query server's /api/pipeline and /api/playground routes call).
//
// A sampler thread asks, once a second, the broker (over the Kafka protocol: topics,
// partitions, end offsets), the catalog (the table's current snapshot and its summary: rows,
// files, bytes, the offsets the stream job committed) and the Pipeline (role states, the
// generator's ledger, the stream job's counters), and keeps the last answer; Snapshot() hands
// that out, so the console's polling never waits on a role that is down. Reconciliation()
// reads the tables afresh. Owned by the Pipeline; every public call is thread-safe.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "catalog/catalog.h"
#include "serve/pipeline_control.h"
#include "up/broker_probe.h"
#include "up/freshness_probe.h"

namespace floe::up {

class Pipeline;

// A topic and the table a stream job keeps of it.
struct TopicTable {
  std::string topic;
  std::string table;
  std::string job;  // The role that streams it ("payments job").
};

struct ConsoleSources {
  std::string brokers;    // HOST:PORT of the broker.
  std::string catalog;    // The catalog URI (http://HOST:PORT under floe up).
  std::string warehouse;  // file:///abs or s3://..., for the storage box.
  std::string topic = "orders";
  std::string table = "shop.orders";  // Its dead letters are in <table>_dlq.
  // The upsert job's table over the same topic: one row per order, its latest event (empty:
  // none runs). The reconciliation checks it against `table`.
  std::string state_table = "shop.order_state";
  std::string group = "floe-stream-shop.orders";  // The stream job's consumer group (its workers).
  // Topics the generator fills beside `topic` (payments, shipments), each appended into a table
  // of its own; the reconciliation checks each against the generator's ledger of its topic.
  std::vector<TopicTable> linked_tables;
};

class PipelineConsole final : public serve::PipelineControl {
 public:
  // Counts the rows a SQL query over `table` sees ("shop.orders"), for the reconciliation's
  // queryable number, narrowed by `where` (SQL the console makes) and read with `freshness`
  // ("live", "snapshot", or empty for the default) for the freshness probe; given by whoever
  // runs the query engine in this process.
  using RowCounter =
      std::function<Result<int64_t>(std::string_view table, std::string_view where, std::string_view freshness)>;

  PipelineConsole(Pipeline& pipeline, ConsoleSources sources);
  ~PipelineConsole() override;

  void Start();  // The sampler thread.
  void Stop();
  void SetRowCounter(RowCounter counter);
  // Takes one sample now (the sampler does this every second).
  void SampleNow();

  nlohmann::json Snapshot() const override;
  nlohmann::json Reconciliation() const override;
  Status SetTraffic(double events_per_second) override;
  Status Burst(int64_t events) override;
  Status TakeDown(std::string_view role) override;
  Status BringUp(std::string_view role) override;
  Status SetStorageFaults(const nlohmann::json& faults) override;
  Status RewireStream(const nlohmann::json& settings) override;
  Result<nlohmann::json> SwitchCatalogBackend(std::string_view backend) override;
  Result<nlohmann::json> ProbeFreshness() override;
  Result<nlohmann::json> Logs(std::string_view box, size_t max) const override;

 private:
  struct TableNumbers {
    bool loaded = false;
    nlohmann::json json;             // The "table" object of the snapshot.
    std::map<int32_t, int64_t> offsets;  // floe.offsets.<topic> of the current snapshot.
    int64_t rows = 0;
  };
  // `offsets` are the snapshot's offsets of `topic` (default: sources_.topic).
  Result<TableNumbers> LoadTableNumbers(const std::string& table, size_t max_commits,
                                        std::string_view topic = {}) const;
  // The reconciliation's "state" object: sources_.state_table against sources_.table, through
  // the query engine's `counter`; `broker` is the last sample's broker object (end offsets),
  // `events_snapshot` the event table's current snapshot id (null if it could not be read).
  // The reconciliation of one linked topic: `acknowledged` is the generator's ledger of it
  // (GeneratorNumbers' "topics"), `broker` the last sample's broker object.
  nlohmann::json LinkedReconciliation(const TopicTable& linked, const nlohmann::json& acknowledged,
                                      const RowCounter& counter, const nlohmann::json& broker) const;
  nlohmann::json StateReconciliation(const RowCounter& counter, const nlohmann::json& broker,
                                     const nlohmann::json& events_snapshot) const;
  Result<catalog::Catalog*> OpenCatalog() const;  // Requires catalog_mutex_.
  nlohmann::json StorageNumbers() const;
  // How long planning a full scan of the table's current snapshot takes (reading its manifest
  // list and manifests), and what it read: grows with small files, falls after compaction.
  // Requires sampler_mutex_.
  Result<nlohmann::json> MeasureScanPlanning();
  // Describes the stream job's group into last_group_ (members, their partitions of the topic,
  // rebalances seen). Requires sampler_mutex_.
  void SampleGroup(int64_t now);
  void Poke();

  Pipeline& pipeline_;
  ConsoleSources sources_;

  mutable std::mutex catalog_mutex_;
  mutable std::unique_ptr<catalog::Catalog> catalog_;  // Guarded by catalog_mutex_; opened lazily.

  std::mutex sampler_mutex_;  // One sample at a time (the thread and SampleNow).
  BrokerProbe probe_;         // Guarded by sampler_mutex_.
  std::deque<std::pair<int64_t, int64_t>> end_offset_history_;  // (ms, sum of end offsets); sampler_mutex_.
  nlohmann::json last_broker_;  // Guarded by sampler_mutex_: the last answer, kept while it is down.
  nlohmann::json last_table_;
  nlohmann::json last_dlq_;
  // Each linked topic's job and table as last sampled (the payments' and shipments' boxes);
  // guarded by sampler_mutex_.
  nlohmann::json last_linked_ = nlohmann::json::array();
  std::map<int32_t, int64_t> last_offsets_;
  // The stream job's consumer group as last described, and how often its assignment changed
  // (a rebalance: workers joined or left); sampler_mutex_.
  nlohmann::json last_group_;
  std::string last_assignment_;
  int64_t rebalances_ = 0;
  int64_t last_rebalance_ms_ = 0;
  // Opened lazily for the scan-planning measure (stream::LoadTable shares it); sampler_mutex_.
  std::shared_ptr<catalog::Catalog> planning_catalog_;

  // StateReconciliation's counts and the two tables' snapshot ids ("events/state") they were
  // counted at; guarded by state_counts_mutex_.
  mutable std::mutex state_counts_mutex_;
  mutable std::string state_counts_snapshots_;
  mutable nlohmann::json state_counts_;

  mutable std::mutex mutex_;
  nlohmann::json snapshot_;  // Guarded by mutex_.
  RowCounter row_counter_;   // Guarded by mutex_.

  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;  // Guarded by wake_mutex_.
  bool poked_ = false;     // Guarded by wake_mutex_: sample again now (a role changed).
  std::thread sampler_;
  FreshnessProbe freshness_;  // Declared last: its thread calls the row counter above.
};

}  // namespace floe::up
