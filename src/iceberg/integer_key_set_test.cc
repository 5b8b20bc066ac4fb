// IntegerKeySet against std::set: scattered keys (the hash table form) that collide in the low
// bits, negatives and repeats; dense keys (the bitmap form) at the ends of the 64-bit range.
#include "iceberg/integer_key_set.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <set>

namespace floe::iceberg {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

void ExpectAgrees(const IntegerKeySet& keys, const std::set<int64_t>& model, const std::vector<int64_t>& probes) {
  EXPECT_EQ(keys.size(), model.size());
  for (int64_t key : model) ASSERT_TRUE(keys.Contains(key)) << key;
  for (int64_t key : probes) ASSERT_EQ(keys.Contains(key), model.contains(key)) << key;
}

TEST(IntegerKeySet, ScatteredKeysAgreeWithStdSet) {
  std::vector<int64_t> input;
  std::mt19937_64 random(7);
  for (int i = 0; i < 100000; ++i) {
    input.push_back(i % 3 == 0 ? static_cast<int64_t>(random() % 5000) * 4096
                               : static_cast<int64_t>(random() - (uint64_t{1} << 62)));
  }
  input.push_back(0);
  input.push_back(kMin);  // The hash table's empty mark, kept apart.
  input.push_back(kMin);
  std::set<int64_t> model(input.begin(), input.end());
  IntegerKeySet keys(input);
  EXPECT_FALSE(keys.is_bitmap());
  std::vector<int64_t> probes = {kMax, kMin + 1, -1, 1};
  for (int i = 0; i < 100000; ++i) probes.push_back(static_cast<int64_t>(random()));
  ExpectAgrees(keys, model, probes);
  IntegerKeySet without_min(std::vector<int64_t>{1, 1LL << 40, 1LL << 62});
  EXPECT_FALSE(without_min.Contains(kMin));
}

TEST(IntegerKeySet, DenseKeysBecomeABitmap) {
  std::vector<int64_t> input;
  std::mt19937_64 random(11);
  for (int i = 0; i < 50000; ++i) input.push_back(1 + static_cast<int64_t>(random() % 350000));
  std::set<int64_t> model(input.begin(), input.end());
  IntegerKeySet keys(input);
  EXPECT_TRUE(keys.is_bitmap());
  std::vector<int64_t> probes = {kMin, kMax, 0, -1, 350001, 350000 + 64, 1LL << 40};
  for (int64_t k = -100; k < 350200; ++k) probes.push_back(k);
  ExpectAgrees(keys, model, probes);

  // Dense at either end of the range: the offsets must not overflow.
  for (int64_t base : {kMin, kMax - 999}) {
    std::vector<int64_t> edge;
    for (int64_t k = 0; k < 1000; k += 2) edge.push_back(base + k);
    std::set<int64_t> edge_model(edge.begin(), edge.end());
    IntegerKeySet edge_keys(edge);
    EXPECT_TRUE(edge_keys.is_bitmap());
    std::vector<int64_t> edge_probes = {kMin, kMin + 1, kMax, kMax - 1, 0, base + 999};
    if (base > kMin) edge_probes.push_back(base - 1);      // Just below the keys, where it exists.
    if (base <= kMax - 1000) edge_probes.push_back(base + 1000);  // Just above them.
    ExpectAgrees(edge_keys, edge_model, edge_probes);
  }
  // The whole range spans 2^64 values, which no bitmap holds.
  IntegerKeySet ends(std::vector<int64_t>{kMin, kMax});
  EXPECT_FALSE(ends.is_bitmap());
  ExpectAgrees(ends, {kMin, kMax}, {0, kMin + 1, kMax - 1});
}

TEST(IntegerKeySet, MarkContainedKeepsMarksAndSkipsAbsentKeys) {
  IntegerKeySet keys(std::vector<int64_t>{3, 5, 7});
  const int32_t values[] = {1, 3, 4, 5, 9, 7};
  uint8_t marks[] = {0, 0, 1, 0, 0, 0};
  keys.MarkContained(values, 6, marks);
  EXPECT_EQ(std::vector<uint8_t>(marks, marks + 6), (std::vector<uint8_t>{0, 1, 1, 1, 0, 1}));
  IntegerKeySet empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_FALSE(empty.Contains(0));
  EXPECT_FALSE(empty.Contains(kMin));
}

}  // namespace
}  // namespace floe::iceberg
