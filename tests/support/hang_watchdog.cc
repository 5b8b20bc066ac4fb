#include "support/hang_watchdog.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace floe::testing {
namespace {

class HangWatchdog final : public ::testing::EmptyTestEventListener {
 public:
  explicit HangWatchdog(std::chrono::seconds limit) : limit_(limit) {
    // Detached: the process ends with the tests, and a hung test must not be joined.
    std::thread([this] { Watch(); }).detach();
  }

  void OnTestStart(const ::testing::TestInfo& info) override {
    std::lock_guard lock(mutex_);
    running_ = std::string(info.test_suite_name()) + "." + info.name();
    started_ = std::chrono::steady_clock::now();
    reported_ = false;
  }

  void OnTestEnd(const ::testing::TestInfo&) override {
    std::lock_guard lock(mutex_);
    running_.clear();
  }

 private:
  void Watch() {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      std::string name;
      {
        std::lock_guard lock(mutex_);
        if (running_.empty() || reported_ || std::chrono::steady_clock::now() - started_ < limit_) continue;
        reported_ = true;
        name = running_;
      }
      std::fprintf(stderr, "floe-test: %s has run for over %lld s; the stacks of every thread follow\n", name.c_str(),
                   static_cast<long long>(limit_.count()));
      std::fflush(stderr);
      // gdb writes to this process's stdout and stderr, which ctest shows for a failed test.
      std::string command = "gdb -p " + std::to_string(::getpid()) +
                            " -batch -nx -ex 'set pagination off' -ex 'thread apply all bt' 1>&2 2>/dev/null"
                            " || echo 'floe-test: gdb is not installed or cannot attach: no stacks' 1>&2";
      [[maybe_unused]] int rc = std::system(command.c_str());
    }
  }

  const std::chrono::seconds limit_;
  std::mutex mutex_;
  std::string running_;
  std::chrono::steady_clock::time_point started_;
  bool reported_ = false;
};

}  // namespace

void InstallHangWatchdog() {
  long seconds = 150;
  if (const char* text = std::getenv("FLOE_TEST_HANG_SECONDS"); text != nullptr)
    seconds = std::strtol(text, nullptr, 10);
  if (seconds <= 0) return;
  // googletest owns (and deletes) its listeners.
  ::testing::UnitTest::GetInstance()->listeners().Append(new HangWatchdog(std::chrono::seconds(seconds)));
}

}  // namespace floe::testing
