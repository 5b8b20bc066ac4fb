// The unit of timestamps JSON events carry as epoch numbers (`--timestamp-unit`, the table
// property floe.source.timestamp-unit), and their conversion to Iceberg's microseconds.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "base/result.h"

namespace floe::formats {

enum class EpochUnit : uint8_t { kMillis, kMicros, kNanos };

// Parses an epoch unit flag: "ms", "us" or "ns".
Result<EpochUnit> ParseEpochUnit(std::string_view text);

// The epoch number `raw` (in `unit`) as microseconds; nullopt when that overflows 64 bits.
inline std::optional<int64_t> EpochToMicros(int64_t raw, EpochUnit unit) {
  switch (unit) {
    case EpochUnit::kMillis: {
      int64_t micros;
      if (__builtin_mul_overflow(raw, int64_t{1000}, &micros)) return std::nullopt;
      return micros;
    }
    case EpochUnit::kNanos: {  // Floor, so instants before the epoch round down like Iceberg's.
      int64_t micros = raw / 1000;
      if (raw % 1000 < 0) --micros;
      return micros;
    }
    default: return raw;
  }
}

}  // namespace floe::formats
