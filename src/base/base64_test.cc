#include "base/base64.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(Base64, Rfc4648Vectors) {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},          {"f", "Zg=="},         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},   {"foob", "Zm9vYg=="},  {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(Base64Encode(plain), encoded);
    auto decoded = Base64Decode(encoded);
    ASSERT_TRUE(decoded.has_value()) << encoded;
    EXPECT_EQ(*decoded, plain);
  }
  std::string all;
  for (int c = 0; c < 256; ++c) all.push_back(static_cast<char>(c));
  EXPECT_EQ(*Base64Decode(Base64Encode(all)), all);
}

TEST(Base64, GarbageTruncationAndMisplacedPaddingAreErrors) {
  for (const char* bad : {"Zg=", "Zm9", "Zg==Zg==", "Z===", "Zm9v!A==", "Zm-_", "=Zm9"}) {
    EXPECT_FALSE(Base64Decode(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace floe
