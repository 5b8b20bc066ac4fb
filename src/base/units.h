// Durations and data sizes as people write them on command lines, in SQL procedure arguments
// and in session properties: "500ms", "10s", "1.5h", "7d"; "256MB", "64kB", "1GB" (Trino's data
// sizes: binary multiples). One parser each, so every flag and property reads them alike.
// Stateless functions; any thread.
#pragma once

#include <cstdint>
#include <string_view>

#include "base/result.h"

namespace floe {

// ms, s, m, h or d after a non-negative number (decimals allowed); a bare number is in units of
// `bare_unit_ms` milliseconds (seconds for --trigger, milliseconds for SQL procedure arguments).
Result<int64_t> ParseDurationMillis(std::string_view text, int64_t bare_unit_ms = 1000);

// B, kB, MB, GB, TB (or KiB, MiB, GiB, TiB; any case) after a non-negative number (decimals
// allowed); a bare number is bytes. kInvalidArgument past 2^62 bytes.
Result<int64_t> ParseDataSize(std::string_view text);

}  // namespace floe
