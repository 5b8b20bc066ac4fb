#include "io/local_object_store.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

#include "io/object_store_conformance.h"
#include "io/test_folder.h"

namespace floe::io {
namespace {

using testing::FreshFolder;
using testing::ObjectStoreConformance;

INSTANTIATE_TEST_SUITE_P(Local, ObjectStoreConformance,
                         ::testing::Values(testing::StoreCase{
                             .name = "local",
                             .make = [] { return std::unique_ptr<ObjectStore>(OpenObjectStore("file://" + FreshFolder()).value()); },
                             .uri_prefix = "file:///",
                         }),
                         [](const auto& info) { return info.param.name; });

std::vector<std::string> FilesUnder(const std::string& root) {
  std::vector<std::string> out;
  for (auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.is_regular_file()) out.push_back(e.path().string().substr(root.size() + 1));
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(LocalObjectStore, ObjectsArePlainFilesUnderTheRoot) {
  std::string root = FreshFolder();
  auto store = LocalObjectStore::Open(root).value();
  ASSERT_TRUE(store->Put("db/t/metadata/v1.metadata.json", "{}"));
  ASSERT_TRUE(store->PutIfAbsent("db/t/version-hint.text", "1"));
  auto out = store->OpenOutput("db/t/data/f.parquet").value();
  ASSERT_TRUE(out->Append("PAR1"));
  ASSERT_TRUE(out->Close());
  // No temporary file survives a successful write.
  EXPECT_EQ(FilesUnder(root), (std::vector<std::string>{"db/t/data/f.parquet", "db/t/metadata/v1.metadata.json",
                                                        "db/t/version-hint.text"}));
  EXPECT_EQ(store->Uri("db/t/x"), "file://" + root + "/db/t/x");
}

TEST(LocalObjectStore, FailedPutIfAbsentLeavesNoTemporaryFile) {
  std::string root = FreshFolder();
  auto store = LocalObjectStore::Open(root).value();
  ASSERT_TRUE(store->PutIfAbsent("k", "1"));
  ASSERT_FALSE(store->PutIfAbsent("k", "2"));
  EXPECT_EQ(FilesUnder(root), std::vector<std::string>{"k"});
}

TEST(LocalObjectStore, InFlightStreamIsHiddenFromListing) {
  std::string root = FreshFolder();
  auto store = LocalObjectStore::Open(root).value();
  auto out = store->OpenOutput("a/b").value();
  ASSERT_TRUE(out->Append("x"));
  EXPECT_EQ(FilesUnder(root).size(), 1u);  // The temporary file exists on disk...
  EXPECT_TRUE(store->List("", "", std::nullopt).value().objects.empty());  // ...but is not an object.
  out.reset();
  EXPECT_TRUE(FilesUnder(root).empty());
}

TEST(LocalObjectStore, ExactlyOnePutIfAbsentWinsARace) {
  auto store = LocalObjectStore::Open(FreshFolder()).value();
  std::atomic<int> wins{0}, exists{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      Status st = store->PutIfAbsent("race/v2.metadata.json", fmt::format("writer {}", t));
      if (st) wins++;
      else if (st.error().kind() == ErrorKind::kAlreadyExists) exists++;
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wins.load(), 1);
  EXPECT_EQ(exists.load(), 7);
}

TEST(LocalObjectStore, TraversalCreatesNothingOutsideTheRoot) {
  std::string outer = FreshFolder();
  auto store = LocalObjectStore::Open(outer + "/inner").value();
  EXPECT_FALSE(store->Put("../escaped", "x"));
  EXPECT_FALSE(store->Put("a/../../escaped", "x"));
  EXPECT_FALSE(std::filesystem::exists(outer + "/escaped"));
}

TEST(LocalObjectStore, ReservedTemporaryNamesAreRefusedAsKeys) {
  auto store = LocalObjectStore::Open(FreshFolder()).value();
  EXPECT_EQ(store->Put(".floe-tmp-x", "x").error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(store->Put("a/.floe-tmp-x/b", "x").error().kind(), ErrorKind::kInvalidArgument);
}

// A write killed before it was published leaves its temporary file: List never shows it, but
// ListUnfinishedWrites does, and DeleteUnfinishedWrites takes it and nothing that is not one.
TEST(LocalObjectStore, UnfinishedWritesAreListedApartAndDeletedOnlyAsSuch) {
  std::string root = FreshFolder();
  auto store = LocalObjectStore::Open(root).value();
  ASSERT_TRUE(store->Put("t/data/a.parquet", "published"));
  auto stream = store->OpenOutput("t/data/b.parquet").value();
  ASSERT_TRUE(stream->Append("half"));  // Never closed: as if the writer were killed here.
  auto listed = store->List("t/", "", std::nullopt).value();
  ASSERT_EQ(listed.objects.size(), 1u);
  auto unfinished = store->ListUnfinishedWrites("t/").value();
  ASSERT_EQ(unfinished.size(), 1u);
  EXPECT_TRUE(unfinished[0].key.starts_with("t/data/.floe-tmp-")) << unfinished[0].key;
  EXPECT_TRUE(store->ListUnfinishedWrites("u/").value().empty());
  for (std::string bad : {"t/data/a.parquet", "t/data/.floe-tmp-", "../.floe-tmp-x", "t/../../.floe-tmp-x", ""}) {
    EXPECT_EQ(store->DeleteUnfinishedWrites({bad}).error().kind(), ErrorKind::kInvalidArgument) << bad;
  }
  EXPECT_EQ(store->Get("t/data/a.parquet").value(), "published");
  ASSERT_TRUE(store->DeleteUnfinishedWrites({unfinished[0].key, "t/data/.floe-tmp-gone"}));
  EXPECT_TRUE(store->ListUnfinishedWrites("t/").value().empty());
  EXPECT_EQ(store->List("t/", "", std::nullopt).value().objects.size(), 1u);
  stream->Abort();
}

TEST(LocalObjectStore, AFolderIsNotAnObject) {
  auto store = LocalObjectStore::Open(FreshFolder()).value();
  ASSERT_TRUE(store->Put("dir/file", "x"));
  EXPECT_EQ(store->Get("dir").error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(store->Head("dir").error().kind(), ErrorKind::kNotFound);
}

TEST(LocalObjectStore, EmptyFoldersLeftByDeletesAreInvisible) {
  auto store = LocalObjectStore::Open(FreshFolder()).value();
  ASSERT_TRUE(store->Put("x/y/z", "1"));
  ASSERT_TRUE(store->Put("x/keep", "1"));
  ASSERT_TRUE(store->Delete("x/y/z"));
  auto list = store->List("x/", "/", std::nullopt).value();
  EXPECT_TRUE(list.common_prefixes.empty());
  ASSERT_EQ(list.objects.size(), 1u);
  EXPECT_EQ(list.objects[0].key, "x/keep");
}

TEST(OpenObjectStore, DispatchesOnTheScheme) {
  std::string root = FreshFolder();
  EXPECT_TRUE(OpenObjectStore("file://" + root));
  EXPECT_TRUE(OpenObjectStore("file:" + root));  // file:/abs, the Hadoop spelling
  EXPECT_TRUE(OpenObjectStore(root));
  auto created = OpenObjectStore("file://" + root + "/new/warehouse/");
  ASSERT_TRUE(created);
  EXPECT_TRUE(std::filesystem::is_directory(root + "/new/warehouse"));
  EXPECT_EQ((*created)->Uri("k"), "file://" + root + "/new/warehouse/k");
  EXPECT_EQ(OpenObjectStore("file://relative/path").error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(OpenObjectStore("gs://bucket/x").error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(OpenObjectStore("").error().kind(), ErrorKind::kInvalidArgument);
}

TEST(OpenObjectStore, RootThatIsAFileIsRefused) {
  std::string root = FreshFolder();
  auto store = LocalObjectStore::Open(root).value();
  ASSERT_TRUE(store->Put("file", "x"));
  EXPECT_FALSE(OpenObjectStore("file://" + root + "/file"));
}

}  // namespace
}  // namespace floe::io
