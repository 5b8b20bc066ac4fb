#include "io/object_store_conformance.h"

#include <thread>

namespace floe::io::testing {
namespace {

// Bytes that are not text: every byte value, then a repeating pattern.
std::string Pattern(size_t size, uint32_t seed) {
  std::string out(size, '\0');
  uint32_t x = seed * 2654435761u + 1;
  for (size_t i = 0; i < size; ++i) {
    x = x * 1103515245u + 12345u;
    out[i] = static_cast<char>(i < 256 ? i : (x >> 16));
  }
  return out;
}

std::vector<std::string> Keys(const ListResult& r) {
  std::vector<std::string> out;
  for (const ObjectInfo& o : r.objects) out.push_back(o.key);
  return out;
}

TEST_P(ObjectStoreConformance, PutThenGetReturnsTheBytes) {
  std::string bytes = Pattern(5000, 1);
  ASSERT_TRUE(store_->Put("a/b/c.bin", bytes));
  auto got = store_->Get("a/b/c.bin");
  ASSERT_TRUE(got) << got.error().ToString();
  EXPECT_EQ(*got, bytes);
}

TEST_P(ObjectStoreConformance, PutReplacesAnExistingObject) {
  ASSERT_TRUE(store_->Put("k", "first version"));
  ASSERT_TRUE(store_->Put("k", "v2"));
  EXPECT_EQ(store_->Get("k").value(), "v2");
}

TEST_P(ObjectStoreConformance, EmptyObjectRoundTrips) {
  ASSERT_TRUE(store_->Put("empty", ""));
  EXPECT_EQ(store_->Get("empty").value(), "");
  EXPECT_EQ(store_->Head("empty").value().size, 0u);
}

TEST_P(ObjectStoreConformance, MissingObjectIsNotFound) {
  auto got = store_->Get("no/such/key");
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().kind(), ErrorKind::kNotFound) << got.error().ToString();
  EXPECT_EQ(store_->Head("no/such/key").error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(store_->GetRange("no/such/key", 0, 1).error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(store_->OpenInput("no/such/key").error().kind(), ErrorKind::kNotFound);
}

TEST_P(ObjectStoreConformance, HeadReportsSizeAndKey) {
  ASSERT_TRUE(store_->Put("dir/h", Pattern(1234, 2)));
  auto info = store_->Head("dir/h");
  ASSERT_TRUE(info) << info.error().ToString();
  EXPECT_EQ(info->key, "dir/h");
  EXPECT_EQ(info->size, 1234u);
  EXPECT_GT(info->last_modified_millis, 0);
}

TEST_P(ObjectStoreConformance, GetRangeReturnsExactlyTheRange) {
  std::string bytes = Pattern(10000, 3);
  ASSERT_TRUE(store_->Put("r", bytes));
  for (auto [offset, length] : std::vector<std::pair<uint64_t, uint64_t>>{{0, 1}, {0, 10000}, {9999, 1}, {4096, 100}, {123, 0}}) {
    auto got = store_->GetRange("r", offset, length);
    ASSERT_TRUE(got) << offset << "+" << length << ": " << got.error().ToString();
    EXPECT_EQ(*got, bytes.substr(offset, length)) << offset << "+" << length;
  }
}

TEST_P(ObjectStoreConformance, GetRangePastTheEndIsAnError) {
  ASSERT_TRUE(store_->Put("r", Pattern(100, 4)));
  EXPECT_FALSE(store_->GetRange("r", 50, 51));
  EXPECT_FALSE(store_->GetRange("r", 101, 1));
}

TEST_P(ObjectStoreConformance, InputFileReadsRanges) {
  std::string bytes = Pattern(70000, 5);
  ASSERT_TRUE(store_->Put("in/file.parquet", bytes));
  auto in = store_->OpenInput("in/file.parquet");
  ASSERT_TRUE(in) << in.error().ToString();
  EXPECT_EQ((*in)->Size(), bytes.size());
  EXPECT_EQ((*in)->ReadAt(bytes.size() - 8, 8).value(), bytes.substr(bytes.size() - 8));
  EXPECT_EQ((*in)->ReadAt(17, 65536).value(), bytes.substr(17, 65536));
  EXPECT_FALSE((*in)->ReadAt(bytes.size() - 8, 9));
  EXPECT_NE((*in)->location().find("in/file.parquet"), std::string::npos);
}

TEST_P(ObjectStoreConformance, PutIfAbsentRefusesToReplace) {
  Status first = store_->PutIfAbsent("once", "winner");
  if (!first && first.error().kind() == ErrorKind::kNotImplemented) GTEST_SKIP() << "store has no put-if-absent";
  ASSERT_TRUE(first) << first.error().ToString();
  Status second = store_->PutIfAbsent("once", "loser");
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().kind(), ErrorKind::kAlreadyExists) << second.error().ToString();
  EXPECT_EQ(store_->Get("once").value(), "winner");
}

TEST_P(ObjectStoreConformance, StreamedOutputIsInvisibleUntilClose) {
  auto out = store_->OpenOutput("stream/big.bin");
  ASSERT_TRUE(out) << out.error().ToString();
  // Past 5 MiB, so S3 takes the multipart path; appended in uneven pieces.
  std::string bytes = Pattern(12 * 1024 * 1024 + 77, 6);
  size_t pos = 0;
  size_t step = 1;
  while (pos < bytes.size()) {
    size_t n = std::min(step, bytes.size() - pos);
    ASSERT_TRUE((*out)->Append(std::string_view(bytes).substr(pos, n)));
    pos += n;
    step = step * 3 + 7;
  }
  EXPECT_EQ((*out)->BytesWritten(), bytes.size());
  EXPECT_EQ(store_->Head("stream/big.bin").error().kind(), ErrorKind::kNotFound);
  Status closed = (*out)->Close();
  ASSERT_TRUE(closed) << closed.error().ToString();
  auto got = store_->Get("stream/big.bin");
  ASSERT_TRUE(got) << got.error().ToString();
  EXPECT_EQ(got->size(), bytes.size());
  EXPECT_TRUE(*got == bytes);
  EXPECT_FALSE((*out)->Append("more"));
}

TEST_P(ObjectStoreConformance, SmallStreamedOutput) {
  auto out = store_->OpenOutput("stream/small");
  ASSERT_TRUE(out);
  ASSERT_TRUE((*out)->Append("hello, "));
  ASSERT_TRUE((*out)->Append("world"));
  ASSERT_TRUE((*out)->Close());
  EXPECT_EQ(store_->Get("stream/small").value(), "hello, world");
}

TEST_P(ObjectStoreConformance, AbortedOrDroppedOutputLeavesNothing) {
  {
    auto out = store_->OpenOutput("gone/aborted");
    ASSERT_TRUE(out);
    ASSERT_TRUE((*out)->Append(Pattern(6 * 1024 * 1024, 7)));
    (*out)->Abort();
  }
  {
    auto out = store_->OpenOutput("gone/dropped");
    ASSERT_TRUE(out);
    ASSERT_TRUE((*out)->Append("never closed"));
  }
  auto list = store_->List("", "", std::nullopt);
  ASSERT_TRUE(list) << list.error().ToString();
  EXPECT_TRUE(list->objects.empty()) << list->objects.front().key;
}

TEST_P(ObjectStoreConformance, DeleteRemovesAndMissingDeleteSucceeds) {
  ASSERT_TRUE(store_->Put("d/1", "x"));
  ASSERT_TRUE(store_->Delete("d/1"));
  EXPECT_EQ(store_->Get("d/1").error().kind(), ErrorKind::kNotFound);
  EXPECT_TRUE(store_->Delete("d/1"));
  EXPECT_TRUE(store_->Delete("never/was"));
}

TEST_P(ObjectStoreConformance, DeleteManyRemovesEveryKey) {
  std::vector<std::string> keys;
  for (int i = 0; i < 25; ++i) {
    keys.push_back(fmt::format("many/{:03}", i));
    ASSERT_TRUE(store_->Put(keys.back(), "x"));
  }
  ASSERT_TRUE(store_->Put("many-keep", "y"));
  keys.push_back("many/missing");
  Status st = store_->DeleteMany(keys);
  ASSERT_TRUE(st) << st.error().ToString();
  auto list = store_->List("many", "", std::nullopt);
  ASSERT_TRUE(list);
  EXPECT_EQ(Keys(*list), std::vector<std::string>{"many-keep"});
  EXPECT_TRUE(store_->DeleteMany({}));
}

TEST_P(ObjectStoreConformance, ListReturnsKeysInByteOrderUnderThePrefix) {
  for (std::string k : {"t/b", "t/a/2", "t/a/1", "t/a-b", "u/x", "t/c/d/e", "t0"}) ASSERT_TRUE(store_->Put(k, k));
  auto list = store_->List("t/", "", std::nullopt);
  ASSERT_TRUE(list) << list.error().ToString();
  if (!GetParam().exact_listing) std::sort(list->objects.begin(), list->objects.end(), [](auto& a, auto& b) { return a.key < b.key; });
  EXPECT_EQ(Keys(*list), (std::vector<std::string>{"t/a-b", "t/a/1", "t/a/2", "t/b", "t/c/d/e"}));
  EXPECT_TRUE(list->common_prefixes.empty());
  EXPECT_FALSE(list->next_token);
  EXPECT_EQ(list->objects[0].size, 5u);

  auto partial = store_->List("t/a", "", std::nullopt);
  ASSERT_TRUE(partial);
  if (!GetParam().exact_listing) std::sort(partial->objects.begin(), partial->objects.end(), [](auto& a, auto& b) { return a.key < b.key; });
  EXPECT_EQ(Keys(*partial), (std::vector<std::string>{"t/a-b", "t/a/1", "t/a/2"}));

  auto all = store_->List("", "", std::nullopt);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->objects.size(), 7u);
}

TEST_P(ObjectStoreConformance, ListWithDelimiterRollsUpFolders) {
  if (!GetParam().exact_listing) GTEST_SKIP() << "the server's listing only approximates S3's";
  for (std::string k : {"w/db/t1/m/1", "w/db/t1/m/2", "w/db/t2/d", "w/db/top", "w/dbx"}) ASSERT_TRUE(store_->Put(k, "x"));
  auto list = store_->List("w/db/", "/", std::nullopt);
  ASSERT_TRUE(list) << list.error().ToString();
  EXPECT_EQ(Keys(*list), std::vector<std::string>{"w/db/top"});
  EXPECT_EQ(list->common_prefixes, (std::vector<std::string>{"w/db/t1/", "w/db/t2/"}));
  auto root = store_->List("", "/", std::nullopt);
  ASSERT_TRUE(root);
  EXPECT_TRUE(root->objects.empty());
  EXPECT_EQ(root->common_prefixes, std::vector<std::string>{"w/"});
}

TEST_P(ObjectStoreConformance, ListPaginatesWithoutGapsOrRepeats) {
  if (!GetParam().exact_listing) GTEST_SKIP() << "the server's listing only approximates S3's";
  std::vector<std::string> expected;
  for (int i = 0; i < 23; ++i) {
    expected.push_back(fmt::format("p/{:02}", i));
    ASSERT_TRUE(store_->Put(expected.back(), "x"));
  }
  std::vector<std::string> seen;
  std::optional<std::string> token;
  int pages = 0;
  do {
    auto page = store_->List("p/", "", token, 5);
    ASSERT_TRUE(page) << page.error().ToString();
    EXPECT_LE(page->objects.size(), 5u);
    for (auto& k : Keys(*page)) seen.push_back(k);
    token = page->next_token;
    ASSERT_LT(++pages, 10);
  } while (token);
  EXPECT_EQ(seen, expected);
}

TEST_P(ObjectStoreConformance, ListPaginatesOverRolledUpPrefixes) {
  if (!GetParam().exact_listing) GTEST_SKIP() << "the server's listing only approximates S3's";
  for (std::string k : {"q/a/1", "q/a/2", "q/b/1", "q/c", "q/d/1", "q/e"}) ASSERT_TRUE(store_->Put(k, "x"));
  std::vector<std::string> seen;
  std::optional<std::string> token;
  int pages = 0;
  do {
    auto page = store_->List("q/", "/", token, 2);
    ASSERT_TRUE(page) << page.error().ToString();
    EXPECT_LE(page->objects.size() + page->common_prefixes.size(), 2u);
    for (auto& k : Keys(*page)) seen.push_back(k);
    for (auto& p : page->common_prefixes) seen.push_back(p);
    token = page->next_token;
    ASSERT_LT(++pages, 10);
  } while (token);
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"q/a/", "q/b/", "q/c", "q/d/", "q/e"}));
}

TEST_P(ObjectStoreConformance, TraversalAndMalformedKeysAreRefused) {
  for (const std::string& bad : std::vector<std::string>{"../escape", "a/../../escape", "/abs", "a//b", "", "a/./b", "a/..", std::string("nul\0byte", 8)}) {
    Status st = store_->Put(bad, "x");
    ASSERT_FALSE(st) << "'" << bad << "'";
    EXPECT_EQ(st.error().kind(), ErrorKind::kInvalidArgument) << bad;
    EXPECT_FALSE(store_->Get(bad)) << bad;
    EXPECT_FALSE(store_->Delete(bad)) << bad;
    EXPECT_FALSE(store_->OpenOutput(bad)) << bad;
  }
  EXPECT_FALSE(store_->List("../", "", std::nullopt));
}

TEST_P(ObjectStoreConformance, UriNamesTheStoreAndKey) {
  std::string uri = store_->Uri("db/t/metadata/v1.json");
  EXPECT_TRUE(uri.starts_with(GetParam().uri_prefix)) << uri;
  EXPECT_TRUE(uri.ends_with("/db/t/metadata/v1.json")) << uri;
}

TEST_P(ObjectStoreConformance, KeyForUriInvertsUri) {
  EXPECT_EQ(store_->KeyForUri(store_->Uri("db/t/data/f.parquet")).value_or("?"), "db/t/data/f.parquet");
  EXPECT_FALSE(store_->KeyForUri(store_->Uri("")));
  EXPECT_FALSE(store_->KeyForUri("gs://elsewhere/x"));
  EXPECT_FALSE(store_->KeyForUri(store_->Uri("a") + "/../../../etc/passwd"));
  std::string uri = store_->Uri("k");
  if (uri.starts_with("file:///")) {
    EXPECT_EQ(store_->KeyForUri("file:" + uri.substr(7)).value_or("?"), "k");  // file:/abs
    EXPECT_EQ(store_->KeyForUri(uri.substr(7)).value_or("?"), "k");           // /abs
  } else if (uri.starts_with("s3://")) {
    EXPECT_EQ(store_->KeyForUri("s3a://" + uri.substr(5)).value_or("?"), "k");
  }
}

TEST_P(ObjectStoreConformance, ConcurrentWritersOfDistinctKeys) {
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        if (!store_->Put(fmt::format("c/{}/{}", t, i), Pattern(100 + i, t))) failures++;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  auto list = store_->List("c/", "", std::nullopt);
  ASSERT_TRUE(list);
  EXPECT_EQ(list->objects.size(), 40u);
  EXPECT_EQ(store_->Get("c/3/9").value(), Pattern(109, 3));
}

}  // namespace
}  // namespace floe::io::testing
