#include "base/append_uninitialized.h"

#include <gtest/gtest.h>

#include <cstring>

namespace floe {
namespace {

// Many small appends, some writing all they asked for and some less, through many
// reallocations (the first leaves the short-string buffer): every earlier byte survives and the
// size is exactly what was written.
TEST(AppendUninitialized, KeepsContentsAcrossReallocationsAndShortWrites) {
  std::string s, expected;
  for (int k = 0; k < 5000; ++k) {
    s.push_back('h');
    expected.push_back('h');
    const char c = static_cast<char>('a' + k % 26);
    const size_t asked = k % 2 == 0 ? 3 : 16;
    AppendUninitialized(&s, asked, [&](char* at) {
      at[0] = c;
      at[1] = '-';
      at[2] = '|';
      return size_t{3};
    });
    expected += c;
    expected += "-|";
  }
  EXPECT_EQ(s, expected);
}

TEST(AppendUninitialized, AWriteOfNothingLeavesTheString) {
  std::string s(100, 'x');
  AppendUninitialized(&s, 1 << 20, [](char*) { return size_t{0}; });
  EXPECT_EQ(s, std::string(100, 'x'));
}

}  // namespace
}  // namespace floe
