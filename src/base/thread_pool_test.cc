#include "base/thread_pool.h"

#include <atomic>

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(ThreadPool, RunsEveryTaskIncludingOnesSubmittedFromTasks) {
  std::atomic<int> count{0};
  {
    ThreadPool pool(3);
    for (int i = 0; i < 100; ++i) {
      pool.Submit([&] {
        count.fetch_add(1);
        if (count.load() % 10 == 0) pool.Submit([&] { count.fetch_add(1000); });
      });
    }
    pool.Wait();
    EXPECT_GE(count.load(), 100);
  }
  EXPECT_EQ(count.load() % 1000, 100);
}

TEST(ThreadPool, DestructorFinishesQueuedWork) {
  std::atomic<int> count{0};
  {
    ThreadPool pool(1);
    for (int i = 0; i < 50; ++i) pool.Submit([&] { count.fetch_add(1); });
  }
  EXPECT_EQ(count.load(), 50);
}

}  // namespace
}  // namespace floe
