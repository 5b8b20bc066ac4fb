// Calendar arithmetic for SQL dates and timestamps: proleptic Gregorian days since 1970-01-01
// and microseconds since the epoch, their text forms, date_trunc and extract. Pure functions;
// any thread may call them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/civil_date.h"
#include "base/floor_div.h"
#include "base/time_zone.h"

namespace floe::sql {

inline constexpr int64_t kMicrosPerSecond = 1'000'000;
inline constexpr int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;

// "2024-03-01" -> days since the epoch.
std::optional<int64_t> ParseDate(std::string_view text);
// "2024-03-01 12:34:56.789" (or with 'T'); with `with_zone`, a trailing "UTC", "Z" or
// "+hh:mm"/"-hh:mm" is applied. Date-only text means midnight.
std::optional<int64_t> ParseTimestamp(std::string_view text, bool with_zone);

// Text as a timestamp with time zone read in `zone`: an offset or zone in the text ("+02:00",
// "UTC", " Europe/Berlin") wins; a wall-clock time without one is local to `zone`.
std::optional<int64_t> ParseTimestampInZone(std::string_view text, const TimeZone& zone);

std::string FormatDate(int64_t days);
// "2024-03-01 12:34:56.789000" (microseconds always shown); with_zone appends " UTC".
std::string FormatTimestamp(int64_t micros, bool with_zone);
// A timestamp with time zone as its wall-clock time in `zone`, followed by the zone's name
// ("2024-03-01 13:34:56.789000 Europe/Berlin"), as Trino prints it; UTC gives FormatTimestamp's form.
std::string FormatTimestampInZone(int64_t micros, const TimeZone& zone);

// date_trunc(unit, ts) over microseconds; unit is second, minute, hour, day, week, month,
// quarter or year. Empty when the unit is unknown.
std::optional<int64_t> TruncateMicros(std::string_view unit, int64_t micros);
// extract(field FROM ts); field is year, quarter, month, week, day, day_of_week (dow),
// day_of_year (doy), hour, minute, second, millisecond, epoch (seconds).
std::optional<int64_t> ExtractField(std::string_view field, int64_t micros);

}  // namespace floe::sql
