#include "base/metrics.h"

#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace floe {
namespace {

using ::testing::HasSubstr;

TEST(Metrics, RendersEveryKindInPrometheusTextFormat) {
  MetricsRegistry registry;
  registry.GetCounter("floe_broker_bytes_in_total", "Bytes produced", {{"topic", "orders"}}).Increment(42);
  registry.GetGauge("floe_stream_lag", "Records behind", {{"partition", "0"}}).Set(7);
  auto& latency = registry.GetHistogram("floe_request_seconds", "Request latency", {{"api", "Produce"}}, {0.01, 0.1});
  latency.Observe(0.005);
  latency.Observe(0.05);
  latency.Observe(5);
  std::string text = registry.RenderPrometheusText();
  EXPECT_THAT(text, HasSubstr("# TYPE floe_broker_bytes_in_total counter\n"
                              "floe_broker_bytes_in_total{topic=\"orders\"} 42\n"));
  EXPECT_THAT(text, HasSubstr("floe_stream_lag{partition=\"0\"} 7\n"));
  EXPECT_THAT(text, HasSubstr("floe_request_seconds_bucket{api=\"Produce\",le=\"0.01\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("floe_request_seconds_bucket{api=\"Produce\",le=\"0.1\"} 2\n"));
  EXPECT_THAT(text, HasSubstr("floe_request_seconds_bucket{api=\"Produce\",le=\"+Inf\"} 3\n"));
  EXPECT_THAT(text, HasSubstr("floe_request_seconds_count{api=\"Produce\"} 3\n"));
}

TEST(Metrics, LabelValuesAreEscaped) {
  MetricsRegistry registry;
  registry.GetCounter("c", "h", {{"path", "a\"b\\c\nd"}}).Increment();
  EXPECT_THAT(registry.RenderPrometheusText(), HasSubstr("c{path=\"a\\\"b\\\\c\\nd\"} 1"));
}

TEST(Metrics, ConcurrentUpdatesAreAllCounted) {
  MetricsRegistry registry;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) {
        registry.GetCounter("n", "h").Increment();
        registry.GetHistogram("l", "h").Observe(0.001);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(registry.GetCounter("n", "h").value(), 40000u);
  EXPECT_EQ(registry.GetHistogram("l", "h").count(), 40000u);
  EXPECT_DOUBLE_EQ(registry.GetHistogram("l", "h").Quantile(0.99), 0.001);
}

}  // namespace
}  // namespace floe
