// `floe up --processes`: each role is a child process; a role killed with SIGKILL comes back,
// the generator's acknowledged events are all in the topic afterwards (read by kcat), and a
// clean stop leaves no child behind.
#include <signal.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/child_process.h"
#include "support/run_process.h"

namespace floe::testing {
namespace {

// The pid `floe up` printed for `role` in its start-up table, or -1.
int RolePid(const std::string& log, const std::string& role) {
  std::smatch match;
  if (std::regex_search(log, match, std::regex("  " + role + " +.*\\(pid ([0-9]+),"))) return std::stoi(match[1]);
  return -1;
}

int64_t LedgerAcked(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::smatch match;
  std::string s = text.str();
  if (std::regex_search(s, match, std::regex(R"("total":\{"acked":([0-9]+),)"))) return std::stoll(match[1]);
  return -1;
}

TEST(UpProcesses, AKilledBrokerComesBackAndNothingAcknowledgedIsLost) {
  TempFolder dir;
  int port = FreeLoopbackPort();
  std::string brokers = "127.0.0.1:" + std::to_string(port);
  ChildProcess up({FloeBinary(), "up", "--processes", "--data", dir.path() + "/data", "--broker-listen", brokers,
                   "--broker-metrics-listen", "", "--catalog-port", std::to_string(FreeLoopbackPort()),
                   "--query-listen", "127.0.0.1:" + std::to_string(FreeLoopbackPort()),
                   "--pg-listen", "127.0.0.1:" + std::to_string(FreeLoopbackPort()),
                   "--registry-listen", "127.0.0.1:" + std::to_string(FreeLoopbackPort()),
                   "--traffic", "400"},
                  dir.path() + "/up.log");
  ASSERT_TRUE(WaitForPort(port)) << up.ReadLog();
  std::string log;
  for (int i = 0; i < 100 && RolePid(log, "generator") < 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    log = up.ReadLog();
  }
  int broker_pid = RolePid(log, "broker");
  ASSERT_GT(broker_pid, 0) << log;
  std::this_thread::sleep_for(std::chrono::seconds(1));

  ASSERT_EQ(kill(broker_pid, SIGKILL), 0);
  // The supervisor notices and restarts it on the same port.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  ASSERT_TRUE(WaitForPort(port)) << up.ReadLog();
  std::this_thread::sleep_for(std::chrono::seconds(2));

  EXPECT_EQ(up.Stop(SIGTERM, std::chrono::seconds(60)), 0) << up.ReadLog();
  EXPECT_THAT(up.ReadLog(), ::testing::HasSubstr("broker exited; restarting it"));
  EXPECT_NE(kill(broker_pid, 0), 0) << "the killed broker is gone";

  // After the clean stop, the generator has flushed: everything it counted as acknowledged
  // must be readable. Start the broker alone on the same data to read it back.
  int64_t acked = LedgerAcked(dir.path() + "/data/ledger.json");
  ASSERT_GT(acked, 0);
  ChildProcess broker({FloeBinary(), "broker", "--listen", brokers, "--data", dir.path() + "/data/broker",
                       "--metrics-listen", ""},
                      dir.path() + "/broker.log");
  ASSERT_TRUE(WaitForPort(port)) << broker.ReadLog();
  auto consumed = RunProcess({"/usr/bin/kcat", "-b", brokers, "-t", "orders", "-C", "-e", "-q", "-f", "%o\n"});
  ASSERT_EQ(consumed.exit_code, 0) << consumed.err;
  int64_t lines = std::count(consumed.out.begin(), consumed.out.end(), '\n');
  // Exactly the acknowledged messages: an ack lost in the crash makes the idempotent producer
  // retry, and the broker's sequence checks drop the duplicate.
  EXPECT_EQ(lines, acked);
}

}  // namespace
}  // namespace floe::testing
