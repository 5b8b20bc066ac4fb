#include "io/fault_injecting_object_store.h"

#include <thread>

namespace floe::io {

std::string_view ObjectOpName(ObjectOp op) {
  switch (op) {
    case ObjectOp::kAny: return "any";
    case ObjectOp::kGet: return "get";
    case ObjectOp::kGetRange: return "get-range";
    case ObjectOp::kHead: return "head";
    case ObjectOp::kOpenInput: return "open-input";
    case ObjectOp::kRead: return "read";
    case ObjectOp::kPut: return "put";
    case ObjectOp::kPutIfAbsent: return "put-if-absent";
    case ObjectOp::kOpenOutput: return "open-output";
    case ObjectOp::kAppend: return "append";
    case ObjectOp::kClose: return "close";
    case ObjectOp::kDelete: return "delete";
    case ObjectOp::kDeleteMany: return "delete-many";
    case ObjectOp::kList: return "list";
  }
  return "unknown";
}

namespace {

using Decision = FaultInjectingObjectStore::Decision;

// Runs `call` under `d`: delay, then fail before or after it.
template <typename Call>
auto Apply(const Decision& d, Call&& call) -> decltype(call()) {
  if (d.latency.count() > 0) std::this_thread::sleep_for(d.latency);
  if (d.error && !d.after_success) return std::unexpected<Error>(*d.error);
  auto result = call();
  if (d.error && result) return std::unexpected<Error>(*d.error);
  return result;
}

class FaultyInputFile final : public InputFile {
 public:
  FaultyInputFile(std::unique_ptr<InputFile> inner, FaultInjectingObjectStore& owner, std::string key)
      : inner_(std::move(inner)), owner_(owner), key_(std::move(key)) {}
  uint64_t Size() const override { return inner_->Size(); }
  Result<std::string> ReadAt(uint64_t offset, uint64_t length) const override {
    return Apply(owner_.Decide(ObjectOp::kRead, key_), [&] { return inner_->ReadAt(offset, length); });
  }
  const std::string& location() const override { return inner_->location(); }

 private:
  std::unique_ptr<InputFile> inner_;
  FaultInjectingObjectStore& owner_;
  std::string key_;
};

class FaultyOutputStream final : public OutputStream {
 public:
  FaultyOutputStream(std::unique_ptr<OutputStream> inner, FaultInjectingObjectStore& owner, std::string key)
      : inner_(std::move(inner)), owner_(owner), key_(std::move(key)) {}
  Status Append(std::string_view bytes) override {
    Decision d = owner_.Decide(ObjectOp::kAppend, key_);
    if (d.short_write && d.error) {
      if (d.latency.count() > 0) std::this_thread::sleep_for(d.latency);
      (void)inner_->Append(bytes.substr(0, bytes.size() / 2));
      return std::unexpected<Error>(*d.error);
    }
    return Apply(d, [&] { return inner_->Append(bytes); });
  }
  Status Close() override {
    return Apply(owner_.Decide(ObjectOp::kClose, key_), [&] { return inner_->Close(); });
  }
  void Abort() override { inner_->Abort(); }
  uint64_t BytesWritten() const override { return inner_->BytesWritten(); }

 private:
  std::unique_ptr<OutputStream> inner_;
  FaultInjectingObjectStore& owner_;
  std::string key_;
};

}  // namespace

FaultInjectingObjectStore::FaultInjectingObjectStore(std::unique_ptr<ObjectStore> inner, uint64_t seed)
    : inner_(std::move(inner)), rng_(seed) {}

void FaultInjectingObjectStore::Inject(Fault fault) {
  std::lock_guard lock(mu_);
  faults_.push_back(Armed{.fault = std::move(fault)});
}

void FaultInjectingObjectStore::Clear() {
  std::lock_guard lock(mu_);
  faults_.clear();
}

uint64_t FaultInjectingObjectStore::Calls(ObjectOp op) const {
  std::lock_guard lock(mu_);
  if (op == ObjectOp::kAny) {
    uint64_t total = 0;
    for (uint64_t c : calls_) total += c;
    return total;
  }
  return calls_[static_cast<size_t>(op)];
}

uint64_t FaultInjectingObjectStore::FaultsFired() const {
  std::lock_guard lock(mu_);
  return fired_;
}

FaultInjectingObjectStore::Decision FaultInjectingObjectStore::Decide(ObjectOp op, std::string_view key) {
  std::lock_guard lock(mu_);
  calls_[static_cast<size_t>(op)]++;
  for (Armed& armed : faults_) {
    const Fault& f = armed.fault;
    if (f.op != ObjectOp::kAny && f.op != op) continue;
    if (!f.key_contains.empty() && key.find(f.key_contains) == std::string_view::npos) continue;
    uint64_t n = ++armed.matched;
    if (n < f.at_call) continue;
    if (f.times != Fault::kForever && armed.fired >= f.times) continue;
    if (f.probability < 1.0 && std::uniform_real_distribution<double>(0, 1)(rng_) >= f.probability) continue;
    armed.fired++;
    fired_++;
    Decision d{.latency = f.latency, .short_write = f.short_write, .after_success = f.after_success};
    if (f.error) {
      d.error = Error(*f.error, fmt::format("{} ({} {} call {})", f.message, ObjectOpName(op), key, n));
    }
    return d;
  }
  return {};
}

Result<std::string> FaultInjectingObjectStore::Get(std::string_view key) {
  return Apply(Decide(ObjectOp::kGet, key), [&] { return inner_->Get(key); });
}

Result<std::string> FaultInjectingObjectStore::GetRange(std::string_view key, uint64_t offset, uint64_t length) {
  return Apply(Decide(ObjectOp::kGetRange, key), [&] { return inner_->GetRange(key, offset, length); });
}

Result<ObjectInfo> FaultInjectingObjectStore::Head(std::string_view key) {
  return Apply(Decide(ObjectOp::kHead, key), [&] { return inner_->Head(key); });
}

Result<std::unique_ptr<InputFile>> FaultInjectingObjectStore::OpenInput(std::string_view key) {
  return Apply(Decide(ObjectOp::kOpenInput, key), [&]() -> Result<std::unique_ptr<InputFile>> {
    FLOE_ASSIGN_OR_RETURN(auto file, inner_->OpenInput(key));
    return std::make_unique<FaultyInputFile>(std::move(file), *this, std::string(key));
  });
}

Status FaultInjectingObjectStore::Put(std::string_view key, std::string_view bytes) {
  Decision d = Decide(ObjectOp::kPut, key);
  if (d.short_write && d.error) {
    if (d.latency.count() > 0) std::this_thread::sleep_for(d.latency);
    (void)inner_->Put(key, bytes.substr(0, bytes.size() / 2));
    return std::unexpected<Error>(*d.error);
  }
  return Apply(d, [&] { return inner_->Put(key, bytes); });
}

Status FaultInjectingObjectStore::PutIfAbsent(std::string_view key, std::string_view bytes) {
  return Apply(Decide(ObjectOp::kPutIfAbsent, key), [&] { return inner_->PutIfAbsent(key, bytes); });
}

Result<std::unique_ptr<OutputStream>> FaultInjectingObjectStore::OpenOutput(std::string_view key) {
  return Apply(Decide(ObjectOp::kOpenOutput, key), [&]() -> Result<std::unique_ptr<OutputStream>> {
    FLOE_ASSIGN_OR_RETURN(auto out, inner_->OpenOutput(key));
    return std::make_unique<FaultyOutputStream>(std::move(out), *this, std::string(key));
  });
}

Status FaultInjectingObjectStore::Delete(std::string_view key) {
  return Apply(Decide(ObjectOp::kDelete, key), [&] { return inner_->Delete(key); });
}

Status FaultInjectingObjectStore::DeleteMany(const std::vector<std::string>& keys) {
  return Apply(Decide(ObjectOp::kDeleteMany, keys.empty() ? std::string_view() : std::string_view(keys.front())),
               [&] { return inner_->DeleteMany(keys); });
}

Result<ListResult> FaultInjectingObjectStore::List(std::string_view prefix, std::string_view delimiter,
                                                   std::optional<std::string> continuation_token, int max_keys) {
  return Apply(Decide(ObjectOp::kList, prefix),
               [&] { return inner_->List(prefix, delimiter, std::move(continuation_token), max_keys); });
}

std::string FaultInjectingObjectStore::Uri(std::string_view key) const { return inner_->Uri(key); }

}  // namespace floe::io
