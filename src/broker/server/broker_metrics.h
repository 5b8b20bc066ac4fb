// Counters the broker exports in Prometheus text format at /metrics: bytes in and out,
// connections, rejected frames, request counts and latency by API, and the log cleaner's work. Gauges (high
// watermarks, consumer-group lag) are read from the logs and groups when rendered.
//
// Owned by the Broker; written and read on the I/O thread only.
#pragma once

#include <array>
#include <cstdint>

namespace floe::broker {

struct BrokerMetrics {
  static constexpr size_t kApiSlots = 64;
  // Upper bounds (seconds) of the request-latency histogram buckets.
  static constexpr std::array<double, 8> kLatencyBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25, 1.0};

  uint64_t bytes_in = 0;
  uint64_t bytes_out = 0;
  uint64_t connections_accepted = 0;
  uint64_t connections_rejected = 0;
  int64_t connections_open = 0;
  uint64_t frames_rejected = 0;
  uint64_t records_batches_in = 0;
  // The log cleaner: passes installed, passes failed, what they removed, and when the last
  // one finished (Unix ms, 0 before the first).
  uint64_t cleaner_passes = 0;
  uint64_t cleaner_failures = 0;
  uint64_t cleaner_bytes_removed = 0;
  uint64_t cleaner_records_removed = 0;
  int64_t cleaner_last_clean_ms = 0;
  std::array<uint64_t, kApiSlots> requests{};
  std::array<double, kApiSlots> latency_seconds_sum{};
  std::array<std::array<uint64_t, kLatencyBuckets.size()>, kApiSlots> latency_buckets{};

  void RecordRequest(int16_t api_key, double seconds) {
    if (api_key < 0 || static_cast<size_t>(api_key) >= kApiSlots) return;
    auto slot = static_cast<size_t>(api_key);
    ++requests[slot];
    latency_seconds_sum[slot] += seconds;
    for (size_t i = 0; i < kLatencyBuckets.size(); ++i) {
      if (seconds <= kLatencyBuckets[i]) ++latency_buckets[slot][i];
    }
  }
};

}  // namespace floe::broker
