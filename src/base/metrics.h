// Metrics in Prometheus' text exposition format, served by every long-running role at /metrics.
//
// A MetricsRegistry owns named metric families; each family hands out one series per label
// set. Series are created once (under the registry's lock) and then updated lock-free from any
// thread, so hot paths (every produced batch, every query) pay one atomic add.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace floe {

// Label pairs in a fixed order: {{"topic", "orders"}, {"partition", "0"}}.
using Labels = std::vector<std::pair<std::string, std::string>>;

class Counter {
 public:
  void Increment(uint64_t delta = 1) { value_.fetch_add(delta, std::memory_order_relaxed); }
  uint64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

class Gauge {
 public:
  void Set(double value) { value_.store(value, std::memory_order_relaxed); }
  void Add(double delta);
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

// Cumulative buckets with fixed upper bounds (seconds for latencies, by convention).
class Histogram {
 public:
  explicit Histogram(std::vector<double> upper_bounds);
  void Observe(double value);

  const std::vector<double>& upper_bounds() const { return upper_bounds_; }
  // Count of observations <= upper_bounds()[i] (not cumulative; the exposition accumulates).
  uint64_t bucket_count(size_t i) const { return buckets_[i].load(std::memory_order_relaxed); }
  uint64_t count() const { return count_.load(std::memory_order_relaxed); }
  double sum() const { return sum_.load(std::memory_order_relaxed); }
  // The smallest bucket bound below which a fraction q of observations fall (an upper estimate).
  double Quantile(double q) const;

 private:
  std::vector<double> upper_bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> buckets_;  // One per bound, plus +Inf at the end.
  std::atomic<uint64_t> count_{0};
  std::atomic<double> sum_{0};
};

// Latency buckets from 100 µs to 10 s, for request and commit latencies in seconds.
std::vector<double> LatencyBuckets();

class MetricsRegistry {
 public:
  // Returns the series of family `name` with `labels`, creating both on first use. The help
  // text of the first call wins. Returned references live as long as the registry.
  Counter& GetCounter(std::string_view name, std::string_view help, const Labels& labels = {});
  Gauge& GetGauge(std::string_view name, std::string_view help, const Labels& labels = {});
  Histogram& GetHistogram(std::string_view name, std::string_view help, const Labels& labels = {},
                          std::vector<double> upper_bounds = LatencyBuckets());

  // The whole registry in Prometheus text format 0.0.4.
  std::string RenderPrometheusText() const;

 private:
  enum class Kind { kCounter, kGauge, kHistogram };
  struct Family {
    Kind kind;
    std::string help;
    std::map<Labels, std::unique_ptr<Counter>> counters;
    std::map<Labels, std::unique_ptr<Gauge>> gauges;
    std::map<Labels, std::unique_ptr<Histogram>> histograms;
  };
  Family& GetFamily(std::string_view name, std::string_view help, Kind kind);

  mutable std::mutex mutex_;
  std::map<std::string, Family, std::less<>> families_;  // Guarded by mutex_.
};

}  // namespace floe
