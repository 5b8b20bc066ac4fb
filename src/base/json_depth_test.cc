#include "base/json_depth.h"

#include <string>

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(JsonDepthTest, CountsNestingOutsideStrings) {
  EXPECT_EQ(JsonNestingDepth("1"), 0);
  EXPECT_EQ(JsonNestingDepth(R"({"a":[1,{"b":[]}]})"), 4);
  EXPECT_EQ(JsonNestingDepth(R"({"a":"[[[[{{{{"})"), 1);
  EXPECT_EQ(JsonNestingDepth(R"({"a":"\"[[[["})"), 1);  // An escaped quote does not end the string.
  EXPECT_EQ(JsonNestingDepth("[[]][[]]"), 2);
}

TEST(JsonDepthTest, RefusesDeepTextWithoutRecursing) {
  std::string deep(1 << 20, '[');  // A 1 MiB attack body: one scan, no stack growth.
  auto checked = CheckJsonDepth(deep);
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.error().kind(), ErrorKind::kInvalidArgument);
  std::string ok = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(CheckJsonDepth(ok));
  EXPECT_FALSE(CheckJsonDepth("[" + ok + "]"));
}

}  // namespace
}  // namespace floe
