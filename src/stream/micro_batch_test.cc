#include "stream/micro_batch.h"

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

}  // namespace
}  // namespace floe::stream
