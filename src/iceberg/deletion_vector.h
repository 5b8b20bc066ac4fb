// Deletion vectors (format v3): the deleted row positions of one data file, stored as a Puffin
// blob of type `deletion-vector-v1` that a position-delete manifest entry locates by
// `content_offset` / `content_size_in_bytes` (format/puffin-spec.md, "deletion-vector-v1").
//
// Blob layout: a 4-byte big-endian length of what follows up to the checksum, the magic bytes
// D1 D3 39 64, the positions as a portable 64-bit Roaring bitmap, and a 4-byte big-endian
// CRC-32 of the magic and bitmap. The 64-bit bitmap is an 8-byte little-endian count of 32-bit
// bitmaps, each a 4-byte little-endian key (the positions' high 32 bits, ascending) followed by
// a 32-bit Roaring bitmap in the portable format (array, bitmap and run containers).
//
// Decoding treats the blob as hostile: every length is checked against the bytes present and
// every position against the data file's row count, so a corrupt or crafted blob is a
// Corruption error naming the blob, never a crash or an allocation the input does not justify.
// Stateless functions; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::iceberg {

inline constexpr std::string_view kDeletionVectorBlobType = "deletion-vector-v1";

// The positions of a deletion-vector-v1 blob, ascending. Positions at or beyond `row_limit`
// (the referenced data file's record count) are Corruption; `where` names the blob in errors
// (e.g. "s3://.../x.puffin blob at 4+72").
Result<std::vector<int64_t>> DecodeDeletionVector(std::string_view blob, int64_t row_limit, std::string_view where);

// The blob for `positions` (any order, duplicates allowed; each in [0, 2^63)): what a v3
// writer stores. Containers are arrays or bitmaps (runs are only read).
std::string EncodeDeletionVector(std::vector<int64_t> positions);

}  // namespace floe::iceberg
