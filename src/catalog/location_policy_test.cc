#include "catalog/location_policy.h"

#include <gtest/gtest.h>

namespace floe::catalog {
namespace {

TEST(LocationPolicyTest, NormalizesSpellingsOfTheSameLocation) {
  EXPECT_EQ(*NormalizeLocation("file:///w/db/t/"), "file:///w/db/t");
  EXPECT_EQ(*NormalizeLocation("file:/w//db/t"), "file:///w/db/t");
  EXPECT_EQ(*NormalizeLocation("/w/db/t"), "file:///w/db/t");
  EXPECT_EQ(*NormalizeLocation("s3a://bucket/a//b/"), "s3://bucket/a/b");
  EXPECT_EQ(*NormalizeLocation("file:///"), "file:///");
}

TEST(LocationPolicyTest, RefusesSpellingsThatClimbOrHide) {
  for (const char* bad : {"file:///w/../etc", "file:///w/./t", "s3://b/p/../other", "relative/path", "hdfs://nn/x",
                          "file://host/w", "s3:///key", "file:///w/t\n"}) {
    auto normal = NormalizeLocation(bad);
    ASSERT_FALSE(normal) << bad;
    EXPECT_EQ(normal.error().kind(), ErrorKind::kInvalidArgument) << bad;
  }
}

TEST(LocationPolicyTest, TablesLieStrictlyUnderARoot) {
  auto policy = LocationPolicy::Make({"file:///w/", "s3://bucket/prefix"});
  ASSERT_TRUE(policy);
  EXPECT_EQ(*policy->CheckTableLocation("/w/db/t"), "file:///w/db/t");
  EXPECT_EQ(*policy->CheckTableLocation("s3a://bucket/prefix/t"), "s3://bucket/prefix/t");
  for (const char* outside : {"file:///w", "file:///wx/t", "file:///tmp/victim", "s3://bucket/prefixed/t",
                              "s3://other/prefix/t", "s3://bucket/prefix"}) {
    auto checked = policy->CheckTableLocation(outside);
    ASSERT_FALSE(checked) << outside;
    EXPECT_EQ(checked.error().kind(), ErrorKind::kPermissionDenied) << outside;
  }
  EXPECT_EQ(policy->RootOf("file:///w/db/t"), "file:///w");
  EXPECT_EQ(policy->RootOf("file:///wx"), "");
}

TEST(LocationPolicyTest, OverlapIsSegmentWise) {
  EXPECT_TRUE(LocationsOverlap("file:///w/a", "file:///w/a/b"));
  EXPECT_TRUE(LocationsOverlap("file:///w/a/b", "file:///w/a"));
  EXPECT_TRUE(LocationsOverlap("file:///w/a", "file:///w/a"));
  EXPECT_FALSE(LocationsOverlap("file:///w/a", "file:///w/ab"));
  EXPECT_TRUE(LocationWithin("file:///", "file:///x"));
}

TEST(LocationPolicyTest, AnUnconfinedPolicyOnlyNormalizes) {
  LocationPolicy open;
  EXPECT_FALSE(open.confined());
  EXPECT_EQ(*open.CheckTableLocation("/anywhere/t"), "file:///anywhere/t");
}

}  // namespace
}  // namespace floe::catalog
