// What the console's pipeline pages and playground need from `floe up`: a snapshot of every
// role's numbers and the knobs the playground turns. `floe up` implements it over its Pipeline
// (src/up); a query server started alone (`floe query`) has none and answers those routes with
// 404 "no pipeline". The JSON shapes are documented in docs/http-api.md. Implementations are
// called from the query server's threads concurrently, so every call must be thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "base/result.h"

namespace floe::serve {

class PipelineControl {
 public:
  virtual ~PipelineControl() = default;

  // {"roles": [...], "broker": {...}, "stream": {...}, "table": {...}, "generator": {...}}
  virtual nlohmann::json Snapshot() const = 0;
  // {"produced": n, "acknowledged": n, "committed": n, "queryable": n, "dead_lettered": n}
  virtual nlohmann::json Reconciliation() const = 0;

  virtual Status SetTraffic(double events_per_second) = 0;  // 0 pauses the generator.
  virtual Status Burst(int64_t events) = 0;
  virtual Status TakeDown(std::string_view role) = 0;
  virtual Status BringUp(std::string_view role) = 0;
  // {"error_rate": 0.1, "latency_ms": 50, "short_write_rate": 0.0} on the warehouse's storage;
  // all zero clears the faults.
  virtual Status SetStorageFaults(const nlohmann::json& faults) = 0;
  // Rewires the stream job: {"trigger_ms": 1000, "compaction": false, ...} (docs/http-api.md);
  // InvalidArgument for an unknown key or a value out of bounds.
  virtual Status RewireStream(const nlohmann::json& settings) = 0;
  // Moves the catalog to another backing store: {"backend": "sqlite" | "sqlite:PATH" |
  // "postgresql://..."}; answers what moved. Errors carry kInvalidCatalogBackend,
  // kCatalogStoreUnreachable or kCatalogStoreConflict, and leave the catalog on its old store.
  virtual Result<nlohmann::json> SwitchCatalogBackend(std::string_view backend) = 0;
  // Sends a marker event and starts timing when a snapshot read and a live read first see it:
  // {"event_id": "..."}; Conflict while the previous probe still looks. Results appear in
  // Snapshot()'s "freshness".
  virtual Result<nlohmann::json> ProbeFreshness() = 0;
  // The newest `max` log lines of the roles behind a box of the map ("broker", "stream", ...):
  // {"box": ..., "source": "memory" | "files", "lines": ["<time> <level> [<component>] <text>", ...]};
  // NotFound for an unknown box.
  virtual Result<nlohmann::json> Logs(std::string_view box, size_t max) const = 0;
};

}  // namespace floe::serve
