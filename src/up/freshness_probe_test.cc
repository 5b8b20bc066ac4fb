// The freshness probe against a scripted sender and counter: which read saw the marker first,
// one probe at a time, errors kept while it looks, and giving up after its timeout.
#include "up/freshness_probe.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace floe::up {
namespace {

using nlohmann::json;

// Polls `probe` until its last probe is no longer running, within a generous deadline.
json WaitUntilDone(const FreshnessProbe& probe) {
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  json state = probe.ToJson();
  while (state["running"] == true && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    state = probe.ToJson();
  }
  return state;
}

TEST(FreshnessProbeTest, TheLiveReadSeesTheMarkerBeforeTheSnapshotRead) {
  std::atomic<int> live_polls{0}, snapshot_polls{0};
  std::atomic<int> sent{0};
  FreshnessProbe probe([&]() -> Result<std::string> { return sent++ == 0 ? "00ff" : "00fe"; },
                       [&](std::string_view event_id, std::string_view freshness) -> Result<int64_t> {
                         EXPECT_TRUE(event_id == "00ff" || event_id == "00fe") << event_id;
                         // Live finds it on its second poll; the snapshot only after its fifth (a commit later).
                         if (freshness == "live") return ++live_polls >= 2 ? 1 : 0;
                         EXPECT_EQ(freshness, "snapshot");
                         return ++snapshot_polls >= 5 ? 1 : 0;
                       },
                       {.poll_millis = 20});
  auto first = probe.Start();
  ASSERT_TRUE(first) << first.error().ToString();
  EXPECT_EQ(*first, "00ff");
  json state = WaitUntilDone(probe);
  ASSERT_EQ(state["running"], false) << state.dump();
  ASSERT_EQ(state["probes"].size(), 1u);
  const json& result = state["probes"][0];
  EXPECT_EQ(result["event_id"], "00ff");
  ASSERT_TRUE(result["live_ms"].is_number()) << result.dump();
  ASSERT_TRUE(result["snapshot_ms"].is_number()) << result.dump();
  EXPECT_LT(result["live_ms"].get<int64_t>(), result["snapshot_ms"].get<int64_t>()) << result.dump();
  EXPECT_EQ(result["timed_out"], false);
  // Once seen, a read is not asked again.
  EXPECT_EQ(live_polls.load(), 2);
  EXPECT_EQ(snapshot_polls.load(), 5);

  // The next probe is kept after the first.
  ASSERT_TRUE(probe.Start());
  state = WaitUntilDone(probe);
  ASSERT_EQ(state["probes"].size(), 2u);
  EXPECT_EQ(state["probes"][1]["event_id"], "00fe");
}

TEST(FreshnessProbeTest, OneAtATimeAndItGivesUpAfterItsTimeout) {
  std::atomic<bool> fail{true};
  FreshnessProbe probe([]() -> Result<std::string> { return std::string("abc123"); },
                       [&](std::string_view, std::string_view) -> Result<int64_t> {
                         if (fail.load()) return Unavailable("the catalog is down");
                         return 0;  // Never seen.
                       },
                       {.poll_millis = 10, .timeout_millis = 300});
  ASSERT_TRUE(probe.Start());
  auto second = probe.Start();
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().kind(), ErrorKind::kConflict);
  // While the counter fails, the probe shows why and keeps looking.
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (probe.ToJson()["probes"][0]["error"].is_null() && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(probe.ToJson()["probes"][0]["error"], "the catalog is down");
  fail.store(false);
  json state = WaitUntilDone(probe);
  const json& result = state["probes"][0];
  EXPECT_EQ(result["timed_out"], true) << result.dump();
  EXPECT_TRUE(result["live_ms"].is_null());
  EXPECT_TRUE(result["snapshot_ms"].is_null());
  EXPECT_TRUE(result["error"].is_null()) << result.dump();
}

TEST(FreshnessProbeTest, ASendThatFailsStartsNothingAndOddIdsAreRefused) {
  FreshnessProbe down([]() -> Result<std::string> { return Unavailable("the generator is down"); },
                      [](std::string_view, std::string_view) -> Result<int64_t> { return 1; }, {});
  auto refused = down.Start();
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind(), ErrorKind::kUnavailable);
  EXPECT_TRUE(down.ToJson()["probes"].empty());
  EXPECT_EQ(down.ToJson()["running"], false);

  // The id goes into SQL: only the generator's hex ids are taken.
  FreshnessProbe odd([]() -> Result<std::string> { return std::string("x' OR '1'='1"); },
                     [](std::string_view, std::string_view) -> Result<int64_t> { return 1; }, {});
  auto injected = odd.Start();
  ASSERT_FALSE(injected);
  EXPECT_EQ(injected.error().kind(), ErrorKind::kInternal);
}

TEST(FreshnessProbeTest, StopEndsALongProbe) {
  FreshnessProbe probe([]() -> Result<std::string> { return std::string("beef"); },
                       [](std::string_view, std::string_view) -> Result<int64_t> { return 0; },
                       {.poll_millis = 60'000});
  ASSERT_TRUE(probe.Start());
  probe.Stop();  // Returns at once: the wait between polls is interrupted.
  EXPECT_EQ(probe.ToJson()["running"], false);
}

}  // namespace
}  // namespace floe::up
