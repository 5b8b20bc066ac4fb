// Secret-holding files are 0600 from the moment they exist, and wider ones are refused.
#include "base/private_file.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace floe {
namespace {

mode_t ModeOf(const std::string& path) {
  struct stat info {};
  EXPECT_EQ(::stat(path.c_str(), &info), 0);
  return info.st_mode & 07777;
}

TEST(PrivateFile, WrittenOwnerOnlyEvenOverAWorldReadableFile) {
  auto dir = std::filesystem::temp_directory_path() / ("floe-private-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string path = (dir / "secret").string();
  std::ofstream(path) << "old";
  ::chmod(path.c_str(), 0644);
  ASSERT_TRUE(WritePrivateFile(path, "new secret").has_value());
  EXPECT_EQ(ModeOf(path), 0600u);
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  EXPECT_EQ(text.str(), "new secret");
  EXPECT_TRUE(CheckPrivateFile(path, "test file").has_value());
  for (mode_t wide : {0640, 0604, 0660, 0602}) {
    ::chmod(path.c_str(), wide);
    auto refused = CheckPrivateFile(path, "test file");
    ASSERT_FALSE(refused.has_value()) << wide;
    EXPECT_EQ(refused.error().kind(), ErrorKind::kPermissionDenied);
    EXPECT_NE(refused.error().message().find("chmod 600"), std::string::npos);
  }
  EXPECT_EQ(CheckPrivateFile((dir / "missing").string(), "test file").error().kind(), ErrorKind::kIo);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace floe
