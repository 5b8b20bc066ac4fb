#include "up/storage_faults.h"

#include <algorithm>

namespace floe::up {
namespace {

// Hands every call to a FaultInjectingObjectStore shared with StorageFaults, which re-arms it.
class SharedFaultStore final : public io::ObjectStore {
 public:
  explicit SharedFaultStore(std::shared_ptr<io::FaultInjectingObjectStore> store) : store_(std::move(store)) {}

  Result<std::string> Get(std::string_view key) override { return store_->Get(key); }
  Result<std::string> GetRange(std::string_view key, uint64_t offset, uint64_t length) override {
    return store_->GetRange(key, offset, length);
  }
  Result<io::ObjectInfo> Head(std::string_view key) override { return store_->Head(key); }
  Result<std::unique_ptr<io::InputFile>> OpenInput(std::string_view key) override { return store_->OpenInput(key); }
  Status Put(std::string_view key, std::string_view bytes) override { return store_->Put(key, bytes); }
  Status PutIfAbsent(std::string_view key, std::string_view bytes) override {
    return store_->PutIfAbsent(key, bytes);
  }
  Result<std::unique_ptr<io::OutputStream>> OpenOutput(std::string_view key) override {
    return store_->OpenOutput(key);
  }
  Status Delete(std::string_view key) override { return store_->Delete(key); }
  Status DeleteMany(const std::vector<std::string>& keys) override { return store_->DeleteMany(keys); }
  Result<io::ListResult> List(std::string_view prefix, std::string_view delimiter,
                              std::optional<std::string> continuation_token, int max_keys) override {
    return store_->List(prefix, delimiter, std::move(continuation_token), max_keys);
  }
  Result<std::vector<io::ObjectInfo>> ListUnfinishedWrites(std::string_view prefix) override {
    return store_->ListUnfinishedWrites(prefix);
  }
  Status DeleteUnfinishedWrites(const std::vector<std::string>& keys) override { return store_->DeleteUnfinishedWrites(keys); }
  std::string Uri(std::string_view key) const override { return store_->Uri(key); }
  std::optional<std::string> KeyForUri(std::string_view uri) const override { return store_->KeyForUri(uri); }

 private:
  std::shared_ptr<io::FaultInjectingObjectStore> store_;
};

Result<double> Rate(const nlohmann::json& json, const char* name) {
  if (!json.contains(name) || json[name].is_null()) return 0.0;
  if (!json[name].is_number()) return InvalidArgument("storage faults: '{}' must be a number", name);
  double value = json[name].get<double>();
  if (value < 0 || value > 1) return InvalidArgument("storage faults: '{}' must be between 0 and 1, not {}", name, value);
  return value;
}

}  // namespace

Result<StorageFaultPlan> StorageFaultPlanFromJson(const nlohmann::json& json) {
  if (!json.is_object()) return InvalidArgument("storage faults: expected a JSON object");
  StorageFaultPlan plan;
  FLOE_ASSIGN_OR_RETURN(plan.error_rate, Rate(json, "error_rate"));
  FLOE_ASSIGN_OR_RETURN(plan.short_write_rate, Rate(json, "short_write_rate"));
  if (json.contains("latency_ms") && !json["latency_ms"].is_null()) {
    if (!json["latency_ms"].is_number()) return InvalidArgument("storage faults: 'latency_ms' must be a number");
    double latency = json["latency_ms"].get<double>();
    if (latency < 0 || latency > 10'000) {
      return InvalidArgument("storage faults: 'latency_ms' must be between 0 and 10000, not {}", latency);
    }
    plan.latency_ms = static_cast<int64_t>(latency);
  }
  return plan;
}

void StorageFaults::Install() {
  std::weak_ptr<StorageFaults> self = weak_from_this();
  io::SetObjectStoreWrapper([self](std::unique_ptr<io::ObjectStore> inner) -> std::unique_ptr<io::ObjectStore> {
    auto faults = self.lock();
    return faults ? faults->Wrap(std::move(inner)) : std::move(inner);
  });
}

void StorageFaults::Uninstall() { io::SetObjectStoreWrapper(nullptr); }

std::unique_ptr<io::ObjectStore> StorageFaults::Wrap(std::unique_ptr<io::ObjectStore> inner) {
  auto store = std::make_shared<io::FaultInjectingObjectStore>(std::move(inner));
  std::lock_guard lock(mutex_);
  Arm(*store);
  std::erase_if(stores_, [](const auto& weak) { return weak.expired(); });
  stores_.push_back(store);
  return std::make_unique<SharedFaultStore>(std::move(store));
}

void StorageFaults::Set(const StorageFaultPlan& plan) {
  std::lock_guard lock(mutex_);
  plan_ = plan;
  for (const auto& weak : stores_) {
    if (auto store = weak.lock()) Arm(*store);
  }
}

void StorageFaults::Arm(io::FaultInjectingObjectStore& store) const {
  store.Clear();
  // The first fault that matches a call applies, and a missed probability falls through to the
  // next: torn writes first, then errors (with the latency), then the latency alone.
  auto latency = std::chrono::milliseconds(plan_.latency_ms);
  for (io::ObjectOp op : {io::ObjectOp::kPut, io::ObjectOp::kAppend}) {
    if (plan_.short_write_rate <= 0) break;
    store.Inject({.op = op, .times = io::Fault::kForever, .probability = plan_.short_write_rate,
                  .latency = latency, .message = "injected torn write (console playground)", .short_write = true});
  }
  if (plan_.error_rate > 0) {
    store.Inject({.times = io::Fault::kForever, .probability = plan_.error_rate, .latency = latency,
                  .message = "injected storage error (console playground)"});
  }
  if (plan_.latency_ms > 0) {
    store.Inject({.times = io::Fault::kForever, .latency = latency, .error = std::nullopt});
  }
}

nlohmann::json StorageFaults::ToJson() const {
  std::lock_guard lock(mutex_);
  uint64_t fired = 0;
  size_t live = 0;
  for (const auto& weak : stores_) {
    if (auto store = weak.lock()) {
      fired += store->FaultsFired();
      ++live;
    }
  }
  return {{"error_rate", plan_.error_rate}, {"latency_ms", plan_.latency_ms},
          {"short_write_rate", plan_.short_write_rate}, {"stores", live}, {"faults_fired", fired}};
}

}  // namespace floe::up
