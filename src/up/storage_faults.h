// StorageFaults: the playground's storage faults, applied to every object store `floe up`'s
// process opens (the stream job's writes, the catalog's metadata, the query engine's reads).
//
// Install() makes io::OpenObjectStore wrap each new store in a FaultInjectingObjectStore that
// this object remembers (weakly), so Set() re-arms every live store at once and stores opened
// later start with the current faults. Owned by the Pipeline as a shared_ptr (the installed
// wrapper keeps it alive); thread-safe.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "io/fault_injecting_object_store.h"

namespace floe::up {

struct StorageFaultPlan {
  double error_rate = 0;        // Share of calls that fail with Unavailable.
  int64_t latency_ms = 0;       // Added to every call.
  double short_write_rate = 0;  // Share of writes torn halfway, then failed.

  bool operator==(const StorageFaultPlan&) const = default;
};

// {"error_rate": 0.1, "latency_ms": 50, "short_write_rate": 0} (missing fields are zero).
Result<StorageFaultPlan> StorageFaultPlanFromJson(const nlohmann::json& json);

class StorageFaults : public std::enable_shared_from_this<StorageFaults> {
 public:
  // Wraps every store opened from now on; Uninstall removes the wrapper.
  void Install();
  static void Uninstall();

  std::unique_ptr<io::ObjectStore> Wrap(std::unique_ptr<io::ObjectStore> inner);
  void Set(const StorageFaultPlan& plan);

  // {"error_rate":..,"latency_ms":..,"short_write_rate":..,"stores":n,"faults_fired":n}
  nlohmann::json ToJson() const;

 private:
  void Arm(io::FaultInjectingObjectStore& store) const;  // Requires mutex_.

  mutable std::mutex mutex_;
  StorageFaultPlan plan_;                                         // Guarded by mutex_.
  std::vector<std::weak_ptr<io::FaultInjectingObjectStore>> stores_;  // Guarded by mutex_.
};

}  // namespace floe::up
