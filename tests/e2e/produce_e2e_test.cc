// `floe produce` into `floe broker`, read back by kcat (librdkafka, nobody's code here): every
// acknowledged message is in the topic once, and the ledger's counts and checksums match what
// kcat reads.
#include <fstream>
#include <map>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <fmt/format.h>
#include <xxhash.h>

#include "support/child_process.h"
#include "support/run_process.h"

namespace floe::testing {
namespace {

TEST(ProduceE2e, LedgerMatchesWhatKcatReads) {
  TempFolder dir;
  int port = FreeLoopbackPort();
  std::string brokers = "127.0.0.1:" + std::to_string(port);
  ChildProcess broker({FloeBinary(), "broker", "--listen", brokers, "--data", dir.path() + "/broker"},
                      dir.path() + "/broker.log");
  ASSERT_TRUE(WaitForPort(port)) << broker.ReadLog();

  auto created = RunProcess({FloeBinary(), "topic", "create", "orders", "--partitions", "3", "--brokers", brokers});
  ASSERT_EQ(created.exit_code, 0) << created.err;

  constexpr int kCount = 5000;
  auto produced = RunProcess({FloeBinary(), "produce", "--brokers", brokers, "--count", std::to_string(kCount),
                              "--rate", "0", "--malformed-rate", "0.02", "--seed", "9", "--ledger",
                              dir.path() + "/ledger.json"});
  ASSERT_EQ(produced.exit_code, 0) << produced.err;

  // kcat prints partition, then the value's length and bytes so values need no escaping.
  auto consumed = RunProcess({"/usr/bin/kcat", "-b", brokers, "-t", "orders", "-C", "-e", "-q", "-f", "%p %S %s\n"});
  ASSERT_EQ(consumed.exit_code, 0) << consumed.err;
  std::map<int, std::pair<uint64_t, uint64_t>> by_partition;  // partition -> (count, value hash sum)
  std::istringstream lines(consumed.out);
  int total = 0;
  int partition = 0;
  size_t size = 0;
  while (lines >> partition >> size) {
    lines.get();  // The space before the value.
    std::string value(size, '\0');
    lines.read(value.data(), static_cast<std::streamsize>(size));
    lines.get();  // The newline.
    auto& [count, sum] = by_partition[partition];
    ++count;
    sum += XXH64(value.data(), value.size(), 0);
    ++total;
  }
  EXPECT_EQ(total, kCount);
  EXPECT_EQ(by_partition.size(), 3u);

  std::ifstream ledger_file(dir.path() + "/ledger.json");
  std::stringstream ledger;
  ledger << ledger_file.rdbuf();
  for (const auto& [p, counts] : by_partition) {
    std::string expected = fmt::format(R"("{}":{{"acked":{},)", p, counts.first);
    EXPECT_THAT(ledger.str(), ::testing::HasSubstr(expected));
    EXPECT_THAT(ledger.str(), ::testing::HasSubstr(fmt::format(R"("value_hash_sum":"{:016x}")", counts.second)))
        << "partition " << p;
  }
  EXPECT_EQ(broker.Stop(SIGTERM), 0) << broker.ReadLog();
}

}  // namespace
}  // namespace floe::testing
