// Theta sketches: the number of distinct values of a column, estimated from the smallest hashes
// of its values (the KMV family of Apache DataSketches). Iceberg stores one per column in a
// Puffin statistics file as an `apache-datasketches-theta-v1` blob: the "compact" serialized
// form of a sketch built with DataSketches' default seed (9001) and fed each value's single-value
// binary form (format/spec.md, Appendix D); its blob metadata carries the estimate as the "ndv"
// property, which is what Trino and floe's planner read.
//
// A sketch keeps the `nominal_entries` smallest distinct 63-bit hashes (the high 64 bits of
// MurmurHash3_x64_128 shifted right once); once it has seen more, theta is the next smallest and
// the estimate is retained / (theta / 2^63). Sketches of parts union into the sketch of the
// whole, so a table's sketch grows with its appends without re-reading old files.
//
// Serialized form (little-endian): byte 0 the preamble's length in 8-byte words (1 empty,
// 2 exact, 3 estimating), 1 the serial version (3), 2 the family (3: compact), 5 the flags
// (read-only 2 | empty 4 | compact 8 | ordered 16), 6-7 the seed's 16-bit hash; from byte 8
// the retained count (uint32); from byte 16 theta when estimating; then the hashes, ascending.
// Deserializing treats the bytes as hostile (Corruption naming `where`). One thread at a time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::iceberg {

inline constexpr std::string_view kThetaSketchBlobType = "apache-datasketches-theta-v1";

class ThetaSketch {
 public:
  static constexpr uint64_t kDefaultSeed = 9001;
  static constexpr size_t kDefaultNominalEntries = 4096;
  static constexpr uint64_t kMaxTheta = 0x7fffffffffffffffULL;

  explicit ThetaSketch(size_t nominal_entries = kDefaultNominalEntries) : nominal_(nominal_entries) {}

  // Adds a value in its single-value binary form.
  void Update(std::string_view value_bytes);
  // Adds the values another sketch has seen (a union).
  void Merge(const ThetaSketch& other);

  double Estimate() const;
  bool empty() const { return empty_; }
  uint64_t theta() const { return theta_; }
  // The retained hashes, ascending (trims the buffer first).
  const std::vector<uint64_t>& Retained();

  std::string Serialize() const;
  static Result<ThetaSketch> Deserialize(std::string_view bytes, std::string_view where);

  // The 16-bit hash of DataSketches' default seed that every serialized sketch carries.
  static uint16_t SeedHash();

 private:
  // Sorts and deduplicates the buffer and keeps the nominal_ smallest (lowering theta).
  void Trim();

  size_t nominal_;
  uint64_t theta_ = kMaxTheta;
  std::vector<uint64_t> hashes_;  // Below theta_; unsorted, with duplicates, until Trim.
  bool empty_ = true;
};

}  // namespace floe::iceberg
