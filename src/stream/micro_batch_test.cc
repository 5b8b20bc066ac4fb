#include "stream/micro_batch.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace floe::stream {
namespace {

TEST(MicroBatch, TracksStartAndEndOffsetsPerPartition) {
  MicroBatch batch;
  batch.Add(0, 10, 1, "a", 1);
  batch.Add(1, 3, 2, "bb", 2);
  batch.Add(0, 11, 3, "ccc", 3);
  batch.Add(1, 4, 4, nullptr, 0);
  EXPECT_EQ(batch.record_count(), 4u);
  EXPECT_EQ(batch.value_bytes(), 6u);
  EXPECT_EQ(batch.start_offsets(), (SourceOffsets{{0, 10}, {1, 3}}));
  EXPECT_EQ(batch.end_offsets(), (SourceOffsets{{0, 12}, {1, 5}}));
  EXPECT_EQ(batch.value(batch.records()[2]), "ccc");
  EXPECT_TRUE(batch.records()[3].value_null);
}

TEST(MicroBatch, DropCommittedKeepsOnlyWhatTheTableLacks) {
  MicroBatch batch;
  for (int64_t o = 0; o < 5; ++o) batch.Add(0, o, 0, "x", 1);
  for (int64_t o = 0; o < 3; ++o) batch.Add(1, o, 0, "yy", 2);
  batch.Add(2, 7, 0, "z", 1);
  batch.DropCommitted({{0, 3}, {1, 3}});
  ASSERT_EQ(batch.record_count(), 3u);
  EXPECT_EQ(batch.records()[0].offset, 3);
  EXPECT_EQ(batch.value(batch.records()[2]), "z");
  EXPECT_EQ(batch.start_offsets(), (SourceOffsets{{0, 3}, {2, 7}}));
  EXPECT_EQ(batch.end_offsets(), (SourceOffsets{{0, 5}, {2, 8}}));
}

TEST(MicroBatch, HeldValuesAreReadInPlaceAndReleasedOnClear) {
  static int released;
  released = 0;
  auto release = [](void* handle) {
    ++released;
    delete static_cast<std::string*>(handle);
  };
  MicroBatch batch;
  for (int64_t o = 0; o < 4; ++o) {
    auto* message = new std::string("value " + std::to_string(o));
    batch.AddHeld(o % 2, o, 0, message->data(), message->size(), message, release);
  }
  batch.Add(0, 9, 0, "copied", 6);
  EXPECT_EQ(batch.value(batch.records()[1]), "value 1");
  EXPECT_EQ(batch.value_bytes(), 4 * 7u + 6);
  batch.DropCommitted({{1, 2}});  // Drops offset 1 of partition 1; its message stays held.
  ASSERT_EQ(batch.record_count(), 4u);
  EXPECT_EQ(batch.value(batch.records()[2]), "value 3");
  EXPECT_EQ(batch.value(batch.records()[3]), "copied");
  EXPECT_EQ(batch.value_bytes(), 3 * 7u + 6);
  EXPECT_EQ(batch.start_offsets(), (SourceOffsets{{0, 0}, {1, 3}}));
  EXPECT_EQ(batch.end_offsets(), (SourceOffsets{{0, 10}, {1, 4}}));
  EXPECT_EQ(released, 0);
  batch.Clear();
  EXPECT_EQ(released, 4);
  EXPECT_TRUE(batch.empty());
  EXPECT_EQ(batch.value_bytes(), 0u);
}

TEST(MicroBatch, CopiedValuesOutgrowingABlockStayWhereTheyWere) {
  MicroBatch batch;
  std::string big(3 << 20, 'x');
  std::vector<std::string> small;
  for (int i = 0; i < 5000; ++i) small.push_back(std::string(300, static_cast<char>('a' + i % 26)));
  for (int i = 0; i < 5000; ++i) {
    batch.Add(0, 2 * i, 0, small[i].data(), small[i].size());
    if (i % 1000 == 0) batch.Add(1, i, 0, big.data(), big.size());
  }
  size_t s = 0;
  for (const SourceRecord& r : batch.records()) {
    if (r.partition == 0) EXPECT_EQ(batch.value(r), small[s++]);
    else EXPECT_EQ(batch.value(r), big);
  }
  EXPECT_EQ(s, small.size());
}

}  // namespace
}  // namespace floe::stream
