#include "io/fault_injecting_object_store.h"

#include <gtest/gtest.h>

#include "io/local_object_store.h"
#include "io/object_store_conformance.h"
#include "io/test_folder.h"

namespace floe::io {
namespace {

using testing::FreshFolder;
using testing::ObjectStoreConformance;

std::unique_ptr<FaultInjectingObjectStore> MakeStore() {
  return std::make_unique<FaultInjectingObjectStore>(LocalObjectStore::Open(FreshFolder()).value());
}

// Without faults the wrapper is invisible.
INSTANTIATE_TEST_SUITE_P(FaultsOff, ObjectStoreConformance,
                         ::testing::Values(testing::StoreCase{
                             .name = "fault_wrapper_without_faults",
                             .make = [] { return std::unique_ptr<ObjectStore>(MakeStore()); },
                             .uri_prefix = "file:///",
                         }),
                         [](const auto& info) { return info.param.name; });

TEST(FaultInjectingObjectStore, FailsTheNthMatchingCallOnly) {
  auto store = MakeStore();
  store->Inject({.op = ObjectOp::kPut, .at_call = 3, .error = ErrorKind::kIo, .message = "disk on fire"});
  EXPECT_TRUE(store->Put("a", "1"));
  EXPECT_TRUE(store->Put("b", "2"));
  Status third = store->Put("c", "3");
  ASSERT_FALSE(third);
  EXPECT_EQ(third.error().kind(), ErrorKind::kIo);
  EXPECT_NE(third.error().message().find("disk on fire"), std::string::npos);
  EXPECT_NE(third.error().message().find("put c call 3"), std::string::npos) << third.error().message();
  EXPECT_EQ(store->inner().Head("c").error().kind(), ErrorKind::kNotFound);  // Failed before the store saw it.
  EXPECT_TRUE(store->Put("d", "4"));
  EXPECT_EQ(store->Calls(ObjectOp::kPut), 4u);
  EXPECT_EQ(store->FaultsFired(), 1u);
}

TEST(FaultInjectingObjectStore, MatchesByOperationAndKey) {
  auto store = MakeStore();
  ASSERT_TRUE(store->Put("db/t/metadata/v1.json", "m"));
  ASSERT_TRUE(store->Put("db/t/data/f.parquet", "d"));
  store->Inject({.op = ObjectOp::kGet, .key_contains = "metadata", .times = Fault::kForever});
  EXPECT_TRUE(store->Get("db/t/data/f.parquet"));
  EXPECT_TRUE(store->Head("db/t/metadata/v1.json"));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(store->Get("db/t/metadata/v1.json").error().kind(), ErrorKind::kUnavailable);
  store->Clear();
  EXPECT_TRUE(store->Get("db/t/metadata/v1.json"));
}

TEST(FaultInjectingObjectStore, LostAcknowledgementStillWrites) {
  auto store = MakeStore();
  store->Inject({.op = ObjectOp::kPutIfAbsent, .after_success = true});
  Status st = store->PutIfAbsent("v2.metadata.json", "new");
  ASSERT_FALSE(st);
  EXPECT_EQ(store->Get("v2.metadata.json").value(), "new");
  EXPECT_EQ(store->PutIfAbsent("v2.metadata.json", "again").error().kind(), ErrorKind::kAlreadyExists);
}

TEST(FaultInjectingObjectStore, ShortPutTearsTheObject) {
  auto store = MakeStore();
  store->Inject({.op = ObjectOp::kPut, .short_write = true});
  EXPECT_FALSE(store->Put("torn", "0123456789"));
  EXPECT_EQ(store->Get("torn").value(), "01234");
}

TEST(FaultInjectingObjectStore, ShortAppendFailsTheStreamAndAbortLeavesNothing) {
  auto store = MakeStore();
  store->Inject({.op = ObjectOp::kAppend, .at_call = 2, .short_write = true});
  auto out = store->OpenOutput("s").value();
  ASSERT_TRUE(out->Append("abcd"));
  ASSERT_FALSE(out->Append("efgh"));
  EXPECT_EQ(out->BytesWritten(), 6u);
  out->Abort();
  EXPECT_EQ(store->Head("s").error().kind(), ErrorKind::kNotFound);
}

TEST(FaultInjectingObjectStore, FailsCloseAndReads) {
  auto store = MakeStore();
  store->Inject({.op = ObjectOp::kClose});
  auto out = store->OpenOutput("c").value();
  ASSERT_TRUE(out->Append("x"));
  EXPECT_FALSE(out->Close());
  EXPECT_EQ(store->Head("c").error().kind(), ErrorKind::kNotFound);

  ASSERT_TRUE(store->Put("r", "0123456789"));
  store->Inject({.op = ObjectOp::kRead, .at_call = 2, .error = ErrorKind::kCorruption});
  auto in = store->OpenInput("r").value();
  EXPECT_EQ(in->ReadAt(0, 2).value(), "01");
  EXPECT_EQ(in->ReadAt(2, 2).error().kind(), ErrorKind::kCorruption);
  EXPECT_EQ(in->ReadAt(4, 2).value(), "45");
}

TEST(FaultInjectingObjectStore, LatencyOnlyFaultSucceeds) {
  auto store = MakeStore();
  store->Inject({.op = ObjectOp::kList, .times = Fault::kForever, .latency = std::chrono::milliseconds(1),
                 .error = std::nullopt});
  ASSERT_TRUE(store->Put("x", "1"));
  auto list = store->List("", "", std::nullopt);
  ASSERT_TRUE(list);
  EXPECT_EQ(list->objects.size(), 1u);
  EXPECT_EQ(store->FaultsFired(), 1u);
}

TEST(FaultInjectingObjectStore, ProbabilityIsReproducibleForASeed) {
  auto run = [](uint64_t seed) {
    FaultInjectingObjectStore store(LocalObjectStore::Open(FreshFolder()).value(), seed);
    store.Inject({.op = ObjectOp::kHead, .times = Fault::kForever, .probability = 0.5});
    std::string pattern;
    for (int i = 0; i < 64; ++i) {
      auto r = store.Head("missing");
      pattern += r.error().kind() == ErrorKind::kUnavailable ? 'F' : '.';
    }
    return pattern;
  };
  std::string a = run(7);
  EXPECT_EQ(a, run(7));
  EXPECT_NE(a.find('F'), std::string::npos);
  EXPECT_NE(a.find('.'), std::string::npos);
}

TEST(FaultInjectingObjectStore, FirstMatchingFaultWins) {
  auto store = MakeStore();
  store->Inject({.op = ObjectOp::kDelete, .error = ErrorKind::kPermissionDenied});
  store->Inject({.op = ObjectOp::kAny, .times = Fault::kForever, .error = ErrorKind::kIo});
  EXPECT_EQ(store->Delete("x").error().kind(), ErrorKind::kPermissionDenied);
  EXPECT_EQ(store->Delete("x").error().kind(), ErrorKind::kIo);
  EXPECT_EQ(store->DeleteMany({"x"}).error().kind(), ErrorKind::kIo);
}

}  // namespace
}  // namespace floe::io
