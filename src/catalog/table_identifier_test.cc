#include "catalog/table_identifier.h"

#include <gtest/gtest.h>

namespace floe::catalog {
namespace {

TEST(TableIdentifierTest, DottedAndRestFormsRoundTrip) {
  Namespace ns = {"a", "b"};
  EXPECT_EQ(NamespaceToString(ns), "a.b");
  EXPECT_EQ(*NamespaceFromString("a.b"), ns);
  EXPECT_EQ(*NamespaceFromRestSegment(NamespaceToRestSegment(ns)), ns);
  auto id = IdentifierFromString("a.b.t");
  ASSERT_TRUE(id);
  EXPECT_EQ(id->ns, ns);
  EXPECT_EQ(id->name, "t");
  EXPECT_EQ(IdentifierToString(*id), "a.b.t");
}

TEST(TableIdentifierTest, RefusesGarbage) {
  EXPECT_FALSE(NamespaceFromString("a..b"));
  EXPECT_FALSE(NamespaceFromString(".a"));
  EXPECT_FALSE(NamespaceFromRestSegment(std::string("a\x1f", 2)));
  EXPECT_FALSE(NamespaceFromRestSegment(std::string("a\nb")));
  EXPECT_FALSE(IdentifierFromString("t"));
  EXPECT_FALSE(IdentifierFromString(".t"));
  EXPECT_FALSE(IdentifierFromString("a."));
  EXPECT_FALSE(ValidateTableName(std::string(256, 'x')));
  EXPECT_TRUE(ValidateTableName(std::string(255, 'x')));
}

}  // namespace
}  // namespace floe::catalog
