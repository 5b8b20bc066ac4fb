// The ObjectStore conformance suite against s3rver (a foreign S3 server, npm), through
// floe's S3 store with real SigV4 checking; plus what only a real server can show: refused
// credentials, a missing bucket, odd keys, big deletes.
#include <stdlib.h>

#include <atomic>
#include <filesystem>

#include <gtest/gtest.h>

#include "io/object_store_conformance.h"
#include "io/s3_object_store.h"
#include "io/test_folder.h"
#include "s3rver_process.h"

namespace floe::io {
namespace {

using testing::ObjectStoreConformance;

std::string SourceDir() {
  const char* dir = std::getenv("FLOE_SOURCE_DIR");
  return dir != nullptr ? dir : ".";
}

// One s3rver for the whole binary; each test gets its own prefix in the bucket.
class S3rverEnvironment : public ::testing::Environment {
 public:
  static S3rverEnvironment* Get() {
    static S3rverEnvironment* env = [] {
      auto* e = new S3rverEnvironment;
      ::testing::AddGlobalTestEnvironment(e);
      return e;
    }();
    return env;
  }
  testing::S3rverProcess& server() {
    if (!server_) {
      auto started = testing::S3rverProcess::Start(SourceDir(), testing::FreshFolder(), "floe");
      if (!started) {
        ADD_FAILURE() << started.error().ToString();
        std::abort();
      }
      server_ = std::move(*started);
    }
    return *server_;
  }
  void TearDown() override { server_.reset(); }

 private:
  std::unique_ptr<testing::S3rverProcess> server_;
};

S3Options OptionsFor(std::string uri, std::string key_id = "S3RVER", std::string secret = "S3RVER") {
  auto& server = S3rverEnvironment::Get()->server();
  std::map<std::string, std::string> env = {{"AWS_ACCESS_KEY_ID", key_id},
                                            {"AWS_SECRET_ACCESS_KEY", secret},
                                            {"AWS_REGION", "us-east-1"},
                                            {"AWS_ENDPOINT_URL", server.endpoint()},
                                            // s3rver ignores If-None-Match on PUT; these tests are
                                            // single-writer, so check-then-put is enough.
                                            {"FLOE_S3_CONDITIONAL_PUT", "check-then-put"}};
  S3Options options = S3Options::FromUri(uri, [&](std::string_view name) -> std::optional<std::string> {
                        auto it = env.find(std::string(name));
                        if (it == env.end()) return std::nullopt;
                        return it->second;
                      }).value();
  options.max_attempts = 2;
  options.base_backoff = std::chrono::milliseconds(5);
  return options;
}

std::string FreshPrefix() {
  static std::atomic<int> n{0};
  return fmt::format("s3://floe/t{}-{}", ::getpid(), n++);
}

INSTANTIATE_TEST_SUITE_P(S3rver, ObjectStoreConformance,
                         ::testing::Values(testing::StoreCase{
                             .name = "s3rver",
                             .make =
                                 [] {
                                   return std::unique_ptr<ObjectStore>(
                                       S3ObjectStore::Open(OptionsFor(FreshPrefix())).value());
                                 },
                             .uri_prefix = "s3://floe/",
                             .exact_listing = false,
                         }),
                         [](const auto& info) { return info.param.name; });

// s3rver checks the access key but not V4 signatures (its own docs say V4 is incomplete), so a
// wrong secret cannot be caught here; the AWS vectors in sigv4_test.cc pin the signature down.
TEST(S3rverStore, UnknownAccessKeyIsRefusedClearly) {
  auto good = S3ObjectStore::Open(OptionsFor(FreshPrefix())).value();
  ASSERT_TRUE(good->Put("secret.txt", "x"));
  auto bad_key = S3ObjectStore::Open(OptionsFor(good->Uri(""), "NOBODY", "S3RVER")).value();
  auto r = bad_key->Get("secret.txt");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind(), ErrorKind::kUnauthenticated) << r.error().ToString();
  EXPECT_NE(r.error().message().find(good->Uri("secret.txt")), std::string::npos) << r.error().message();
  EXPECT_NE(r.error().message().find("credentials or signature were refused"), std::string::npos);
  EXPECT_NE(r.error().message().find("InvalidAccessKeyId"), std::string::npos);
  Status put = bad_key->Put("other.txt", "x");
  ASSERT_FALSE(put);
  EXPECT_EQ(put.error().kind(), ErrorKind::kUnauthenticated) << put.error().ToString();
  EXPECT_EQ(good->Head("other.txt").error().kind(), ErrorKind::kNotFound);
}

TEST(S3rverStore, MissingBucketIsNotFound) {
  auto store = S3ObjectStore::Open(OptionsFor("s3://no-such-bucket/x")).value();
  auto r = store->Get("k");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind(), ErrorKind::kNotFound) << r.error().ToString();
  EXPECT_NE(r.error().message().find("no-such-bucket"), std::string::npos);
}

TEST(S3rverStore, KeysWithCharactersThatNeedEncoding) {
  auto store = S3ObjectStore::Open(OptionsFor(FreshPrefix())).value();
  for (std::string key : {"a b/c+d", "x=1&y=2/z", "ü/€", "p%41th/~file-_.txt", "dt=2024-01-01 00:00:00/f.parquet"}) {
    Status st = store->Put(key, key);
    ASSERT_TRUE(st) << key << ": " << st.error().ToString();
    auto got = store->Get(key);
    ASSERT_TRUE(got) << key << ": " << got.error().ToString();
    EXPECT_EQ(*got, key);
  }
  auto list = store->List("", "", std::nullopt);
  ASSERT_TRUE(list) << list.error().ToString();
  std::vector<std::string> keys;
  for (auto& o : list->objects) keys.push_back(o.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"a b/c+d", "dt=2024-01-01 00:00:00/f.parquet", "p%41th/~file-_.txt",
                                            "x=1&y=2/z", "ü/€"}));
}

TEST(S3rverStore, LargePutGoesMultipart) {
  S3Options options = OptionsFor(FreshPrefix());
  options.part_size = 5 << 20;
  options.multipart_threshold = 6 << 20;
  auto store = S3ObjectStore::Open(options).value();
  std::string bytes(13 << 20, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 + (i >> 20));
  Status st = store->Put("big.bin", bytes);
  ASSERT_TRUE(st) << st.error().ToString();
  auto info = store->Head("big.bin");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->size, bytes.size());
  EXPECT_TRUE(store->Get("big.bin").value() == bytes);
}

TEST(S3rverStore, DeleteManyBeyondOneBatch) {
  auto store = S3ObjectStore::Open(OptionsFor(FreshPrefix())).value();
  std::vector<std::string> keys;
  for (int i = 0; i < 1005; ++i) keys.push_back(fmt::format("d/{:04}", i));
  // Write a few through the API; deleting keys that never existed must succeed too.
  for (int i = 0; i < 1005; i += 100) ASSERT_TRUE(store->Put(keys[i], "x"));
  ASSERT_TRUE(store->Put(keys[1004], "x"));
  Status st = store->DeleteMany(keys);
  ASSERT_TRUE(st) << st.error().ToString();
  EXPECT_TRUE(store->List("d/", "", std::nullopt).value().objects.empty());
}

TEST(S3rverStore, OpenObjectStoreReadsTheEnvironment) {
  auto& server = S3rverEnvironment::Get()->server();
  ::setenv("AWS_ACCESS_KEY_ID", "S3RVER", 1);
  ::setenv("AWS_SECRET_ACCESS_KEY", "S3RVER", 1);
  ::setenv("AWS_ENDPOINT_URL", server.endpoint().c_str(), 1);
  auto store = OpenObjectStore(FreshPrefix());
  ASSERT_TRUE(store) << store.error().ToString();
  ASSERT_TRUE((*store)->Put("via-env", "ok"));
  EXPECT_EQ((*store)->Get("via-env").value(), "ok");
  ::unsetenv("AWS_ENDPOINT_URL");
}

}  // namespace
}  // namespace floe::io
