#include "io/object_key.h"

#include <gtest/gtest.h>

namespace floe::io {
namespace {

TEST(ObjectKey, AcceptsRelativePaths) {
  for (std::string_view key : {"a", "a/b/c.parquet", "db/t/metadata/00001-x.metadata.json", "a.b/..c/d..", ".hidden"}) {
    EXPECT_TRUE(ValidateKey(key)) << key;
  }
}

TEST(ObjectKey, RefusesTraversalAndMalformedKeys) {
  for (std::string_view key : {"", "/a", "..", "../a", "a/..", "a/../b", ".", "./a", "a/./b", "a//b", "a/",
                               ".floe-tmp-1", "a/.floe-tmp-1"}) {
    Status st = ValidateKey(key);
    ASSERT_FALSE(st) << key;
    EXPECT_EQ(st.error().kind(), ErrorKind::kInvalidArgument);
  }
  EXPECT_FALSE(ValidateKey(std::string_view("a\0b", 3)));
}

TEST(ObjectKey, PrefixesMayEndAnywhereButNeverClimb) {
  for (std::string_view prefix : {"", "a", "a/", "a/b", "db/t/meta", "a/."}) EXPECT_TRUE(ValidatePrefix(prefix)) << prefix;
  for (std::string_view prefix : {"..", "../", "a/../", "/a", "a//b", "a/./"}) EXPECT_FALSE(ValidatePrefix(prefix)) << prefix;
}

}  // namespace
}  // namespace floe::io
