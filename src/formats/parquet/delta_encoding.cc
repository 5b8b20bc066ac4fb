#include "formats/parquet/delta_encoding.h"

#include <algorithm>
#include <limits>

#include "base/varint.h"
#include "formats/parquet/bit_packing.h"

namespace floe::parquet {
namespace {

constexpr uint64_t kBlockSize = 128;
constexpr uint64_t kMiniblocks = 4;
constexpr uint64_t kMaxBlockSize = 1 << 16;

}  // namespace

template <typename T>
Status DeltaBinaryPackedDecode(std::string_view data, int64_t n, T* out, size_t* consumed) {
  using U = std::make_unsigned_t<T>;
  const auto* begin = reinterpret_cast<const uint8_t*>(data.data());
  const uint8_t* p = begin;
  const uint8_t* end = p + data.size();
  auto block_size = varint::DecodeUnsigned(&p, end);
  auto miniblocks = varint::DecodeUnsigned(&p, end);
  auto total = varint::DecodeUnsigned(&p, end);
  auto first = varint::DecodeUnsigned(&p, end);
  if (!block_size || !miniblocks || !total || !first) return Corruption("delta header truncated");
  if (*block_size == 0 || *block_size % 128 != 0 || *block_size > kMaxBlockSize || *miniblocks == 0 ||
      *block_size % *miniblocks != 0 || (*block_size / *miniblocks) % 32 != 0) {
    return Corruption("delta header: block size {} with {} miniblocks", *block_size, *miniblocks);
  }
  if (*total != static_cast<uint64_t>(n)) return Corruption("delta data holds {} values, {} expected", *total, n);
  const uint64_t per_mini = *block_size / *miniblocks;
  U last = static_cast<U>(varint::ZigZagDecode(*first));
  int64_t i = 0;
  if (n > 0) out[i++] = static_cast<T>(last);
  uint64_t deltas[8];
  int64_t remaining_total = static_cast<int64_t>(*total) - 1;
  while (i < n) {
    auto min_delta_z = varint::DecodeUnsigned(&p, end);
    if (!min_delta_z) return Corruption("delta block header truncated");
    U min_delta = static_cast<U>(varint::ZigZagDecode(*min_delta_z));
    if (static_cast<uint64_t>(end - p) < *miniblocks) return Corruption("delta bit widths truncated");
    const uint8_t* widths = p;
    p += *miniblocks;
    for (uint64_t m = 0; m < *miniblocks && i < n && remaining_total > 0; ++m) {
      int width = widths[m];
      if (width > static_cast<int>(sizeof(T) * 8)) return Corruption("delta bit width {}", width);
      uint64_t bytes = per_mini * static_cast<uint64_t>(width) / 8;
      int64_t in_mini = std::min<int64_t>(static_cast<int64_t>(per_mini), remaining_total);
      // The last miniblock may be cut short: only the bytes its values need must be present.
      uint64_t need = static_cast<uint64_t>((in_mini * width + 7) / 8);
      uint64_t avail = static_cast<uint64_t>(end - p);
      if (avail < need) return Corruption("delta miniblock truncated");
      for (uint64_t g = 0; g < per_mini && static_cast<int64_t>(g) < in_mini; g += 8) {
        const uint8_t* gp = p + g * static_cast<uint64_t>(width) / 8;
        if (static_cast<uint64_t>(gp - p) + static_cast<uint64_t>(width) <= avail) {
          bits::Unpack8(gp, width, deltas);
        } else {
          uint8_t tmp[64] = {};
          std::memcpy(tmp, gp, avail - static_cast<uint64_t>(gp - p));
          bits::Unpack8(tmp, width, deltas);
        }
        for (int k = 0; k < 8 && static_cast<int64_t>(g) + k < in_mini && i < n; ++k) {
          last = static_cast<U>(last + min_delta + static_cast<U>(deltas[k]));
          out[i++] = static_cast<T>(last);
        }
      }
      remaining_total -= in_mini;
      p += std::min(bytes, avail);
    }
  }
  if (consumed) *consumed = static_cast<size_t>(p - begin);
  return OkStatus();
}

template <typename T>
void DeltaBinaryPackedEncode(const T* values, int64_t n, std::string* out) {
  using U = std::make_unsigned_t<T>;
  varint::AppendUnsigned(out, kBlockSize);
  varint::AppendUnsigned(out, kMiniblocks);
  varint::AppendUnsigned(out, static_cast<uint64_t>(n));
  varint::AppendSigned(out, n > 0 ? static_cast<int64_t>(values[0]) : 0);
  const int64_t per_mini = kBlockSize / kMiniblocks;
  U deltas[kBlockSize];
  for (int64_t start = 1; start < n; start += kBlockSize) {
    int64_t count = std::min<int64_t>(kBlockSize, n - start);
    // Deltas wrap in the unsigned type, so the minimum is found in signed terms.
    using S = T;
    S min_delta = std::numeric_limits<S>::max();
    for (int64_t k = 0; k < count; ++k) {
      S d = static_cast<S>(static_cast<U>(values[start + k]) - static_cast<U>(values[start + k - 1]));
      deltas[k] = static_cast<U>(d);
      min_delta = std::min(min_delta, d);
    }
    for (int64_t k = 0; k < count; ++k) deltas[k] = static_cast<U>(deltas[k] - static_cast<U>(min_delta));
    for (int64_t k = count; k < static_cast<int64_t>(kBlockSize); ++k) deltas[k] = 0;
    varint::AppendSigned(out, static_cast<int64_t>(min_delta));
    int widths[kMiniblocks];
    for (uint64_t m = 0; m < kMiniblocks; ++m) {
      U mx = 0;
      for (int64_t k = static_cast<int64_t>(m) * per_mini; k < static_cast<int64_t>(m + 1) * per_mini; ++k) mx |= deltas[k];
      widths[m] = static_cast<int64_t>(m) * per_mini < count ? bits::BitWidth(mx) : 0;
      out->push_back(static_cast<char>(widths[m]));
    }
    for (uint64_t m = 0; m < kMiniblocks; ++m) {
      if (static_cast<int64_t>(m) * per_mini >= count) break;
      for (int64_t g = 0; g < per_mini; g += 8) bits::Pack8(deltas + m * per_mini + g, widths[m], out);
    }
  }
}

template Status DeltaBinaryPackedDecode<int32_t>(std::string_view, int64_t, int32_t*, size_t*);
template Status DeltaBinaryPackedDecode<int64_t>(std::string_view, int64_t, int64_t*, size_t*);
template void DeltaBinaryPackedEncode<int32_t>(const int32_t*, int64_t, std::string*);
template void DeltaBinaryPackedEncode<int64_t>(const int64_t*, int64_t, std::string*);

Status DeltaLengthByteArrayDecode(std::string_view data, int64_t n, formats::Buffer* bytes,
                                  std::vector<int32_t>* offsets, size_t* consumed) {
  std::vector<int32_t> lengths(static_cast<size_t>(n));
  size_t used = 0;
  FLOE_RETURN_IF_ERROR(DeltaBinaryPackedDecode<int32_t>(data, n, lengths.data(), &used));
  const char* p = data.data() + used;
  size_t avail = data.size() - used;
  int64_t total = 0;
  for (int32_t len : lengths) {
    if (len < 0) return Corruption("negative byte array length");
    total += len;
  }
  if (static_cast<uint64_t>(total) > avail) return Corruption("byte array data truncated");
  if (static_cast<int64_t>(bytes->size()) + total > INT32_MAX) return ResourceExhausted("byte arrays over 2 GiB in one batch");
  int32_t base = static_cast<int32_t>(bytes->size());
  bytes->Append(p, static_cast<size_t>(total));
  for (int32_t len : lengths) {
    base += len;
    offsets->push_back(base);
  }
  if (consumed) *consumed = used + static_cast<size_t>(total);
  return OkStatus();
}

Status DeltaByteArrayDecode(std::string_view data, int64_t n, formats::Buffer* bytes, std::vector<int32_t>* offsets) {
  std::vector<int32_t> prefixes(static_cast<size_t>(n));
  size_t used = 0;
  FLOE_RETURN_IF_ERROR(DeltaBinaryPackedDecode<int32_t>(data, n, prefixes.data(), &used));
  formats::Buffer suffixes;
  std::vector<int32_t> suffix_ends;
  FLOE_RETURN_IF_ERROR(DeltaLengthByteArrayDecode(data.substr(used), n, &suffixes, &suffix_ends, nullptr));
  int32_t prev_start = -1, prev_len = 0;
  int32_t suffix_start = 0;
  for (int64_t i = 0; i < n; ++i) {
    int32_t prefix = prefixes[static_cast<size_t>(i)];
    if (prefix < 0 || prefix > prev_len) return Corruption("DELTA_BYTE_ARRAY prefix {} longer than the previous value", prefix);
    int32_t suffix_len = suffix_ends[static_cast<size_t>(i)] - suffix_start;
    if (static_cast<int64_t>(bytes->size()) + prefix + suffix_len > INT32_MAX) {
      return ResourceExhausted("byte arrays over 2 GiB in one batch");
    }
    int32_t start = static_cast<int32_t>(bytes->size());
    bytes->Reserve(bytes->size() + static_cast<size_t>(prefix + suffix_len));
    if (prefix > 0) bytes->Append(bytes->data() + prev_start, static_cast<size_t>(prefix));
    bytes->Append(suffixes.data() + suffix_start, static_cast<size_t>(suffix_len));
    suffix_start = suffix_ends[static_cast<size_t>(i)];
    prev_start = start;
    prev_len = prefix + suffix_len;
    offsets->push_back(static_cast<int32_t>(bytes->size()));
  }
  return OkStatus();
}

}  // namespace floe::parquet
