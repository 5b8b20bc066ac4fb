#include "iceberg/theta_sketch.h"

#include <algorithm>
#include <cstring>

#include "base/bytes.h"
#include "iceberg/murmur3.h"

namespace floe::iceberg {
namespace {

constexpr uint8_t kSerialVersion = 3;
constexpr uint8_t kCompactFamily = 3;
constexpr uint8_t kReadOnly = 1 << 1;
constexpr uint8_t kEmpty = 1 << 2;
constexpr uint8_t kCompact = 1 << 3;
constexpr uint8_t kOrdered = 1 << 4;

uint64_t GetLittleEndian(std::string_view in, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(in[at + static_cast<size_t>(i)]);
  return v;
}

}  // namespace

uint16_t ThetaSketch::SeedHash() {
  std::string seed;
  ByteWriter(&seed).AppendLittle<uint64_t>(kDefaultSeed);
  return static_cast<uint16_t>(Murmur3Hash128(seed, 0).h1 & 0xffff);
}

void ThetaSketch::Update(std::string_view value_bytes) {
  empty_ = false;
  uint64_t hash = Murmur3Hash128(value_bytes, kDefaultSeed).h1 >> 1;
  if (hash == 0 || hash >= theta_) return;
  hashes_.push_back(hash);
  if (hashes_.size() >= 2 * nominal_) Trim();
}

void ThetaSketch::Merge(const ThetaSketch& other) {
  if (other.empty_) return;
  empty_ = false;
  theta_ = std::min(theta_, other.theta_);
  std::erase_if(hashes_, [&](uint64_t h) { return h >= theta_; });
  for (uint64_t h : other.hashes_) {
    if (h < theta_) hashes_.push_back(h);
  }
  Trim();
}

void ThetaSketch::Trim() {
  std::sort(hashes_.begin(), hashes_.end());
  hashes_.erase(std::unique(hashes_.begin(), hashes_.end()), hashes_.end());
  if (hashes_.size() > nominal_) {
    theta_ = hashes_[nominal_];
    hashes_.resize(nominal_);
  }
}

const std::vector<uint64_t>& ThetaSketch::Retained() {
  Trim();
  return hashes_;
}

double ThetaSketch::Estimate() const {
  ThetaSketch trimmed = *this;
  trimmed.Trim();
  auto count = static_cast<double>(trimmed.hashes_.size());
  if (trimmed.theta_ == kMaxTheta) return count;
  return count / (static_cast<double>(trimmed.theta_) / static_cast<double>(kMaxTheta));
}

std::string ThetaSketch::Serialize() const {
  ThetaSketch trimmed = *this;
  trimmed.Trim();
  const bool estimating = trimmed.theta_ < kMaxTheta;
  std::string out;
  if (empty_) {
    // The canonical empty image: no seed hash (any seed's empty sketch is the same).
    out.push_back(1);
    out.push_back(static_cast<char>(kSerialVersion));
    out.push_back(static_cast<char>(kCompactFamily));
    out.append(2, '\0');
    out.push_back(static_cast<char>(kReadOnly | kEmpty | kCompact | kOrdered));
    out.append(2, '\0');
    return out;
  }
  const uint8_t preamble_longs = estimating ? 3 : 2;
  out.push_back(static_cast<char>(preamble_longs));
  out.push_back(static_cast<char>(kSerialVersion));
  out.push_back(static_cast<char>(kCompactFamily));
  out.append(2, '\0');
  out.push_back(static_cast<char>(kReadOnly | kCompact | kOrdered));
  ByteWriter writer(&out);
  writer.AppendLittle<uint16_t>(SeedHash());
  writer.AppendLittle<uint32_t>(static_cast<uint32_t>(trimmed.hashes_.size()));
  writer.AppendLittle<uint32_t>(0);
  if (estimating) writer.AppendLittle<uint64_t>(trimmed.theta_);
  for (uint64_t h : trimmed.hashes_) writer.AppendLittle<uint64_t>(h);
  return out;
}

Result<ThetaSketch> ThetaSketch::Deserialize(std::string_view bytes, std::string_view where) {
  if (bytes.size() < 8) return Corruption("theta sketch {}: {} bytes, shorter than its 8-byte preamble", where, bytes.size());
  const uint8_t preamble_longs = static_cast<uint8_t>(bytes[0]) & 0x3f;
  const auto version = static_cast<uint8_t>(bytes[1]);
  const auto family = static_cast<uint8_t>(bytes[2]);
  const auto flags = static_cast<uint8_t>(bytes[5]);
  if (version != kSerialVersion) return Corruption("theta sketch {}: serial version {} (only 3 is read)", where, version);
  if (family != kCompactFamily || (flags & kCompact) == 0) return Corruption("theta sketch {}: not a compact theta sketch", where);
  if (preamble_longs < 1 || preamble_longs > 3) return Corruption("theta sketch {}: preamble of {} words", where, preamble_longs);
  ThetaSketch sketch;
  const auto seed_hash = static_cast<uint16_t>(GetLittleEndian(bytes, 6, 2));
  if ((flags & kEmpty) != 0) {
    if (bytes.size() != 8 && preamble_longs == 1) return Corruption("theta sketch {}: an empty sketch of {} bytes", where, bytes.size());
    return sketch;
  }
  if (seed_hash != SeedHash()) return Corruption("theta sketch {}: built with another seed (seed hash {:#x})", where, seed_hash);
  sketch.empty_ = false;
  size_t count = 1;
  size_t at = 8;
  if (preamble_longs >= 2) {
    if (bytes.size() < 16) return Corruption("theta sketch {}: preamble cut short", where);
    count = GetLittleEndian(bytes, 8, 4);
    at = 16;
  }
  if (preamble_longs == 3) {
    if (bytes.size() < 24) return Corruption("theta sketch {}: preamble cut short", where);
    sketch.theta_ = GetLittleEndian(bytes, 16, 8);
    at = 24;
    if (sketch.theta_ == 0 || sketch.theta_ > kMaxTheta) return Corruption("theta sketch {}: theta {} out of range", where, sketch.theta_);
  }
  if ((bytes.size() - at) / 8 != count || (bytes.size() - at) % 8 != 0) {
    return Corruption("theta sketch {}: says {} hashes, holds {} bytes of them", where, count, bytes.size() - at);
  }
  sketch.hashes_.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    uint64_t h = GetLittleEndian(bytes, at + 8 * i, 8);
    if (h == 0 || h >= sketch.theta_) return Corruption("theta sketch {}: hash {} is not below theta", where, i);
    sketch.hashes_.push_back(h);
  }
  sketch.nominal_ = std::max(kDefaultNominalEntries, count);
  sketch.Trim();
  return sketch;
}

}  // namespace floe::iceberg
