#include "base/crc32c.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace floe {
namespace {

// Test vectors from RFC 3720 (iSCSI), appendix B.4, and the common "123456789" check value.
TEST(Crc32c, StandardVectors) {
  std::vector<uint8_t> zeros(32, 0x00);
  std::vector<uint8_t> ones(32, 0xFF);
  std::vector<uint8_t> ascending(32);
  std::vector<uint8_t> descending(32);
  for (int i = 0; i < 32; ++i) {
    ascending[i] = static_cast<uint8_t>(i);
    descending[i] = static_cast<uint8_t>(31 - i);
  }
  EXPECT_EQ(crc32c::Value(zeros.data(), zeros.size()), 0x8A9136AAu);
  EXPECT_EQ(crc32c::Value(ones.data(), ones.size()), 0x62A8AB43u);
  EXPECT_EQ(crc32c::Value(ascending.data(), ascending.size()), 0x46DD794Eu);
  EXPECT_EQ(crc32c::Value(descending.data(), descending.size()), 0x113FDB5Cu);
  EXPECT_EQ(crc32c::Value("123456789", 9), 0xE3069283u);
  EXPECT_EQ(crc32c::Value("", 0), 0u);
}

TEST(Crc32c, ExtendEqualsWholeAtEverySplit) {
  std::string data;
  for (int i = 0; i < 100; ++i) data += static_cast<char>(i * 7 + 3);
  uint32_t whole = crc32c::Value(data.data(), data.size());
  for (size_t split = 0; split <= data.size(); ++split) {
    uint32_t first = crc32c::Value(data.data(), split);
    EXPECT_EQ(crc32c::Extend(first, data.data() + split, data.size() - split), whole) << "split at " << split;
  }
}

}  // namespace
}  // namespace floe
