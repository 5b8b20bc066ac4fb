// The framed record file under the failures a crash or a bad disk leaves: torn frames, CRC
// mismatches, absurd lengths, records the owner cannot decode, oversize appends, and rewrites
// interrupted before their rename.
#include "broker/log/framed_record_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace floe::broker {
namespace {

class FramedRecordFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           fmt::format("floe-framed-test-{}-{}", ::getpid(),
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "records.log").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Opens the file and returns it with the bodies it replayed.
  std::unique_ptr<FramedRecordFile> Open(std::vector<std::string>* replayed, uint32_t max_record = 64) {
    replayed->clear();
    auto file = FramedRecordFile::Open(path_, {.max_record_bytes = max_record, .sync = true},
                                       [&](std::string_view body) -> Status {
                                         if (body == "refused") return Corruption("cannot decode '{}'", body);
                                         replayed->emplace_back(body);
                                         return OkStatus();
                                       });
    EXPECT_TRUE(file.has_value()) << file.error().ToString();
    return file ? std::move(*file) : nullptr;
  }

  std::string Contents() const {
    std::ifstream in(path_, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  void AppendRaw(std::string_view bytes) const {
    std::ofstream out(path_, std::ios::binary | std::ios::app);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }

  std::filesystem::path dir_;
  std::string path_;
};

using Bodies = std::vector<std::string>;

TEST_F(FramedRecordFileTest, ReplaysAppendedRecordsInOrder) {
  Bodies replayed;
  {
    auto file = Open(&replayed);
    EXPECT_TRUE(replayed.empty());
    ASSERT_TRUE(file->Append("one"));
    ASSERT_TRUE(file->Append(""));
    ASSERT_TRUE(file->Append("three"));
    EXPECT_EQ(file->records(), 3u);
  }
  auto file = Open(&replayed);
  EXPECT_EQ(replayed, (Bodies{"one", "", "three"}));
  EXPECT_EQ(file->records(), 3u);
  EXPECT_EQ(file->truncated_bytes(), 0u);
  EXPECT_EQ(Contents().size(), 3 * 8 + 8u);
}

TEST_F(FramedRecordFileTest, CutsATornTailAndAppendsAfterTheLastGoodRecord) {
  Bodies replayed;
  {
    auto file = Open(&replayed);
    ASSERT_TRUE(file->Append("kept"));
    ASSERT_TRUE(file->Append("torn"));
  }
  std::filesystem::resize_file(path_, std::filesystem::file_size(path_) - 2);  // a crash mid-write
  {
    auto file = Open(&replayed);
    EXPECT_EQ(replayed, (Bodies{"kept"}));
    EXPECT_EQ(file->truncated_bytes(), 8u + 4 - 2);
    ASSERT_TRUE(file->Append("after"));
  }
  auto file = Open(&replayed);
  EXPECT_EQ(replayed, (Bodies{"kept", "after"}));
  EXPECT_EQ(file->truncated_bytes(), 0u);
}

TEST_F(FramedRecordFileTest, AHalfWrittenFrameHeaderIsCut) {
  Bodies replayed;
  ASSERT_TRUE(Open(&replayed)->Append("kept"));
  AppendRaw(std::string("\0\0\0", 3));
  auto file = Open(&replayed);
  EXPECT_EQ(replayed, (Bodies{"kept"}));
  EXPECT_EQ(file->truncated_bytes(), 3u);
}

TEST_F(FramedRecordFileTest, ACrcMismatchEndsTheFileThere) {
  Bodies replayed;
  {
    auto file = Open(&replayed);
    ASSERT_TRUE(file->Append("first"));
    ASSERT_TRUE(file->Append("second"));
    ASSERT_TRUE(file->Append("third"));
  }
  std::string bytes = Contents();
  bytes[8 + 5 + 8] ^= 0x20;  // the first byte of "second"'s body
  std::ofstream(path_, std::ios::binary | std::ios::trunc) << bytes;
  auto file = Open(&replayed);
  EXPECT_EQ(replayed, (Bodies{"first"}));
  EXPECT_EQ(file->truncated_bytes(), 2 * 8 + 6 + 5u);
  EXPECT_EQ(std::filesystem::file_size(path_), 8 + 5u);
}

TEST_F(FramedRecordFileTest, GarbageAndAbsurdLengthsEndTheFile) {
  Bodies replayed;
  ASSERT_TRUE(Open(&replayed)->Append("kept"));
  // A length far beyond the bound (and the file) must not make replay allocate or read it.
  AppendRaw(std::string("\xFF\xFF\xFF\xF0garbage-garbage-garbage", 27));
  auto file = Open(&replayed);
  EXPECT_EQ(replayed, (Bodies{"kept"}));
  EXPECT_EQ(file->truncated_bytes(), 27u);
}

TEST_F(FramedRecordFileTest, ARecordTheOwnerRefusesEndsTheFile) {
  Bodies replayed;
  {
    auto file = Open(&replayed);
    ASSERT_TRUE(file->Append("kept"));
    ASSERT_TRUE(file->Append("refused"));
    ASSERT_TRUE(file->Append("lost after it"));
  }
  auto file = Open(&replayed);
  EXPECT_EQ(replayed, (Bodies{"kept"}));
  EXPECT_EQ(file->truncated_bytes(), 8 + 7 + 8 + 13u);
}

TEST_F(FramedRecordFileTest, AnOversizeAppendIsRefusedAndWritesNothing) {
  Bodies replayed;
  auto file = Open(&replayed, /*max_record=*/16);
  ASSERT_TRUE(file->Append(std::string(16, 'x')));
  auto refused = file->Append(std::string(17, 'x'));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind(), ErrorKind::kResourceExhausted);
  EXPECT_EQ(file->records(), 1u);
  EXPECT_EQ(std::filesystem::file_size(path_), 8 + 16u);
}

TEST_F(FramedRecordFileTest, RewriteReplacesEverythingAndLaterAppendsFollow) {
  Bodies replayed;
  {
    auto file = Open(&replayed);
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(file->Append(fmt::format("old {}", i)));
    ASSERT_TRUE(file->Rewrite({"live a", "live b"}));
    EXPECT_EQ(file->records(), 2u);
    ASSERT_TRUE(file->Append("appended"));
  }
  EXPECT_FALSE(std::filesystem::exists(path_ + ".tmp"));
  Open(&replayed);
  EXPECT_EQ(replayed, (Bodies{"live a", "live b", "appended"}));
}

TEST_F(FramedRecordFileTest, ARewriteInterruptedBeforeItsRenameLeavesTheOldFile) {
  Bodies replayed;
  ASSERT_TRUE(Open(&replayed)->Append("old"));
  std::ofstream(path_ + ".tmp", std::ios::binary) << "half of a new file";
  {
    auto file = Open(&replayed);
    EXPECT_EQ(replayed, (Bodies{"old"}));
    ASSERT_TRUE(file->Rewrite({"new"}));
  }
  Open(&replayed);
  EXPECT_EQ(replayed, (Bodies{"new"}));
}

}  // namespace
}  // namespace floe::broker
