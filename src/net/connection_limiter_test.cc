// The connection caps every listener shares (issue #27): total and per address, slots that give
// their place back when destroyed or moved over, and many threads admitting at once.
#include "net/connection_limiter.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace floe::net {
namespace {

TEST(ConnectionLimiter, CapsEachAddressAndTheTotal) {
  ConnectionLimiter limiter({.max_total = 5, .max_per_address = 2});
  std::vector<ConnectionSlot> held;
  for (int i = 0; i < 2; ++i) {
    auto slot = limiter.Admit("127.0.0.1");
    ASSERT_TRUE(slot.has_value());
    held.push_back(std::move(*slot));
  }
  auto third = limiter.Admit("127.0.0.1");
  ASSERT_FALSE(third.has_value());
  EXPECT_EQ(third.error().kind(), ErrorKind::kResourceExhausted);
  EXPECT_NE(third.error().message().find("from 127.0.0.1"), std::string::npos) << third.error().message();
  // Another address is still served, up to the total.
  for (const char* address : {"127.0.0.2", "127.0.0.2", "::1"}) {
    auto slot = limiter.Admit(address);
    ASSERT_TRUE(slot.has_value()) << address;
    held.push_back(std::move(*slot));
  }
  EXPECT_EQ(limiter.open(), 5u);
  auto over = limiter.Admit("10.0.0.9");
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().kind(), ErrorKind::kResourceExhausted);
  // A connection that ends gives its place back.
  held.erase(held.begin());
  EXPECT_EQ(limiter.open_from("127.0.0.1"), 1u);
  EXPECT_TRUE(limiter.Admit("127.0.0.1").has_value());  // Admitted, then released at once.
  EXPECT_EQ(limiter.open(), 4u);
}

TEST(ConnectionLimiter, SlotsReleaseOnceWhenMovedAndOutliveTheLimiter) {
  ConnectionSlot outliving;
  {
    ConnectionLimiter limiter({.max_total = 10, .max_per_address = 1});
    auto first = limiter.Admit("a");
    ASSERT_TRUE(first.has_value());
    ConnectionSlot moved = std::move(*first);
    ConnectionSlot again;
    again = std::move(moved);
    EXPECT_EQ(limiter.open_from("a"), 1u);
    again = ConnectionSlot();  // Released here, once.
    EXPECT_EQ(limiter.open_from("a"), 0u);
    EXPECT_EQ(limiter.open(), 0u);
    auto kept = limiter.Admit("a");
    ASSERT_TRUE(kept.has_value());
    outliving = std::move(*kept);
  }
  // The limiter is gone; destroying the slot afterwards is safe (ASan checks).
}

TEST(ConnectionLimiter, ManyThreadsNeverPassTheCaps) {
  ConnectionLimiter limiter({.max_total = 64, .max_per_address = 16});
  std::vector<std::thread> threads;
  std::atomic<int> admitted_at_peak{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      std::string address = "10.0.0." + std::to_string(t % 4);
      for (int round = 0; round < 200; ++round) {
        std::vector<ConnectionSlot> mine;
        for (int i = 0; i < 8; ++i) {
          if (auto slot = limiter.Admit(address)) mine.push_back(std::move(*slot));
        }
        EXPECT_LE(limiter.open_from(address), 16u);
        EXPECT_LE(limiter.open(), 64u);
        admitted_at_peak = std::max<int>(admitted_at_peak, static_cast<int>(limiter.open()));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(limiter.open(), 0u);
  EXPECT_GT(admitted_at_peak.load(), 0);
}

}  // namespace
}  // namespace floe::net
