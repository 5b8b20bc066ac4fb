#include "base/subprocess.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace floe {
namespace {

std::string TempLogPath(const char* name) {
  return (std::filesystem::temp_directory_path() / (std::string(name) + "-" + std::to_string(getpid()) + ".log"))
      .string();
}

std::string ReadAndRemove(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(path);
  return text.str();
}

TEST(SubprocessTest, ExtraEnvironmentReplacesAVariableOfTheSameName) {
  ::setenv("FLOE_SUBPROCESS_TEST", "parent", 1);
  std::string log = TempLogPath("floe-subprocess-env");
  auto child = Subprocess::Start({"/usr/bin/env"}, log, {"FLOE_SUBPROCESS_TEST=child", "FLOE_SUBPROCESS_ADDED=yes"});
  ASSERT_TRUE(child) << child.error().ToString();
  EXPECT_EQ((*child)->Wait(std::chrono::seconds(10)), 0);
  std::string printed = ReadAndRemove(log);
  EXPECT_NE(printed.find("FLOE_SUBPROCESS_TEST=child\n"), std::string::npos) << printed;
  EXPECT_EQ(printed.find("FLOE_SUBPROCESS_TEST=parent"), std::string::npos) << printed;
  EXPECT_NE(printed.find("FLOE_SUBPROCESS_ADDED=yes\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("PATH="), std::string::npos) << "the parent's environment is inherited: " << printed;
  ::unsetenv("FLOE_SUBPROCESS_TEST");
}

// A child forked while other threads allocate must still reach exec: if it allocated after
// fork, it could block forever on an allocator lock held by a thread that does not exist in it
// (under ASan, the lock of its store of allocation stack traces: a net_test child hung so).
TEST(SubprocessTest, StartsWhileOtherThreadsAllocate) {
  std::atomic<bool> stop{false};
  std::vector<std::thread> allocators;
  for (int t = 0; t < 2; ++t) {
    allocators.emplace_back([&] {
      while (!stop.load(std::memory_order_relaxed)) {
        std::vector<std::unique_ptr<char[]>> blocks;
        for (int i = 0; i < 64; ++i) blocks.emplace_back(new char[16 + i * 8]);
      }
    });
  }
  std::string log = TempLogPath("floe-subprocess-fork");
  for (int i = 0; i < 100; ++i) {
    auto child = Subprocess::Start({"/bin/true"}, log, {"FLOE_SUBPROCESS_ROUND=" + std::to_string(i)});
    ASSERT_TRUE(child) << child.error().ToString();
    ASSERT_EQ((*child)->Wait(std::chrono::seconds(20)), 0) << "child " << i << " did not reach exec";
  }
  stop = true;
  for (auto& thread : allocators) thread.join();
  std::filesystem::remove(log);
}

}  // namespace
}  // namespace floe
