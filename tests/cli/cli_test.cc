// The command surface of DESIGN.md is a contract: every subcommand exists, documents its flags,
// and either works or says plainly that it has not been built.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/child_process.h"
#include "support/run_process.h"

namespace floe::testing {
namespace {

using ::testing::HasSubstr;

TEST(Cli, HelpListsEverySubcommand) {
  auto r = RunProcess({FloeBinary(), "--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* sub : {"up", "broker", "catalog", "stream", "query", "sql", "produce", "table", "parquet", "avro",
                          "topic"}) {
    EXPECT_THAT(r.out, HasSubstr(std::string("\n  ") + sub + " ")) << "missing subcommand " << sub;
  }
}

TEST(Cli, EverySubcommandHasHelpDocumentingItsFlags) {
  struct Case {
    std::vector<std::string> args;
    const char* flag;
  };
  const Case cases[] = {
      {{"up"}, "--traffic"},          {{"broker"}, "--advertise"},        {{"catalog"}, "--backend"},
      {{"stream"}, "--trigger"},      {{"query"}, "--pg-listen"},         {{"sql"}, "--format"},
      {{"produce"}, "--rate"},        {{"table", "create"}, "--partition"}, {{"parquet", "write"}, "--compression"},
      {{"avro", "cat"}, "Avro object container file"},      {{"topic", "create"}, "--partitions"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> argv = {FloeBinary()};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    argv.push_back("--help");
    auto r = RunProcess(argv);
    EXPECT_EQ(r.exit_code, 0) << c.args[0] << ": " << r.err;
    EXPECT_THAT(r.out, HasSubstr(c.flag)) << c.args[0];
  }
}

TEST(Cli, UnknownSubcommandAndFlagAreUsageErrors) {
  auto r = RunProcess({FloeBinary(), "frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  r = RunProcess({FloeBinary(), "broker", "--no-such-flag"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("no-such-flag"));
}

TEST(Cli, BadConfigFileIsAClearUsageError) {
  auto r = RunProcess({FloeBinary(), "--config", "/nonexistent/floe.toml", "up", "--traffic", "lots"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("/nonexistent/floe.toml"));
  r = RunProcess({FloeBinary(), "up", "--traffic", "lots"}, {"FLOE_LOG_LEVEL=loud"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("log level 'loud'"));
}

TEST(Cli, UpRunsTheBuiltRolesReportsTheRestAndStopsCleanly) {
  TempFolder dir;
  int port = FreeLoopbackPort();
  // --data comes from the environment; the flags on the command line win over FLOE_UP_TRAFFIC.
  ChildProcess up({FloeBinary(), "up", "--broker-listen", "127.0.0.1:" + std::to_string(port),
                   "--broker-metrics-listen", "", "--catalog-port", std::to_string(FreeLoopbackPort()),
                   "--query-listen", "127.0.0.1:" + std::to_string(FreeLoopbackPort()),
                   "--pg-listen", "127.0.0.1:" + std::to_string(FreeLoopbackPort()),
                   "--traffic", "off"},
                  dir.path() + "/up.log", {"FLOE_UP_DATA=" + dir.path() + "/data", "FLOE_UP_TRAFFIC=junk"});
  ASSERT_TRUE(WaitForPort(port)) << up.ReadLog();
  EXPECT_EQ(up.Stop(SIGTERM), 0) << up.ReadLog();
  std::string log = up.ReadLog();
  EXPECT_THAT(log, HasSubstr("data under " + dir.path() + "/data"));
  EXPECT_THAT(log, HasSubstr("Kafka protocol on 127.0.0.1:" + std::to_string(port)));
  for (const char* role : {"catalog", "stream job", "query server"}) {
    EXPECT_THAT(log, HasSubstr(std::string(role) + " ")) << role;
  }
  EXPECT_THAT(log, HasSubstr("Trino protocol, HTTP API and console on 127.0.0.1:"));
}

TEST(Cli, UpRejectsAMalformedTrafficRate) {
  auto r = RunProcess({FloeBinary(), "up", "--traffic", "lots"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("'lots'"));
}

}  // namespace
}  // namespace floe::testing
