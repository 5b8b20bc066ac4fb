// Pipeline: everything `floe up` runs, started in dependency order and stopped in reverse.
//
// In one process by default, each role owning its threads; with `processes`, each role is a
// child process that a supervisor thread restarts when it dies, unless it was taken down on
// purpose. In one process, taking a role down stops it cleanly and bringing it up starts it
// again; the console's PipelineConsole reads and turns the pipeline through the calls below. Roles whose issue has not landed yet are listed as such and not started — nothing
// pretends to work. Owned by `floe up`; every public call is thread-safe (the console's
// playground takes roles down from the query server's threads).
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "auth/users.h"
#include "base/result.h"
#include "generator/payment_event.h"
#include "generator/shipment_event.h"
#include "net/tls.h"
#include "stream/stream_runner.h"
#include "up/pipeline_console.h"
#include "up/role.h"
#include "up/storage_faults.h"
#include "up/stream_settings.h"

namespace floe::up {

// The user the pipeline's own clients authenticate as when `--auth-file` is given: an admin
// with a random password made at each start, added to the file's users (which may not use it).
inline constexpr std::string_view kPipelineUser = "floe-up-pipeline";

// The second catalog server's role name (UpOptions::catalog_replica_port).
inline constexpr std::string_view kCatalogReplica = "catalog replica";

// A topic the generator fills beside the orders, linked to them by order_id, and the table its
// own stream job (the role `job`) keeps of it: the payments and the shipments (docs/orders.md).
struct LinkedTopic {
  std::string_view job;
  std::string_view topic;
  std::string_view table;
  std::string_view (*schema_json)();  // The table's Iceberg schema.
};
inline constexpr LinkedTopic kLinkedTopics[] = {
    {"payments job", "payments", "shop.payments", generator::PaymentsSchemaJson},
    {"shipments job", "shipments", "shop.shipments", generator::ShipmentsSchemaJson},
};

struct UpOptions {
  std::string data = "./floe-data";
  double traffic = 200;  // Generator events per second; negative = off.
  StreamSettings stream;  // The shop.orders job's trigger, file sizes and compaction (rewired live).
  std::string host = "127.0.0.1";
  int broker_port = 9092;
  int broker_metrics_port = 9644;
  std::string broker_metrics_host = "127.0.0.1";  // Each listener binds where its own flag says.
  std::string catalog_host = "127.0.0.1";
  int catalog_port = 8181;
  // A second catalog server on the same database, started held down (the playground brings it
  // up); -1: none. Every client of the pipeline lists both servers.
  std::string catalog_replica_host = "127.0.0.1";
  int catalog_replica_port = -1;
  // The catalog's backing store at start: sqlite:PATH or postgresql://...; empty: SQLite in
  // DATA/catalog.db. The playground moves it (Pipeline::SwitchCatalogBackend).
  std::string catalog_backend;
  std::string registry_host = "127.0.0.1";  // Schema Registry (Confluent's REST API).
  int registry_port = 8081;
  std::string query_host = "127.0.0.1";  // Trino protocol, HTTP API and console.
  int query_port = 8080;
  std::string pg_host = "127.0.0.1";  // PostgreSQL wire.
  int pg_port = 5433;
  int partitions = 4;
  double malformed_rate = 0.005;
  bool processes = false;           // One supervised child process per role.
  // Users every listener requires (auth/users.h); the pipeline's own clients use the first.
  std::string auth_file;
  // TLS on every listener; the pipeline's own clients trust this certificate.
  std::string tls_cert, tls_key;
  std::string floe_binary = "/proc/self/exe";  // What child processes run.
};

// A role as the console's map shows it.
struct RoleState {
  std::string name;
  std::string state;  // "running", "down" (taken down), "restarting" (died; being restarted), "missing"
  std::string describe;
  bool can_take_down = false;
  int restarts = 0;
};

// A role not built yet, and the issue that brings it.
struct MissingRole {
  std::string name;
  std::string describe;
  int issue;
};

class Pipeline {
 public:
  explicit Pipeline(UpOptions options);
  ~Pipeline();

  // Starts every built role in order; on failure stops those already started.
  Status Start();
  void Stop();

  // The start-up table: each role, where it runs, or which issue it waits for.
  std::string StatusTable() const;
  size_t running_roles() const;

  // Takes a role down and keeps it down until BringUp starts it again. With --processes the
  // child is SIGKILLed, as a crash would; in one process the role is stopped cleanly. "stream"
  // names the stream job.
  Status TakeDown(std::string_view role);
  Status BringUp(std::string_view role);

  // Rewires a stream job: `patch` as ApplyStreamSettingsPatch reads it, plus "job": the job
  // into shop.orders ("stream job", the default) or a linked topic's ("payments job",
  // "shipments job"; its partition fields over its own table's columns). A running job is
  // stopped between batches and started again with the new settings; it resumes from the
  // offsets its table's last snapshot recorded, so no event is lost or doubled. A job taken
  // down keeps them for when it is brought up.
  Status RewireStream(const nlohmann::json& patch);
  // The settings of `job` ("stream job" or a linked topic's job).
  StreamSettings stream_settings(std::string_view job = "stream job") const;

  // Moves the catalog to another backing store: "sqlite" (DATA/catalog.db), sqlite:PATH or a
  // postgresql:// URI. The new store is reached first (kInvalidCatalogBackend,
  // kCatalogStoreUnreachable: nothing stopped); then the catalog and its replica stop — commits
  // stall and the jobs retry, as when the catalog is taken down —, every row moves in one
  // transaction (catalog/catalog_store_move.h; kCatalogStoreConflict when the new store holds
  // another pointer for a table) and the servers that were running start on the new store. On
  // failure they start again on the old one. Answers the move's counts.
  Result<nlohmann::json> SwitchCatalogBackend(std::string_view backend);
  // The store the catalog runs on now, its password hidden.
  std::string CatalogBackendShown() const;

  std::vector<RoleState> RoleStates() const;
  // The generator's rate (0 pauses it) and a burst of extra events.
  Status SetTraffic(double events_per_second);
  Status Burst(int64_t events);
  // One valid order event sent now, paused or not, counted in the ledger like the rest: its
  // event id once the producer has taken it. Not with --processes (the generator is a child).
  Result<std::string> SendMarker();
  // {"state", "rate", "paused", "sent", "acknowledged", "acknowledged_valid", ..., "topics":
  // {"payments": {"acknowledged", "acknowledged_valid", "acknowledged_malformed", "failed"}, ...}}
  nlohmann::json GeneratorNumbers() const;
  // The in-process stream job's counters: {"batches", "records_in", "rows_committed", ...}.
  nlohmann::json StreamCounters() const;

  // What the query server's console routes call; lives from construction to destruction.
  serve::PipelineControl& control() { return *console_; }
  PipelineConsole& console() { return *console_; }
  StorageFaults& storage_faults() { return *faults_; }
  const UpOptions& options() const { return options_; }
  std::string Warehouse() const;
  // Where each role listens and what it holds, for the box pages' configuration and the
  // settings that point a replacement (Kafka, Spark, S3, Trino) at floe: {"brokers",
  // "catalog", "catalog_backend", "warehouse", "query_http", "postgres", "registry", "topic",
  // "table", "partitions", "authentication", "tls"}.
  nlohmann::json Endpoints() const;
  // {"backend": shown, "kind": "sqlite" | "postgresql", "last_switch": {...} | null}
  nlohmann::json CatalogStore() const;

 private:
  std::vector<std::unique_ptr<Role>> MakeInProcessRoles();
  std::vector<std::unique_ptr<Role>> MakeProcessRoles();
  std::unique_ptr<Role> MakeQueryRole();
  // Where the pipeline's own clients reach its Schema Registry role.
  std::string RegistryUrl() const;
  stream::StreamConfig StreamConfigFor() const;
  // The second job: the same topic into shop.order_state, one row per order (its latest event),
  // in upsert mode keyed by order_id (docs/upserts.md).
  stream::StreamConfig OrderStateConfigFor() const;
  // The job of a linked topic (payments, shipments): appends into its table, partitioned by
  // day(ts), with the trigger and maintenance floe up started with.
  stream::StreamConfig LinkedTopicConfigFor(const LinkedTopic& linked) const;
  // Loads --auth-file and points the pipeline's own Kafka and catalog clients (in this process
  // and its children) at the first user's credentials and the TLS certificate.
  Status ConfigureClients();
  std::string CatalogUrl() const;  // http:// or https://
  std::string DefaultCatalogBackend() const;  // sqlite:DATA/catalog.db
  std::string catalog_backend() const;        // The store now, password and all.
  // CatalogUrl(), and the replica's after a comma when there is one: what clients open.
  std::string CatalogUrls() const;
  // RewireStream of a linked topic's job.
  Status RewireLinkedJob(const std::string& job, const nlohmann::json& patch);
  void Supervise();
  Role* Find(std::string_view role) const;  // Requires mutex_.

  UpOptions options_;
  // From options_.auth_file, plus kPipelineUser; empty: nothing authenticates.
  std::vector<auth::AuthUser> users_;
  std::string auth_copy_;  // users_ as verifiers, mode 0600, for the broker and catalog children.
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Role>> started_;  // Guarded by mutex_.
  std::set<std::string, std::less<>> held_down_;  // Guarded by mutex_.
  // Each linked topic's job's settings (day(ts), the trigger and maintenance floe up started
  // with, until the playground rewires it), by job name; guarded by mutex_.
  std::map<std::string, StreamSettings, std::less<>> linked_settings_;
  std::vector<MissingRole> missing_;
  std::atomic<bool> stopping_{false};
  std::thread supervisor_;
  std::shared_ptr<StorageFaults> faults_;
  // The catalog's backing store now, and the last switch ({"from", "to", "ok", "error", ...});
  // guarded by backend_mutex_ (read by the console's sampler without mutex_).
  mutable std::mutex backend_mutex_;
  std::string catalog_backend_;
  nlohmann::json last_backend_switch_;
  std::unique_ptr<PipelineConsole> console_;
};

}  // namespace floe::up
