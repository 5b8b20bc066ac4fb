#include "base/metrics.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace floe {
namespace {

void AtomicAdd(std::atomic<double>& target, double delta) {
  double current = target.load(std::memory_order_relaxed);
  while (!target.compare_exchange_weak(current, current + delta, std::memory_order_relaxed)) {
  }
}

// Label values escape backslash, double quote and newline (the exposition format's rules).
std::string RenderLabels(const Labels& labels, std::string_view extra_name = {}, std::string_view extra_value = {}) {
  if (labels.empty() && extra_name.empty()) return "";
  std::string out = "{";
  auto append = [&out](std::string_view name, std::string_view value) {
    if (out.size() > 1) out += ',';
    out += name;
    out += "=\"";
    for (char c : value) {
      if (c == '\\' || c == '"') out += '\\';
      if (c == '\n') {
        out += "\\n";
        continue;
      }
      out += c;
    }
    out += '"';
  };
  for (const auto& [name, value] : labels) append(name, value);
  if (!extra_name.empty()) append(extra_name, extra_value);
  out += '}';
  return out;
}

std::string FormatNumber(double v) {
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (std::isnan(v)) return "NaN";
  return fmt::format("{}", v);
}

}  // namespace

void Gauge::Add(double delta) { AtomicAdd(value_, delta); }

Histogram::Histogram(std::vector<double> upper_bounds)
    : upper_bounds_(std::move(upper_bounds)),
      buckets_(std::make_unique<std::atomic<uint64_t>[]>(upper_bounds_.size() + 1)) {
  std::sort(upper_bounds_.begin(), upper_bounds_.end());
}

void Histogram::Observe(double value) {
  size_t i = static_cast<size_t>(std::lower_bound(upper_bounds_.begin(), upper_bounds_.end(), value) -
                                 upper_bounds_.begin());
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
  AtomicAdd(sum_, value);
}

double Histogram::Quantile(double q) const {
  uint64_t total = count();
  if (total == 0) return 0;
  auto rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(total)));
  uint64_t seen = 0;
  for (size_t i = 0; i < upper_bounds_.size(); ++i) {
    seen += bucket_count(i);
    if (seen >= rank) return upper_bounds_[i];
  }
  return std::numeric_limits<double>::infinity();
}

std::vector<double> LatencyBuckets() {
  return {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
}

MetricsRegistry::Family& MetricsRegistry::GetFamily(std::string_view name, std::string_view help, Kind kind) {
  auto it = families_.find(name);
  if (it == families_.end()) it = families_.emplace(std::string(name), Family{kind, std::string(help), {}, {}, {}}).first;
  return it->second;
}

Counter& MetricsRegistry::GetCounter(std::string_view name, std::string_view help, const Labels& labels) {
  std::lock_guard lock(mutex_);
  auto& slot = GetFamily(name, help, Kind::kCounter).counters[labels];
  if (!slot) slot = std::make_unique<Counter>();
  return *slot;
}

Gauge& MetricsRegistry::GetGauge(std::string_view name, std::string_view help, const Labels& labels) {
  std::lock_guard lock(mutex_);
  auto& slot = GetFamily(name, help, Kind::kGauge).gauges[labels];
  if (!slot) slot = std::make_unique<Gauge>();
  return *slot;
}

Histogram& MetricsRegistry::GetHistogram(std::string_view name, std::string_view help, const Labels& labels,
                                         std::vector<double> upper_bounds) {
  std::lock_guard lock(mutex_);
  auto& slot = GetFamily(name, help, Kind::kHistogram).histograms[labels];
  if (!slot) slot = std::make_unique<Histogram>(std::move(upper_bounds));
  return *slot;
}

std::string MetricsRegistry::RenderPrometheusText() const {
  std::lock_guard lock(mutex_);
  std::string out;
  for (const auto& [name, family] : families_) {
    static constexpr std::string_view kTypeNames[] = {"counter", "gauge", "histogram"};
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, family.help, name,
                       kTypeNames[static_cast<int>(family.kind)]);
    for (const auto& [labels, counter] : family.counters) {
      out += fmt::format("{}{} {}\n", name, RenderLabels(labels), counter->value());
    }
    for (const auto& [labels, gauge] : family.gauges) {
      out += fmt::format("{}{} {}\n", name, RenderLabels(labels), FormatNumber(gauge->value()));
    }
    for (const auto& [labels, histogram] : family.histograms) {
      uint64_t cumulative = 0;
      const auto& bounds = histogram->upper_bounds();
      for (size_t i = 0; i <= bounds.size(); ++i) {
        cumulative += histogram->bucket_count(i);
        std::string le = i < bounds.size() ? FormatNumber(bounds[i]) : "+Inf";
        out += fmt::format("{}_bucket{} {}\n", name, RenderLabels(labels, "le", le), cumulative);
      }
      out += fmt::format("{}_sum{} {}\n", name, RenderLabels(labels), FormatNumber(histogram->sum()));
      out += fmt::format("{}_count{} {}\n", name, RenderLabels(labels), histogram->count());
    }
  }
  return out;
}

}  // namespace floe
