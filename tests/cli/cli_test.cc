// The command surface of DESIGN.md is a contract: every subcommand exists, documents its flags,
// and either works or says plainly that it has not been built.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "support/child_process.h"
#include "support/run_process.h"

namespace floe::testing {
namespace {

using ::testing::HasSubstr;

TEST(Cli, HelpListsEverySubcommand) {
  auto r = RunProcess({FloeBinary(), "--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* sub : {"up", "broker", "catalog", "stream", "query", "sql", "produce", "table", "parquet", "avro",
                          "topic", "registry"}) {
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
      {{"registry"}, "--brokers"},    {{"stream"}, "--mode"},             {{"stream"}, "--key"},
      {{"stream"}, "--envelope"},
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

// Upsert mode's flags are checked before anything is created: a key is needed, a key needs
// upsert mode, a new table is partitioned by key columns only, and keys name existing columns.
TEST(Cli, StreamUpsertFlagsAreCheckedBeforeTheTableIsMade) {
  std::string dir = ::testing::TempDir() + "floe-upsert-flags-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/schema.json") << R"({"type":"struct","schema-id":0,"fields":[
    {"id":1,"name":"order_id","required":true,"type":"long"},
    {"id":2,"name":"ts","required":true,"type":"timestamptz"}]})";
  std::vector<std::string> base = {FloeBinary(), "stream", "--brokers", "127.0.0.1:1", "--topic", "t", "--table",
                                   "shop.state", "--catalog", "sqlite:" + dir + "/catalog.db", "--schema",
                                   dir + "/schema.json", "--available-now"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> argv = base;
    argv.insert(argv.end(), extra.begin(), extra.end());
    return RunProcess(argv);
  };
  auto r = with({"--mode", "upsert"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--mode upsert needs --key"));
  r = with({"--key", "order_id"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--key needs --mode upsert"));
  r = with({"--mode", "upsert", "--key", "order_id", "--partition", "hour(ts)"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("partitioned by --key columns only"));
  r = with({"--mode", "upsert", "--key", "id"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("no top-level column 'id'"));
  r = with({"--envelope", "debezium"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--envelope debezium needs --mode upsert"));
  // Registry-encoded formats (issue #26): avro needs a registry; upsert mode reads JSON only.
  r = with({"--format", "avro"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--format avro needs --registry"));
  r = with({"--format", "avro", "--registry", "http://127.0.0.1:1", "--mode", "upsert", "--key", "order_id"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("cannot be combined with --transform or --mode upsert"));
  r = with({"--with-kafka-columns", "--mode", "upsert", "--key", "order_id"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--with-kafka-columns cannot be combined"));
  r = with({"--format", "protobuf"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--format"));
  std::filesystem::remove_all(dir);
}

TEST(Cli, BadConfigFileIsAClearUsageError) {
  auto r = RunProcess({FloeBinary(), "--config", "/nonexistent/floe.toml", "up", "--traffic", "lots"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("/nonexistent/floe.toml"));
  r = RunProcess({FloeBinary(), "up", "--traffic", "lots"}, {"FLOE_LOG_LEVEL=loud"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("log level 'loud'"));
}

TEST(Cli, SqlPrintsEachStatementBeforeALaterOneFails) {
  auto r = RunProcess({FloeBinary(), "sql", "--format", "csv", "-e",
                       "CREATE TABLE t (id bigint); INSERT INTO t VALUES (1), (2); SELECT sum(id) AS s FROM t; "
                       "SELECT 1 / 0; SELECT 'never'"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "CREATE TABLE\nINSERT: 2 rows\ns\n3\n");
  EXPECT_THAT(r.err, HasSubstr("Division by zero"));
}

// `floe parquet write` reads a file or a pipe in blocks: both decode the same rows, report a bad
// line by its number (also after a line longer than a block) and skip it, and take a last line
// with no newline that ends inside the decoder's read-ahead padding.
TEST(Cli, ParquetWriteDecodesFilesAndPipesAlikeAndReportsBadLines) {
  std::string dir = ::testing::TempDir() + "floe-parquet-write-" + std::to_string(getpid());
  ASSERT_EQ(std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()), 0);
  std::ofstream(dir + "/schema.json") << R"({"type":"struct","schema-id":0,"fields":[
      {"id":1,"name":"id","required":true,"type":"long"},{"id":2,"name":"name","required":false,"type":"string"}]})";
  {
    std::ofstream in(dir + "/in.jsonl");
    in << R"({"id":1,"name":"a"})" << "\n" << R"({"id":2})" << "\n" << R"({"id":3,"name":)" << "\n";
    in << R"({"id":4,"name":")" << std::string(9 << 20, 'x') << R"("})" << "\n" << "garbage\n" << R"({"id":5})";
  }
  auto ids = [&](const std::string& file) {
    auto r = RunProcess({FloeBinary(), "parquet", "cat", "--columns", "id", file});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  };
  auto from_file = RunProcess({FloeBinary(), "parquet", "write", "--schema", dir + "/schema.json", dir + "/in.jsonl", dir + "/from_file.parquet"});
  EXPECT_EQ(from_file.exit_code, 1);
  EXPECT_THAT(from_file.err, HasSubstr("in.jsonl:3: "));
  EXPECT_THAT(from_file.err, HasSubstr("in.jsonl:5: "));
  EXPECT_THAT(from_file.err, HasSubstr("4 rows to"));
  EXPECT_THAT(from_file.err, HasSubstr("2 bad lines skipped"));
  EXPECT_EQ(ids(dir + "/from_file.parquet"), "{\"id\":1}\n{\"id\":2}\n{\"id\":4}\n{\"id\":5}\n");
  auto piped = RunProcess({"/bin/sh", "-c", "cat " + dir + "/in.jsonl | " + FloeBinary() + " parquet write --schema " + dir +
                                                "/schema.json /dev/stdin " + dir + "/piped.parquet"});
  EXPECT_EQ(piped.exit_code, 1);
  EXPECT_THAT(piped.err, HasSubstr("/dev/stdin:3: "));
  EXPECT_THAT(piped.err, HasSubstr("/dev/stdin:5: "));
  EXPECT_THAT(piped.err, HasSubstr("4 rows to"));
  EXPECT_EQ(ids(dir + "/piped.parquet"), ids(dir + "/from_file.parquet"));
  std::system(("rm -rf " + dir).c_str());
}

TEST(Cli, UpRunsTheBuiltRolesReportsTheRestAndStopsCleanly) {
  TempFolder dir;
  int port = FreeLoopbackPort();
  // --data comes from the environment; the flags on the command line win over FLOE_UP_TRAFFIC.
  // The catalog binds where its own flag says (127.0.0.2 is loopback too), not on the broker's host.
  int catalog_port = FreeLoopbackPort();
  ChildProcess up({FloeBinary(), "up", "--broker-listen", "127.0.0.1:" + std::to_string(port),
                   "--broker-metrics-listen", "", "--catalog-listen", "127.0.0.2:" + std::to_string(catalog_port),
                   "--query-listen", "127.0.0.1:" + std::to_string(FreeLoopbackPort()),
                   "--pg-listen", "127.0.0.1:" + std::to_string(FreeLoopbackPort()),
                   "--registry-listen", "127.0.0.1:" + std::to_string(FreeLoopbackPort()),
                   "--traffic", "off"},
                  dir.path() + "/up.log", {"FLOE_UP_DATA=" + dir.path() + "/data", "FLOE_UP_TRAFFIC=junk"});
  ASSERT_TRUE(WaitForPort(port)) << up.ReadLog();
  EXPECT_EQ(up.Stop(SIGTERM), 0) << up.ReadLog();
  std::string log = up.ReadLog();
  EXPECT_THAT(log, HasSubstr("data under " + dir.path() + "/data"));
  EXPECT_THAT(log, HasSubstr("Kafka protocol on 127.0.0.1:" + std::to_string(port)));
  for (const char* role : {"catalog", "registry", "stream job", "query server"}) {
    EXPECT_THAT(log, HasSubstr(std::string(role) + " ")) << role;
  }
  EXPECT_THAT(log, HasSubstr("Trino protocol, HTTP API and console on 127.0.0.1:"));
  EXPECT_THAT(log, HasSubstr("127.0.0.2:" + std::to_string(catalog_port)));
}

// Issue #27, finding 3: a listener other machines can reach, with no users, is refused before
// anything starts unless --insecure-bind says it is meant.
TEST(Cli, UpRefusesAnUnauthenticatedBindBeyondLoopback) {
  for (const char* flag : {"--broker-listen", "--catalog-listen", "--query-listen", "--pg-listen", "--broker-metrics-listen",
                           "--registry-listen"}) {
    TempFolder dir;
    auto r = RunProcess({FloeBinary(), "up", "--data", dir.path() + "/data", flag, "0.0.0.0:" + std::to_string(FreeLoopbackPort())});
    EXPECT_EQ(r.exit_code, 2) << flag << r.err;
    EXPECT_THAT(r.err, HasSubstr(std::string(flag) + " 0.0.0.0")) << flag;
    EXPECT_THAT(r.err, HasSubstr("--insecure-bind")) << flag;
  }
}

// The same rule for each server run on its own.
TEST(Cli, ServersRefuseAnUnauthenticatedBindBeyondLoopback) {
  struct Case {
    std::vector<std::string> argv;
    std::string flag;
  };
  std::string any = "0.0.0.0:" + std::to_string(FreeLoopbackPort());
  std::string local = "127.0.0.1:" + std::to_string(FreeLoopbackPort());
  TempFolder dir;
  std::vector<Case> cases = {
      {{"broker", "--data", dir.path() + "/broker", "--listen", any}, "--listen"},
      {{"broker", "--data", dir.path() + "/broker", "--listen", local, "--metrics-listen", any}, "--metrics-listen"},
      {{"catalog", "--listen", any, "--backend", "sqlite:" + dir.path() + "/c.db", "--warehouse", "file://" + dir.path() + "/wh"}, "--listen"},
      {{"query", "--listen", any, "--warehouse", dir.path() + "/wh"}, "--listen"},
      {{"query", "--listen", local, "--pg-listen", any, "--warehouse", dir.path() + "/wh"}, "--pg-listen"},
      {{"registry", "--listen", any, "--brokers", local}, "--listen"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> argv{FloeBinary()};
    argv.insert(argv.end(), c.argv.begin(), c.argv.end());
    auto r = RunProcess(argv);
    EXPECT_EQ(r.exit_code, 2) << c.argv[0] << " " << c.flag << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.flag + " 0.0.0.0")) << c.argv[0];
    EXPECT_THAT(r.err, HasSubstr("--insecure-bind")) << c.argv[0];
  }
}

TEST(Cli, UpRejectsAMalformedTrafficRate) {
  auto r = RunProcess({FloeBinary(), "up", "--traffic", "lots"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("'lots'"));
}

// `floe sql` at a terminal: a pseudo-terminal stands in for the user. Lines are edited by
// libedit, a statement may span lines, and the history survives into the next run, where the
// up arrow brings the last statement back.
class SqlShellAtATerminal {
 public:
  explicit SqlShellAtATerminal(const std::string& home) {
    const std::string floe = FloeBinary();  // Before the fork: the child only execs.
    pid_ = forkpty(&fd_, nullptr, nullptr, nullptr);
    if (pid_ == 0) {
      setenv("HOME", home.c_str(), 1);
      setenv("TERM", "dumb", 1);
      execl(floe.c_str(), floe.c_str(), "sql", static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~SqlShellAtATerminal() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }
  bool started() const { return pid_ > 0; }
  void Type(const std::string& keys) { ASSERT_EQ(write(fd_, keys.data(), keys.size()), static_cast<ssize_t>(keys.size())); }
  // Reads what the shell prints until `text` appears after what earlier calls matched (or 60 s
  // pass: a hang, not a timing). Keys are typed only after the prompt that reads them is shown:
  // the line editor may discard input typed before it set up the terminal.
  bool WaitFor(const std::string& text) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    size_t at;
    while ((at = screen_.find(text, seen_)) == std::string::npos) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 200) <= 0) continue;
      char buf[4096];
      ssize_t n = read(fd_, buf, sizeof(buf));
      if (n <= 0) return false;
      screen_.append(buf, static_cast<size_t>(n));
    }
    seen_ = at + text.size();
    return true;
  }
  // The exit code, or -1 when the shell has not exited within 60 s (it is then killed) or died
  // by a signal. The limit is a deadline, not a count of polls: once the shell closes the
  // terminal, poll returns at once (hang-up) while the kernel may still be finishing its exit.
  // `resend` (if any) is typed again every half second while the shell runs: an end of input
  // typed just as the line editor sets up the terminal for the next prompt can be lost.
  int Wait(const std::string& resend = "") {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    auto next_resend = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    while (std::chrono::steady_clock::now() < deadline) {
      if (!resend.empty() && std::chrono::steady_clock::now() > next_resend) {
        (void)!write(fd_, resend.data(), resend.size());  // Fails once the shell has gone: fine.
        next_resend += std::chrono::milliseconds(500);
      }
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        if (!WIFEXITED(status)) screen_ += "\n[killed by signal " + std::to_string(WTERMSIG(status)) + "]";
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      // Keep draining the terminal so the shell never blocks writing to it.
      pollfd p{fd_, POLLIN, 0};
      char buf[4096];
      ssize_t n = poll(&p, 1, 100) > 0 ? read(fd_, buf, sizeof(buf)) : 0;
      if (n > 0) {
        screen_.append(buf, static_cast<size_t>(n));
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    return -1;
  }
  const std::string& screen() const { return screen_; }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string screen_;
  size_t seen_ = 0;
};

TEST(Cli, SqlShellEditsLinesAndKeepsHistoryAcrossRuns) {
  std::string home = ::testing::TempDir() + "floe-shell-" + std::to_string(getpid());
  ASSERT_EQ(system(("rm -rf " + home + " && mkdir -p " + home).c_str()), 0);
  {
    SqlShellAtATerminal shell(home);
    ASSERT_TRUE(shell.started());
    ASSERT_TRUE(shell.WaitFor("floe> ")) << shell.screen();
    shell.Type("SELECT 40 +\r");
    ASSERT_TRUE(shell.WaitFor("-> ")) << shell.screen();
    shell.Type("2 AS answer;\r");
    ASSERT_TRUE(shell.WaitFor("42")) << shell.screen();
    ASSERT_TRUE(shell.WaitFor("floe> ")) << shell.screen();
    shell.Type("SELECT 'ab'X\x7f || 'c' AS fixed;\r");  // Backspace removes the X.
    ASSERT_TRUE(shell.WaitFor("abc")) << shell.screen();
    ASSERT_TRUE(shell.WaitFor("floe> ")) << shell.screen();
    // End of input leaves. ^U empties the line first: a ^D typed while the line editor is
    // still switching the terminal to raw mode is taken by the kernel in cooked mode and can
    // reach the editor as a stray character, after which a ^D on the non-empty line is no end
    // of input (seen under load in CI).
    shell.Type("\x15\x04");
    EXPECT_EQ(shell.Wait("\x15\x04"), 0) << shell.screen();
  }
  std::ifstream saved(home + "/.floe_sql_history");
  std::stringstream text;
  text << saved.rdbuf();
  // libedit's history file escapes spaces and newlines; the statements are there.
  EXPECT_THAT(text.str(), HasSubstr("answer;"));
  EXPECT_THAT(text.str(), HasSubstr("fixed;"));
  {
    SqlShellAtATerminal shell(home);
    ASSERT_TRUE(shell.WaitFor("floe> ")) << shell.screen();
    shell.Type("\x1b[A\x1b[A\r");  // Up twice: the two-line statement of the last run.
    ASSERT_TRUE(shell.WaitFor("42")) << shell.screen();
    ASSERT_TRUE(shell.WaitFor("floe> ")) << shell.screen();
    shell.Type("\\q\r");  // So does \q.
    EXPECT_EQ(shell.Wait(), 0) << shell.screen();
  }
  ASSERT_EQ(system(("rm -rf " + home).c_str()), 0);
}

}  // namespace
}  // namespace floe::testing
