#include "formats/parquet/rle_encoding.h"

#include <algorithm>
#include <cstring>

#include "base/append_uninitialized.h"
#include "base/varint.h"
#include "formats/parquet/bit_packing.h"

namespace floe::parquet {

Status RleDecoder::NextRun() {
  auto header = varint::DecodeUnsigned(&p_, end_, varint::kMaxLength32);
  if (!header) return Corruption("RLE run header truncated");
  if ((*header & 1) == 0) {
    rle_left_ = static_cast<int64_t>(*header >> 1);
    size_t bytes = static_cast<size_t>((width_ + 7) / 8);
    if (static_cast<size_t>(end_ - p_) < bytes) return Corruption("RLE run value truncated");
    uint64_t v = 0;
    std::memcpy(&v, p_, bytes);
    p_ += bytes;
    rle_value_ = v;
    if (rle_left_ == 0) return Corruption("empty RLE run");
  } else {
    int64_t groups = static_cast<int64_t>(*header >> 1);
    if (groups == 0) return Corruption("empty bit-packed run");
    int64_t bytes = groups * width_;
    int64_t avail = end_ - p_;
    if (bytes > avail) {
      // Some writers truncate the final run to the bytes its values need: keep what is there.
      groups = avail / std::max(width_, 1);
      if (width_ == 0) groups = static_cast<int64_t>(*header >> 1);
      if (groups == 0) return Corruption("bit-packed run truncated");
      bytes = groups * width_;
    }
    packed_ = p_;
    p_ += bytes;
    packed_left_ = groups * 8;
    packed_pos_ = 8;
  }
  return OkStatus();
}

bool RleDecoder::StartsWithRunOf(int64_t n, uint64_t value) {
  return NextRun() && rle_left_ >= n && rle_value_ == value;
}

template <typename T>
Status RleDecoder::Decode(T* out, int64_t n) {
  int64_t i = 0;
  while (i < n) {
    if (rle_left_ > 0) {
      int64_t take = std::min(rle_left_, n - i);
      T v = static_cast<T>(rle_value_);
      std::fill(out + i, out + i + take, v);
      i += take;
      rle_left_ -= take;
      continue;
    }
    if (packed_left_ > 0) {
      // Drain the partially consumed group first, then whole groups straight into out.
      while (packed_pos_ < 8 && packed_left_ > 0 && i < n) {
        out[i++] = static_cast<T>(group_[packed_pos_++]);
        --packed_left_;
      }
      if (i == n) break;
      int64_t whole = std::min(packed_left_, n - i) / 8 * 8;
      if (whole > 0) {
        bits::Unpack(packed_, width_, whole, out + i);
        packed_ += whole / 8 * width_;
        packed_left_ -= whole;
        i += whole;
      }
      if (packed_left_ > 0 && i < n) {
        bits::Unpack8(packed_, width_, group_);
        packed_ += width_;
        packed_pos_ = 0;
      }
      continue;
    }
    if (p_ >= end_) return Corruption("RLE data ends after {} of {} values", i, n);
    FLOE_RETURN_IF_ERROR(NextRun());
  }
  return OkStatus();
}

Status RleDecoder::DecodeIndices(uint32_t* out, int64_t n, uint32_t* max_seen) {
  FLOE_RETURN_IF_ERROR(Decode(out, n));
  uint32_t m = 0;
  for (int64_t i = 0; i < n; ++i) m = std::max(m, out[i]);
  *max_seen = m;
  return OkStatus();
}

template Status RleDecoder::Decode<uint8_t>(uint8_t*, int64_t);
template Status RleDecoder::Decode<int16_t>(int16_t*, int64_t);
template Status RleDecoder::Decode<uint32_t>(uint32_t*, int64_t);

namespace {

template <typename T>
void FlushLiteral(const T* values, int64_t n, int bit_width, std::string* out) {
  // n is a multiple of 8 except at the very end of the data, where the group is zero-padded.
  const int64_t groups = (n + 7) / 8, whole = n / 8;
  varint::AppendUnsigned(out, static_cast<uint64_t>(groups << 1 | 1));
  const auto bytes = static_cast<size_t>(groups * bit_width);
  AppendUninitialized(out, bytes, [&](char* data) {
    auto* to = reinterpret_cast<uint8_t*>(data);
    bits::PackGroups(values, whole, bit_width, to);
    if (whole < groups) {
      T pad[8] = {};
      std::copy(values + whole * 8, values + n, pad);
      bits::PackGroups(pad, 1, bit_width, to + whole * bit_width);
    }
    return bytes;
  });
}

template <typename T>
void FlushRun(T value, int64_t count, int bit_width, std::string* out) {
  varint::AppendUnsigned(out, static_cast<uint64_t>(count) << 1);
  uint64_t v = static_cast<uint64_t>(value);
  int bytes = (bit_width + 7) / 8;
  for (int b = 0; b < bytes; ++b) out->push_back(static_cast<char>(v >> (8 * b)));
}

}  // namespace

template <typename T>
void RleEncode(const T* values, int64_t n, int bit_width, std::string* out) {
  int64_t literal_start = 0;  // values[literal_start, i) are pending literals.
  int64_t i = 0;
  while (i < n) {
    T v = values[i];
    int64_t j = i + 1;
    while (j < n && values[j] == v) ++j;
    int64_t run = j - i;
    if (run >= 8) {
      int64_t pending = i - literal_start;
      int64_t borrow = (8 - pending % 8) % 8;  // Fill the literal run up to a whole group.
      if (pending > 0) {
        FlushLiteral(values + literal_start, pending + borrow, bit_width, out);
        run -= borrow;
      }
      if (run >= 8) {
        FlushRun(v, run, bit_width, out);
        literal_start = j;
      } else {
        literal_start = j - run;
      }
    }
    i = j;
  }
  if (literal_start < n) FlushLiteral(values + literal_start, n - literal_start, bit_width, out);
}

template void RleEncode<uint8_t>(const uint8_t*, int64_t, int, std::string*);
template void RleEncode<int16_t>(const int16_t*, int64_t, int, std::string*);
template void RleEncode<uint32_t>(const uint32_t*, int64_t, int, std::string*);

}  // namespace floe::parquet
