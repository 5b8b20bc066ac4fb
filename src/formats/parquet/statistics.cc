#include "formats/parquet/statistics.h"

namespace floe::parquet {
namespace {

std::string MinimalBigEndian(__int128 v) {
  std::string out(16, '\0');
  auto u = static_cast<unsigned __int128>(v);
  for (int i = 15; i >= 0; --i) {
    out[static_cast<size_t>(i)] = static_cast<char>(static_cast<uint8_t>(u));
    u >>= 8;
  }
  // Drop leading bytes that only repeat the sign.
  size_t start = 0;
  while (start < 15) {
    auto b = static_cast<uint8_t>(out[start]);
    auto next = static_cast<uint8_t>(out[start + 1]);
    if ((b == 0x00 && (next & 0x80) == 0) || (b == 0xFF && (next & 0x80) != 0)) {
      ++start;
    } else {
      break;
    }
  }
  return out.substr(start);
}

// Length in bytes of the first `chars` UTF-8 code points of s.
size_t Utf8Prefix(std::string_view s, int chars) {
  size_t i = 0;
  int n = 0;
  while (i < s.size() && n < chars) {
    auto c = static_cast<uint8_t>(s[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    i += len;
    ++n;
  }
  return std::min(i, s.size());
}

}  // namespace

std::optional<std::string> IcebergBound(const formats::DataType& type, PhysicalType physical, std::string_view plain,
                                        bool upper, int truncate) {
  using formats::TypeId;
  switch (type.id) {
    case TypeId::kDecimal: {
      __int128 v = 0;
      if (physical == PhysicalType::kInt32 && plain.size() == 4) {
        int32_t x;
        std::memcpy(&x, plain.data(), 4);
        v = x;
      } else if (physical == PhysicalType::kInt64 && plain.size() == 8) {
        int64_t x;
        std::memcpy(&x, plain.data(), 8);
        v = x;
      } else {
        if (plain.empty() || plain.size() > 16) return std::nullopt;
        v = (static_cast<uint8_t>(plain[0]) & 0x80) ? -1 : 0;
        for (char c : plain) v = static_cast<__int128>((static_cast<unsigned __int128>(v) << 8) | static_cast<uint8_t>(c));
      }
      return MinimalBigEndian(v);
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      size_t keep = type.id == TypeId::kString ? Utf8Prefix(plain, truncate) : std::min<size_t>(plain.size(), static_cast<size_t>(truncate));
      if (truncate <= 0 || keep >= plain.size()) return std::string(plain);
      std::string out(plain.substr(0, keep));
      if (!upper) return out;
      // Increment the last byte (binary) or code point (string) that can be; drop the rest.
      if (type.id == TypeId::kBinary) {
        while (!out.empty()) {
          auto b = static_cast<uint8_t>(out.back());
          if (b != 0xFF) {
            out.back() = static_cast<char>(b + 1);
            return out;
          }
          out.pop_back();
        }
        return std::nullopt;
      }
      while (!out.empty()) {
        auto c = static_cast<uint8_t>(out.back());
        if (c < 0x7F) {
          out.back() = static_cast<char>(c + 1);
          return out;
        }
        // Drop the whole last code point (continuation bytes and its lead byte).
        while (!out.empty() && (static_cast<uint8_t>(out.back()) & 0xC0) == 0x80) out.pop_back();
        if (!out.empty()) out.pop_back();
      }
      return std::nullopt;
    }
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap:
      return std::nullopt;
    default:
      return std::string(plain);
  }
}

}  // namespace floe::parquet

namespace floe::parquet {
namespace {

template <typename T>
int CompareAs(std::string_view a, std::string_view b) {
  if (a.size() < sizeof(T) || b.size() < sizeof(T)) return CompareBytes(a, b, ByteOrder::kUnsigned);
  T x, y;
  std::memcpy(&x, a.data(), sizeof(T));
  std::memcpy(&y, b.data(), sizeof(T));
  return x < y ? -1 : y < x ? 1 : 0;
}

}  // namespace

int ComparePlain(PhysicalType physical, ByteOrder order, std::string_view a, std::string_view b) {
  switch (physical) {
    case PhysicalType::kBoolean: return CompareAs<uint8_t>(a, b);
    case PhysicalType::kInt32: return CompareAs<int32_t>(a, b);
    case PhysicalType::kInt64: return CompareAs<int64_t>(a, b);
    case PhysicalType::kFloat: return CompareAs<float>(a, b);
    case PhysicalType::kDouble: return CompareAs<double>(a, b);
    default: return CompareBytes(a, b, order);
  }
}

void MergeStats(PhysicalType physical, ByteOrder order, const EncodedStats& from, EncodedStats* into) {
  if (from.has_min_max) {
    if (!into->has_min_max) {
      into->min = from.min;
      into->max = from.max;
      into->has_min_max = true;
    } else {
      if (ComparePlain(physical, order, from.min, into->min) < 0) into->min = from.min;
      if (ComparePlain(physical, order, from.max, into->max) > 0) into->max = from.max;
    }
  }
  into->null_count += from.null_count;
  into->nan_count += from.nan_count;
  into->num_values += from.num_values;
}

}  // namespace floe::parquet
