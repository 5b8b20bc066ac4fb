// FaultInjectingObjectStore: wraps a store and makes chosen calls slow, fail, tear or lose
// their acknowledgement, so every layer above can test how it survives a bad store.
//
//   auto store = std::make_unique<FaultInjectingObjectStore>(std::move(local));
//   store->Inject({.op = ObjectOp::kPutIfAbsent, .key_contains = "metadata", .at_call = 2});
//
// Faults are matched in the order injected; the first one that matches a call applies. Call
// counts per operation are kept for assertions. Owns the wrapped store. Thread-safe.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "io/object_store.h"

namespace floe::io {

enum class ObjectOp {
  kAny,
  kGet,
  kGetRange,
  kHead,
  kOpenInput,
  kRead,  // InputFile::ReadAt on a file this wrapper opened
  kPut,
  kPutIfAbsent,
  kOpenOutput,
  kAppend,  // OutputStream::Append
  kClose,   // OutputStream::Close
  kDelete,
  kDeleteMany,
  kList,
};
inline constexpr size_t kObjectOpCount = static_cast<size_t>(ObjectOp::kList) + 1;

std::string_view ObjectOpName(ObjectOp op);

struct Fault {
  static constexpr uint64_t kForever = std::numeric_limits<uint64_t>::max();

  ObjectOp op = ObjectOp::kAny;
  std::string key_contains;  // Only calls whose key (or list prefix) contains this.
  uint64_t at_call = 1;      // The first matching call (1-based) the fault applies to...
  uint64_t times = 1;        // ...and how many matching calls from there on (kForever: all).
  double probability = 1.0;  // Chance that an eligible call is hit (seeded, reproducible).
  std::chrono::milliseconds latency{0};  // Delay before the call runs.
  // The error returned; nullopt for a latency-only fault.
  std::optional<ErrorKind> error = ErrorKind::kUnavailable;
  std::string message = "injected fault";
  // Put/Append: pass only the first half of the bytes on, then fail (a torn write).
  bool short_write = false;
  // Let the call succeed in the wrapped store, then report the error (a lost acknowledgement).
  bool after_success = false;
};

class FaultInjectingObjectStore final : public ObjectStore {
 public:
  explicit FaultInjectingObjectStore(std::unique_ptr<ObjectStore> inner, uint64_t seed = 42);

  void Inject(Fault fault);
  void Clear();
  // Calls seen per operation (faulted or not).
  uint64_t Calls(ObjectOp op) const;
  uint64_t FaultsFired() const;
  ObjectStore& inner() { return *inner_; }

  Result<std::string> Get(std::string_view key) override;
  Result<std::string> GetRange(std::string_view key, uint64_t offset, uint64_t length) override;
  Result<ObjectInfo> Head(std::string_view key) override;
  Result<std::unique_ptr<InputFile>> OpenInput(std::string_view key) override;
  Status Put(std::string_view key, std::string_view bytes) override;
  Status PutIfAbsent(std::string_view key, std::string_view bytes) override;
  Result<std::unique_ptr<OutputStream>> OpenOutput(std::string_view key) override;
  Status Delete(std::string_view key) override;
  Status DeleteMany(const std::vector<std::string>& keys) override;
  Result<ListResult> List(std::string_view prefix, std::string_view delimiter,
                          std::optional<std::string> continuation_token, int max_keys = 1000) override;
  Result<std::vector<ObjectInfo>> ListUnfinishedWrites(std::string_view prefix) override {
    return inner_->ListUnfinishedWrites(prefix);
  }
  Status DeleteUnfinishedWrites(const std::vector<std::string>& keys) override { return inner_->DeleteUnfinishedWrites(keys); }
  std::string Uri(std::string_view key) const override;
  std::optional<std::string> KeyForUri(std::string_view uri) const override { return inner_->KeyForUri(uri); }

  // What a call must do, decided by the faults. Public for the wrapped files and streams.
  struct Decision {
    std::chrono::milliseconds latency{0};
    std::optional<Error> error;
    bool short_write = false;
    bool after_success = false;
  };
  Decision Decide(ObjectOp op, std::string_view key);

 private:
  struct Armed {
    Fault fault;
    uint64_t matched = 0;
    uint64_t fired = 0;
  };

  std::unique_ptr<ObjectStore> inner_;
  mutable std::mutex mu_;
  std::vector<Armed> faults_;                      // Guarded by mu_.
  std::array<uint64_t, kObjectOpCount> calls_{};   // Guarded by mu_.
  uint64_t fired_ = 0;                             // Guarded by mu_.
  std::mt19937_64 rng_;                            // Guarded by mu_.
};

}  // namespace floe::io
