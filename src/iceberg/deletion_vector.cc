#include "iceberg/deletion_vector.h"

#include <algorithm>
#include <cstring>

#include <zlib.h>

#include "base/bytes.h"

namespace floe::iceberg {
namespace {

constexpr uint8_t kMagic[4] = {0xD1, 0xD3, 0x39, 0x64};
// Portable Roaring cookies (RoaringFormatSpec): without run containers the container count
// follows as a uint32; with them the count-1 sits in the cookie's high 16 bits and a bitset
// says which containers are runs.
constexpr uint32_t kCookieNoRuns = 12346;
constexpr uint32_t kCookieRuns = 12347;
constexpr uint32_t kArrayMaxCardinality = 4096;  // Larger containers are 2^16-bit bitmaps.
constexpr size_t kBitmapContainerBytes = 8192;

uint32_t Crc32(std::string_view bytes) {
  return static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

// Decodes one portable 32-bit bitmap whose values get `high` as their upper 32 bits.
Status DecodeBitmap32(ByteReader& in, uint64_t high, int64_t row_limit, std::string_view where,
                      std::vector<int64_t>* out) {
  FLOE_ASSIGN_OR_RETURN(uint32_t cookie, in.ReadLittle<uint32_t>("roaring cookie"));
  uint32_t containers = 0;
  std::string_view run_flags;
  bool has_offsets = true;
  if ((cookie & 0xFFFF) == kCookieRuns) {
    containers = (cookie >> 16) + 1;
    FLOE_ASSIGN_OR_RETURN(run_flags, in.ReadBytes((containers + 7) / 8, "roaring run flags"));
    has_offsets = containers >= 4;  // The format omits offsets for small run bitmaps.
  } else if (cookie == kCookieNoRuns) {
    FLOE_ASSIGN_OR_RETURN(containers, in.ReadLittle<uint32_t>("roaring container count"));
    if (containers > 65536) return Corruption("{}: {} roaring containers (at most 65536)", where, containers);
  } else {
    return Corruption("{}: unknown roaring cookie {:#x} at byte {}", where, cookie, in.position() - 4);
  }
  // Each container takes at least 2 header bytes; a count the input cannot hold is corrupt
  // before anything is allocated for it.
  if (in.remaining() / 4 < containers) return Corruption("{}: {} roaring containers in {} bytes", where, containers, in.remaining());
  std::vector<std::pair<uint16_t, uint32_t>> headers(containers);  // key, cardinality
  int32_t previous_key = -1;
  for (auto& [key, cardinality] : headers) {
    FLOE_ASSIGN_OR_RETURN(key, in.ReadLittle<uint16_t>("roaring container key"));
    FLOE_ASSIGN_OR_RETURN(uint16_t minus_one, in.ReadLittle<uint16_t>("roaring container cardinality"));
    cardinality = uint32_t{minus_one} + 1;
    if (static_cast<int32_t>(key) <= previous_key) return Corruption("{}: roaring container keys are not ascending", where);
    previous_key = key;
  }
  if (has_offsets) FLOE_RETURN_IF_ERROR(in.Skip(size_t{containers} * 4, "roaring container offsets"));
  for (uint32_t i = 0; i < containers; ++i) {
    const auto [key, cardinality] = headers[i];
    const uint64_t base = (high << 32) | (uint64_t{key} << 16);
    // Positions only grow from here (keys ascend), so one bound check per container suffices
    // to keep the output within the data file's rows.
    if (base >= static_cast<uint64_t>(row_limit)) {
      return Corruption("{}: deletes position {} but the data file has {} rows", where, base, row_limit);
    }
    auto emit = [&](uint32_t low) -> Status {
      uint64_t position = base | low;
      if (position >= static_cast<uint64_t>(row_limit)) {
        return Corruption("{}: deletes position {} but the data file has {} rows", where, position, row_limit);
      }
      out->push_back(static_cast<int64_t>(position));
      return OkStatus();
    };
    bool is_run = !run_flags.empty() && (static_cast<uint8_t>(run_flags[i / 8]) >> (i % 8)) & 1;
    if (is_run) {
      FLOE_ASSIGN_OR_RETURN(uint16_t runs, in.ReadLittle<uint16_t>("roaring run count"));
      int32_t next = 0;  // Runs must ascend and not touch: each starts past the previous end.
      for (uint16_t r = 0; r < runs; ++r) {
        FLOE_ASSIGN_OR_RETURN(uint16_t start, in.ReadLittle<uint16_t>("roaring run start"));
        FLOE_ASSIGN_OR_RETURN(uint16_t length, in.ReadLittle<uint16_t>("roaring run length"));
        if (start < next || uint32_t{start} + length > 0xFFFF) return Corruption("{}: roaring runs overlap or overflow", where);
        for (uint32_t v = start; v <= uint32_t{start} + length; ++v) FLOE_RETURN_IF_ERROR(emit(v));
        next = start + length + 2;
      }
    } else if (cardinality <= kArrayMaxCardinality) {
      int32_t previous = -1;
      for (uint32_t k = 0; k < cardinality; ++k) {
        FLOE_ASSIGN_OR_RETURN(uint16_t v, in.ReadLittle<uint16_t>("roaring array value"));
        if (static_cast<int32_t>(v) <= previous) return Corruption("{}: roaring array values are not ascending", where);
        previous = v;
        FLOE_RETURN_IF_ERROR(emit(v));
      }
    } else {
      FLOE_ASSIGN_OR_RETURN(std::string_view words, in.ReadBytes(kBitmapContainerBytes, "roaring bitmap container"));
      uint32_t seen = 0;
      for (uint32_t bit = 0; bit < kBitmapContainerBytes * 8; ++bit) {
        if ((static_cast<uint8_t>(words[bit / 8]) >> (bit % 8)) & 1) {
          FLOE_RETURN_IF_ERROR(emit(bit));
          ++seen;
        }
      }
      if (seen != cardinality) return Corruption("{}: roaring bitmap container holds {} values, its header says {}", where, seen, cardinality);
    }
  }
  return OkStatus();
}

}  // namespace

Result<std::vector<int64_t>> DecodeDeletionVector(std::string_view blob, int64_t row_limit, std::string_view where) {
  ByteReader in(blob);
  auto corrupt = [&](const Error& e) { return Corruption("deletion vector {}: {}", where, e.message()); };
  auto length = in.ReadBig<uint32_t>("length");
  if (!length) return corrupt(length.error());
  // The length covers the magic and the bitmap; the CRC follows.
  if (uint64_t{*length} + 8 != blob.size()) {
    return Corruption("deletion vector {}: length field says {} bytes, the blob has {} (expected length + 8)", where, *length,
                      blob.size());
  }
  if (*length < 4 || std::memcmp(blob.data() + 4, kMagic, 4) != 0) {
    return Corruption("deletion vector {}: bad magic (not a deletion-vector-v1 blob)", where);
  }
  std::string_view body = blob.substr(4, *length);
  ByteReader crc_in(blob.substr(4 + *length));
  uint32_t stored = *crc_in.ReadBig<uint32_t>("crc");
  if (Crc32(body) != stored) return Corruption("deletion vector {}: CRC-32 mismatch (the blob is damaged)", where);

  ByteReader bitmap(body.substr(4));
  std::vector<int64_t> out;
  std::string context = fmt::format("deletion vector {}", where);
  auto fail = [&](const Error& e) -> Result<std::vector<int64_t>> {
    if (e.message().starts_with(context)) return std::unexpected(e);
    return Corruption("{}: {}", context, e.message());
  };
  auto count = bitmap.ReadLittle<uint64_t>("bitmap count");
  if (!count) return fail(count.error());
  // Each 32-bit bitmap takes at least 8 bytes (key and cookie).
  if (*count > bitmap.remaining() / 8) return Corruption("{}: {} bitmaps in {} bytes", context, *count, bitmap.remaining());
  int64_t previous_key = -1;
  for (uint64_t i = 0; i < *count; ++i) {
    auto key = bitmap.ReadLittle<uint32_t>("bitmap key");
    if (!key) return fail(key.error());
    if (static_cast<int64_t>(*key) <= previous_key) return Corruption("{}: bitmap keys are not ascending", context);
    previous_key = *key;
    if (Status st = DecodeBitmap32(bitmap, *key, row_limit, context, &out); !st) return fail(st.error());
  }
  if (!bitmap.empty()) return Corruption("{}: {} bytes after the last bitmap", context, bitmap.remaining());
  return out;
}

std::string EncodeDeletionVector(std::vector<int64_t> positions) {
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  // Group by the high 32 bits, then by the next 16 (the container key).
  std::string bitmap;
  ByteWriter w(&bitmap);
  std::vector<std::pair<uint32_t, std::vector<int64_t>>> groups;
  for (int64_t p : positions) {
    uint32_t high = static_cast<uint32_t>(static_cast<uint64_t>(p) >> 32);
    if (groups.empty() || groups.back().first != high) groups.emplace_back(high, std::vector<int64_t>{});
    groups.back().second.push_back(p);
  }
  w.AppendLittle<uint64_t>(groups.size());
  for (const auto& [high, values] : groups) {
    w.AppendLittle<uint32_t>(high);
    std::vector<std::pair<uint16_t, std::vector<uint16_t>>> containers;
    for (int64_t p : values) {
      uint16_t key = static_cast<uint16_t>(static_cast<uint64_t>(p) >> 16);
      if (containers.empty() || containers.back().first != key) containers.emplace_back(key, std::vector<uint16_t>{});
      containers.back().second.push_back(static_cast<uint16_t>(p));
    }
    w.AppendLittle<uint32_t>(kCookieNoRuns);
    w.AppendLittle<uint32_t>(static_cast<uint32_t>(containers.size()));
    for (const auto& [key, lows] : containers) {
      w.AppendLittle<uint16_t>(key);
      w.AppendLittle<uint16_t>(static_cast<uint16_t>(lows.size() - 1));
    }
    // Offsets are measured from the start of this 32-bit bitmap.
    uint32_t offset = 8 + static_cast<uint32_t>(containers.size()) * 8;
    for (const auto& [key, lows] : containers) {
      w.AppendLittle<uint32_t>(offset);
      offset += lows.size() <= kArrayMaxCardinality ? static_cast<uint32_t>(lows.size() * 2) : kBitmapContainerBytes;
    }
    for (const auto& [key, lows] : containers) {
      if (lows.size() <= kArrayMaxCardinality) {
        for (uint16_t v : lows) w.AppendLittle<uint16_t>(v);
      } else {
        std::string words(kBitmapContainerBytes, '\0');
        for (uint16_t v : lows) words[v / 8] = static_cast<char>(static_cast<uint8_t>(words[v / 8]) | (1u << (v % 8)));
        w.AppendBytes(words);
      }
    }
  }
  std::string body(reinterpret_cast<const char*>(kMagic), 4);
  body += bitmap;
  std::string out;
  ByteWriter o(&out);
  o.AppendBig<uint32_t>(static_cast<uint32_t>(body.size()));
  o.AppendBytes(body);
  o.AppendBig<uint32_t>(Crc32(body));
  return out;
}

}  // namespace floe::iceberg
