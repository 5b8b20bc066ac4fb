// Each box's log lines: from the in-memory ring by component in one process, from the role
// children's files (tails, merged by timestamp) with --processes.
#include "up/box_logs.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "base/logging.h"
#include "support/child_process.h"

namespace floe::up {
namespace {

TEST(BoxLogsTest, InOneProcessABoxShowsItsRolesComponentsOnly) {
  Logger("broker")->info("box-logs-test: the broker speaks");
  Logger("stream")->info("box-logs-test: the stream job speaks");
  auto sources = LogSourcesFor("broker");
  ASSERT_TRUE(sources);
  nlohmann::json logs = BoxLogLines("broker", *sources, /*processes=*/false, "/nonexistent", 50);
  EXPECT_EQ(logs["source"], "memory");
  ASSERT_FALSE(logs["lines"].empty());
  std::string last = logs["lines"].back();
  EXPECT_NE(last.find("info  [broker] box-logs-test: the broker speaks"), std::string::npos) << last;
  for (const auto& line : logs["lines"]) EXPECT_EQ(line.get<std::string>().find("[stream]"), std::string::npos) << line;
  EXPECT_EQ(BoxLogLines("broker", *sources, false, "", 1)["lines"].size(), 1u);
}

TEST(BoxLogsTest, WithProcessesTheChildrensFilesAreMergedByTime) {
  testing::TempFolder folder;
  std::ofstream(folder.path() + "/stream.log")
      << "2026-12-07T09:30:40.100 info  [stream] orders one\n"
         "%3|1796635845.359|ERROR|rdkafka#consumer-1| no timestamp of its own\n"
         "2026-12-07T09:30:40.300 info  [stream] orders two\n";
  std::ofstream(folder.path() + "/state.log") << "2026-12-07T09:30:40.200 info  [stream] state one\n"
                                                 "2026-12-07T09:30:40.400 warning [stream] state two";  // No newline.
  auto sources = LogSourcesFor("stream");
  ASSERT_TRUE(sources);
  nlohmann::json logs = BoxLogLines("stream", *sources, /*processes=*/true, folder.path(), 100);
  EXPECT_EQ(logs["source"], "files");
  std::vector<std::string> lines = logs["lines"];
  ASSERT_EQ(lines.size(), 5u) << logs.dump();
  EXPECT_NE(lines[0].find("orders one"), std::string::npos);
  EXPECT_NE(lines[1].find("no timestamp of its own"), std::string::npos);  // Kept after its line.
  EXPECT_NE(lines[2].find("state one"), std::string::npos);
  EXPECT_NE(lines[3].find("orders two"), std::string::npos);
  EXPECT_NE(lines[4].find("state two"), std::string::npos);
  std::vector<std::string> newest = BoxLogLines("stream", *sources, true, folder.path(), 2)["lines"];
  EXPECT_EQ(newest, std::vector<std::string>(lines.end() - 2, lines.end()));
  // The query server runs in this process even with --processes.
  EXPECT_EQ(BoxLogLines("query", *LogSourcesFor("query"), true, folder.path(), 10)["source"], "memory");
}

TEST(BoxLogsTest, ABigFileIsReadFromItsTailAndUnknownBoxesAreRefused) {
  testing::TempFolder folder;
  {
    std::ofstream out(folder.path() + "/broker.log");
    for (int i = 0; i < 20000; ++i)
      out << "2026-12-07T09:30:40.100 info  [broker] line " << i << " " << std::string(40, 'x') << "\n";
  }
  auto sources = LogSourcesFor("broker");
  ASSERT_TRUE(sources);
  std::vector<std::string> lines = BoxLogLines("broker", *sources, true, folder.path(), kBoxLogMaxLines + 5)["lines"];
  ASSERT_EQ(lines.size(), kBoxLogMaxLines);  // Capped; every one whole.
  EXPECT_NE(lines.back().find("line 19999 "), std::string::npos);
  for (const auto& line : lines) EXPECT_EQ(line.rfind("2026-12-07T09:30:40.100 info  [broker] line ", 0), 0u) << line;
  // Missing files (a child not started yet) give no lines, not an error.
  EXPECT_TRUE(BoxLogLines("generator", *LogSourcesFor("generator"), true, folder.path(), 10)["lines"].empty());
  auto unknown = LogSourcesFor("coffee machine");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind(), ErrorKind::kNotFound);
}

}  // namespace
}  // namespace floe::up
