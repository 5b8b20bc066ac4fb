#include "up/freshness_probe.h"

#include "base/clock.h"

namespace floe::up {
namespace {

// Event ids are made by the generator (32 lowercase hex characters); the counter puts the id
// into SQL, so anything else is refused rather than quoted.
bool IsEventId(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

FreshnessProbe::FreshnessProbe(MarkerSender send, MarkerCounter count, Options options)
    : send_(std::move(send)), count_(std::move(count)), options_(options) {}

FreshnessProbe::~FreshnessProbe() { Stop(); }

Result<std::string> FreshnessProbe::Start() {
  std::lock_guard start_lock(start_mutex_);
  {
    std::lock_guard lock(mutex_);
    if (running_) return Conflict("a freshness probe is still looking for its marker {}", probes_.back().event_id);
    stopping_ = false;
  }
  if (thread_.joinable()) thread_.join();  // The previous probe, finished.
  FLOE_ASSIGN_OR_RETURN_CTX(std::string event_id, send_(), "sending the freshness marker");
  if (!IsEventId(event_id)) return Internal("the generator answered marker id '{}', not an event id", event_id);
  int64_t sent_ms = Clock::System().NowMillis();
  {
    std::lock_guard lock(mutex_);
    probes_.push_back({.event_id = event_id, .sent_ms = sent_ms});
    while (probes_.size() > options_.keep) probes_.pop_front();
    running_ = true;
  }
  thread_ = std::thread([this, event_id, sent_ms] { Poll(event_id, sent_ms); });
  return event_id;
}

void FreshnessProbe::Poll(std::string event_id, int64_t sent_ms) {
  Clock& clock = Clock::System();
  bool live_seen = false, snapshot_seen = false;
  while (true) {
    for (auto [freshness, seen] : {std::pair{"live", &live_seen}, std::pair{"snapshot", &snapshot_seen}}) {
      if (*seen) continue;
      Result<int64_t> rows = count_(event_id, freshness);
      int64_t now = clock.NowMillis();
      std::lock_guard lock(mutex_);
      Probe& probe = probes_.back();
      if (!rows) {
        probe.error = rows.error().message();
        continue;
      }
      probe.error.clear();
      if (*rows > 0) {
        *seen = true;
        (std::string_view(freshness) == "live" ? probe.live_ms : probe.snapshot_ms) = now - sent_ms;
      }
    }
    std::unique_lock lock(mutex_);
    if (live_seen && snapshot_seen) break;
    if (clock.NowMillis() - sent_ms > options_.timeout_millis) {
      probes_.back().timed_out = true;
      break;
    }
    if (wake_.wait_for(lock, std::chrono::milliseconds(options_.poll_millis), [this] { return stopping_; })) break;
  }
  std::lock_guard lock(mutex_);
  running_ = false;
}

void FreshnessProbe::Stop() {
  std::lock_guard start_lock(start_mutex_);
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

nlohmann::json FreshnessProbe::ToJson() const {
  std::lock_guard lock(mutex_);
  nlohmann::json probes = nlohmann::json::array();
  auto latency = [](const std::optional<int64_t>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
  for (const Probe& p : probes_) {
    probes.push_back({{"event_id", p.event_id},
                      {"sent_ms", p.sent_ms},
                      {"live_ms", latency(p.live_ms)},
                      {"snapshot_ms", latency(p.snapshot_ms)},
                      {"timed_out", p.timed_out},
                      {"error", p.error.empty() ? nlohmann::json() : nlohmann::json(p.error)}});
  }
  return {{"running", running_}, {"probes", probes}};
}

}  // namespace floe::up
