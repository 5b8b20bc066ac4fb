// IntegerKeySet against std::set over keys that collide in the low bits, negatives, repeats.
#include "iceberg/integer_key_set.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <set>

namespace floe::iceberg {
namespace {

TEST(IntegerKeySet, AgreesWithStdSet) {
  IntegerKeySet keys;
  std::set<int64_t> model;
  EXPECT_FALSE(keys.Contains(0));
  std::mt19937_64 random(7);
  for (int i = 0; i < 100000; ++i) {
    int64_t key = i % 3 == 0 ? static_cast<int64_t>(random() % 5000) * 4096
                             : static_cast<int64_t>(random() - (uint64_t{1} << 62));
    keys.Insert(key);
    model.insert(key);
  }
  keys.Insert(0);
  model.insert(0);
  EXPECT_EQ(keys.size(), model.size());
  for (int64_t key : model) ASSERT_TRUE(keys.Contains(key)) << key;
  int absent = 0;
  for (int i = 0; i < 100000; ++i) {
    int64_t key = static_cast<int64_t>(random());
    if (!model.contains(key)) absent += keys.Contains(key) ? 0 : 1;
  }
  EXPECT_GT(absent, 99000);
  // The smallest key is the table's empty mark, kept apart.
  EXPECT_FALSE(keys.Contains(std::numeric_limits<int64_t>::min()));
  keys.Insert(std::numeric_limits<int64_t>::min());
  keys.Insert(std::numeric_limits<int64_t>::min());
  EXPECT_TRUE(keys.Contains(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(keys.size(), model.size() + 1);
}

}  // namespace
}  // namespace floe::iceberg
