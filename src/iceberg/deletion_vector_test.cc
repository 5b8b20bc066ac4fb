#include "iceberg/deletion_vector.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include "base/bytes.h"

namespace floe::iceberg {
namespace {

// Wraps a portable 64-bit Roaring bitmap in the deletion-vector-v1 envelope.
std::string Envelope(const std::string& bitmap) {
  std::string body = "\xD1\xD3\x39\x64" + bitmap;
  std::string out;
  ByteWriter w(&out);
  w.AppendBig<uint32_t>(static_cast<uint32_t>(body.size()));
  w.AppendBytes(body);
  w.AppendBig<uint32_t>(static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()))));
  return out;
}

TEST(DeletionVector, RoundTripsArraysBitmapsAndHighKeys) {
  std::vector<int64_t> positions = {7, 3, 3, 65536 + 1};
  for (int64_t i = 0; i < 5000; ++i) positions.push_back(200000 + 2 * i);  // A >4096 container: a bitmap.
  int64_t high = (int64_t{1} << 32) + 9;  // Another 32-bit bitmap (key 1).
  positions.push_back(high);
  std::string blob = EncodeDeletionVector(positions);
  auto decoded = DecodeDeletionVector(blob, high + 1, "t.puffin blob at 4+x");
  ASSERT_TRUE(decoded.has_value()) << decoded.error().ToString();
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  EXPECT_EQ(*decoded, positions);
  EXPECT_TRUE(DecodeDeletionVector(EncodeDeletionVector({}), 0, "empty").value().empty());
}

TEST(DeletionVector, ReadsRunContainers) {
  // One 32-bit bitmap with runs: cookie 12347 | (1 container - 1) << 16, run flags, the
  // container's key and cardinality-1, then 2 runs: [10, 12] and [20, 20]. No offsets (< 4).
  std::string bitmap;
  ByteWriter w(&bitmap);
  w.AppendLittle<uint64_t>(1);
  w.AppendLittle<uint32_t>(0);
  w.AppendLittle<uint32_t>(12347);
  w.AppendBytes(std::string(1, '\x01'));
  w.AppendLittle<uint16_t>(0);
  w.AppendLittle<uint16_t>(3);
  w.AppendLittle<uint16_t>(2);
  w.AppendLittle<uint16_t>(10);
  w.AppendLittle<uint16_t>(2);
  w.AppendLittle<uint16_t>(20);
  w.AppendLittle<uint16_t>(0);
  auto decoded = DecodeDeletionVector(Envelope(bitmap), 100, "runs");
  ASSERT_TRUE(decoded.has_value()) << decoded.error().ToString();
  EXPECT_EQ(*decoded, (std::vector<int64_t>{10, 11, 12, 20}));
  // A run that reaches past the data file's rows is corrupt, not a big allocation.
  auto beyond = DecodeDeletionVector(Envelope(bitmap), 15, "runs");
  ASSERT_FALSE(beyond.has_value());
  EXPECT_NE(beyond.error().message().find("data file has 15 rows"), std::string::npos);
}

TEST(DeletionVector, GarbageTruncationAndOversizeAreCorruption) {
  std::string good = EncodeDeletionVector({1, 2, 3, 100000});
  auto expect_corrupt = [](std::string_view blob, int64_t rows, const std::string& what) {
    auto r = DecodeDeletionVector(blob, rows, "f.puffin blob at 4+20");
    ASSERT_FALSE(r.has_value()) << what;
    EXPECT_EQ(r.error().kind(), ErrorKind::kCorruption) << what;
    EXPECT_NE(r.error().message().find("f.puffin blob at 4+20"), std::string::npos) << what << ": " << r.error().ToString();
  };
  for (size_t n = 0; n < good.size(); ++n) expect_corrupt(good.substr(0, n), 1 << 20, "truncated to " + std::to_string(n));
  expect_corrupt(good + "x", 1 << 20, "a trailing byte");
  expect_corrupt(good, 50, "positions beyond the file");
  std::string magic = good;
  magic[4] = 'X';
  expect_corrupt(magic, 1 << 20, "bad magic");
  // A length field claiming gigabytes.
  std::string huge = good;
  huge[0] = '\x7f';
  expect_corrupt(huge, 1 << 20, "oversize length");
  // Counts the bytes cannot hold, with a valid CRC so the parser itself must catch them.
  std::string bitmap;
  ByteWriter w(&bitmap);
  w.AppendLittle<uint64_t>(uint64_t{1} << 40);
  expect_corrupt(Envelope(bitmap), 1 << 20, "bitmap count");
  bitmap.clear();
  w.AppendLittle<uint64_t>(1);
  w.AppendLittle<uint32_t>(0);
  w.AppendLittle<uint32_t>(12346);
  w.AppendLittle<uint32_t>(60000);
  expect_corrupt(Envelope(bitmap), 1 << 20, "container count");
  bitmap.clear();
  w.AppendLittle<uint64_t>(1);
  w.AppendLittle<uint32_t>(0);
  w.AppendLittle<uint32_t>(99);
  expect_corrupt(Envelope(bitmap), 1 << 20, "cookie");
  // Every single-byte flip of a valid blob fails the CRC or parses; it never crashes.
  for (size_t i = 0; i < good.size(); ++i) {
    std::string flipped = good;
    flipped[i] ^= 0x5A;
    (void)DecodeDeletionVector(flipped, 1 << 20, "flip");
  }
}

}  // namespace
}  // namespace floe::iceberg
