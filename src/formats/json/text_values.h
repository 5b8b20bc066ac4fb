// Parsers for the text forms JSON events carry: ISO-8601 dates, times and timestamps (with
// 'T' or space, optional fraction, 'Z' or a numeric offset), exact decimals, RFC 4122 UUIDs
// and base64. Each returns nullopt on malformed input. Stateless; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace floe::formats::text {

std::optional<int32_t> ParseDate(std::string_view s);
// Microseconds since midnight.
std::optional<int64_t> ParseTime(std::string_view s);
// Microseconds since the epoch, UTC (an offset is applied; none means UTC).
std::optional<int64_t> ParseTimestamp(std::string_view s);
// The unscaled value of a decimal text ("-12.5", "3e2") at `scale`, or nullopt when it does
// not fit `precision` digits or needs more fraction digits than `scale`.
std::optional<__int128> ParseDecimal(std::string_view s, int precision, int scale);
std::optional<std::string> ParseUuid(std::string_view s);
std::optional<std::string> DecodeBase64(std::string_view s);
// Strict integer and float text ("12", "-3", "1.5e3", "NaN", "Infinity").
std::optional<int64_t> ParseInt(std::string_view s);
std::optional<double> ParseDouble(std::string_view s);

}  // namespace floe::formats::text
