// Clocks, injectable so that time-dependent logic (retention, session timeouts, triggers,
// snapshot expiry) is tested without sleeping.
//
// SystemClock reads the real clocks; ManualClock only moves when a test advances it. Both are
// thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace floe {

class Clock {
 public:
  virtual ~Clock() = default;
  // Wall-clock time in milliseconds since the Unix epoch (timestamps written to files).
  virtual int64_t NowMillis() const = 0;
  // Monotonic time in nanoseconds since an arbitrary origin (timeouts, latencies).
  virtual int64_t MonotonicNanos() const = 0;

  // The process-wide real clock.
  static Clock& System();
};

class SystemClock final : public Clock {
 public:
  int64_t NowMillis() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  int64_t MonotonicNanos() const override {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
};

class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t now_millis = 0) : now_nanos_(now_millis * 1'000'000) {}
  int64_t NowMillis() const override { return now_nanos_.load() / 1'000'000; }
  int64_t MonotonicNanos() const override { return now_nanos_.load(); }
  void AdvanceMillis(int64_t millis) { now_nanos_ += millis * 1'000'000; }

 private:
  std::atomic<int64_t> now_nanos_;
};

inline Clock& Clock::System() {
  static SystemClock clock;
  return clock;
}

}  // namespace floe
