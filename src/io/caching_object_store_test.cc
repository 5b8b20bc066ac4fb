#include "io/caching_object_store.h"

#include <gtest/gtest.h>

#include "io/fault_injecting_object_store.h"
#include "io/local_object_store.h"
#include "io/object_store_conformance.h"
#include "io/test_folder.h"

namespace floe::io {
namespace {

using testing::FreshFolder;
using testing::ObjectStoreConformance;

INSTANTIATE_TEST_SUITE_P(Cache, ObjectStoreConformance,
                         ::testing::Values(testing::StoreCase{
                             .name = "cache",
                             .make =
                                 [] {
                                   return std::unique_ptr<ObjectStore>(std::make_unique<CachingObjectStore>(
                                       LocalObjectStore::Open(FreshFolder()).value(), CacheOptions{.capacity_bytes = 1 << 20}));
                                 },
                             .uri_prefix = "file:///",
                         }),
                         [](const auto& info) { return info.param.name; });

// A cache over a counting store, so tests see which calls reached the store.
struct Fixture {
  Fixture(CacheOptions options = {.capacity_bytes = 10000}) {
    auto faulty = std::make_unique<FaultInjectingObjectStore>(LocalObjectStore::Open(FreshFolder()).value());
    counting = faulty.get();
    cache = std::make_unique<CachingObjectStore>(std::move(faulty), std::move(options));
  }
  FaultInjectingObjectStore* counting;
  std::unique_ptr<CachingObjectStore> cache;
};

TEST(CachingObjectStore, RepeatedGetsHitTheCache) {
  Fixture f;
  ASSERT_TRUE(f.cache->Put("m/v1.json", "metadata"));
  for (int i = 0; i < 5; ++i) EXPECT_EQ(f.cache->Get("m/v1.json").value(), "metadata");
  EXPECT_EQ(f.counting->Calls(ObjectOp::kGet), 1u);
  EXPECT_EQ(f.cache->Stats().hits, 4u);
  EXPECT_EQ(f.cache->Stats().misses, 1u);
  // Ranges of a cached whole object come from it.
  EXPECT_EQ(f.cache->GetRange("m/v1.json", 2, 3).value(), "tad");
  EXPECT_EQ(f.counting->Calls(ObjectOp::kGetRange), 0u);
}

TEST(CachingObjectStore, InputFileRangesAreCached) {
  Fixture f;
  std::string bytes(3000, 'x');
  bytes.replace(2990, 10, "PAR1FOOTER");
  ASSERT_TRUE(f.cache->Put("d/f.parquet", bytes));
  for (int i = 0; i < 3; ++i) {
    auto in = f.cache->OpenInput("d/f.parquet").value();
    EXPECT_EQ(in->Size(), 3000u);
    EXPECT_EQ(in->ReadAt(2990, 10).value(), "PAR1FOOTER");
    EXPECT_FALSE(in->ReadAt(2995, 10));
  }
  EXPECT_EQ(f.counting->Calls(ObjectOp::kHead), 1u);
  EXPECT_EQ(f.counting->Calls(ObjectOp::kRead), 1u);
  EXPECT_EQ(f.counting->Calls(ObjectOp::kOpenInput), 1u);
}

TEST(CachingObjectStore, StaysWithinItsByteBoundEvictingLeastRecentlyUsed) {
  Fixture f({.capacity_bytes = 5000, .max_entry_bytes = 5000});
  std::string kb(1000, 'k');
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(f.cache->Put(fmt::format("o{}", i), kb));
  ASSERT_TRUE(f.cache->Get("o0"));
  for (int i = 1; i < 10; ++i) {
    ASSERT_TRUE(f.cache->Get(fmt::format("o{}", i)));
    ASSERT_TRUE(f.cache->Get("o0"));  // Kept hot.
    EXPECT_LE(f.cache->Stats().bytes, 5000u);
  }
  EXPECT_GT(f.cache->Stats().evictions, 0u);
  uint64_t before = f.counting->Calls(ObjectOp::kGet);
  ASSERT_TRUE(f.cache->Get("o0"));
  EXPECT_EQ(f.counting->Calls(ObjectOp::kGet), before);  // Still cached.
  ASSERT_TRUE(f.cache->Get("o1"));
  EXPECT_EQ(f.counting->Calls(ObjectOp::kGet), before + 1);  // Evicted long ago.
}

TEST(CachingObjectStore, OversizeObjectsPassThrough) {
  Fixture f({.capacity_bytes = 10000, .max_entry_bytes = 2000});
  ASSERT_TRUE(f.cache->Put("big", std::string(5000, 'b')));
  ASSERT_TRUE(f.cache->Get("big"));
  ASSERT_TRUE(f.cache->Get("big"));
  EXPECT_EQ(f.counting->Calls(ObjectOp::kGet), 2u);
  EXPECT_EQ(f.cache->Stats().entries, 0u);
}

TEST(CachingObjectStore, WritesAndDeletesThroughItInvalidate) {
  Fixture f;
  ASSERT_TRUE(f.cache->Put("k", "one"));
  EXPECT_EQ(f.cache->Get("k").value(), "one");
  EXPECT_EQ(f.cache->Head("k").value().size, 3u);
  ASSERT_TRUE(f.cache->Put("k", "three"));
  EXPECT_EQ(f.cache->Get("k").value(), "three");
  EXPECT_EQ(f.cache->Head("k").value().size, 5u);
  ASSERT_TRUE(f.cache->Delete("k"));
  EXPECT_EQ(f.cache->Get("k").error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(f.cache->Stats().entries, 0u);
}

TEST(CachingObjectStore, VersionHintIsNeverCachedAndErrorsAreNot) {
  Fixture f;
  ASSERT_TRUE(f.cache->Put("t/metadata/version-hint.text", "1"));
  ASSERT_TRUE(f.cache->Get("t/metadata/version-hint.text"));
  ASSERT_TRUE(f.cache->Get("t/metadata/version-hint.text"));
  EXPECT_EQ(f.counting->Calls(ObjectOp::kGet), 2u);
  f.counting->Inject({.op = ObjectOp::kGet, .key_contains = "flaky"});
  ASSERT_TRUE(f.cache->Put("flaky", "v"));
  EXPECT_FALSE(f.cache->Get("flaky"));
  EXPECT_EQ(f.cache->Get("flaky").value(), "v");
}

}  // namespace
}  // namespace floe::io
