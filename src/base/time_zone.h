// Time zones of the IANA database, read from the system's zoneinfo files (Debian's `tzdata`,
// TZif as RFC 8536 defines it; the folder is `$TZDIR` or /usr/share/zoneinfo), plus UTC and
// fixed offsets ("+05:30"). libstdc++ 12 has no std::chrono time zone database, so floe reads
// the files itself: they are outside bytes, parsed with every count and index bounded.
//
// A zone maps an instant to its UTC offset, and a local wall-clock time back to an instant.
// Wall times a transition skips (a spring-forward gap) move forward by the gap; wall times it
// repeats (a fall-back overlap) take the later instant — as DuckDB (ICU) does, so answers agree.
//
// Zones are immutable once found and shared; `Find` caches them. Any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe {

// A POSIX TZ rule (a TZif footer, e.g. "CET-1CEST,M3.5.0,M10.5.0/3"): the offsets after a zone's
// last listed transition, for any year.
struct PosixZoneRule {
  // When daylight time starts or ends within a year: Mm.w.d, Jn (1..365, Feb 29 never counted)
  // or n (0..365), plus seconds after local midnight (may be negative or past 24 h).
  struct Date {
    enum class Kind { kMonthWeekDay, kJulianNoLeap, kJulianZeroBased } kind = Kind::kMonthWeekDay;
    int month = 0, week = 0, weekday = 0;  // kMonthWeekDay: week 5 is the last
    int day = 0;                           // the Julian forms
    int64_t seconds = 7200;
  };

  int32_t std_offset = 0;  // seconds east of UTC
  bool has_dst = false;
  int32_t dst_offset = 0;
  Date dst_start, dst_end;

  // "CET-1CEST,M3.5.0,M10.5.0/3". Errors say what is wrong and at which character.
  static Result<PosixZoneRule> Parse(std::string_view text);
  int32_t OffsetAt(int64_t unix_seconds) const;
};

class TimeZone {
 public:
  // "UTC" (also "Etc/UTC", "Z", "GMT"), a fixed offset ("+05:30", "-08", "+0100"), or an IANA
  // name ("Europe/Berlin") found under the zoneinfo folder. Unknown names, and names that could
  // leave the folder ("..", absolute paths), are kInvalidArgument errors naming the zone.
  static Result<std::shared_ptr<const TimeZone>> Find(std::string_view name);
  static std::shared_ptr<const TimeZone> Utc();
  // Parses TZif bytes (any version; v2+ use the 64-bit section and the footer rule).
  static Result<std::shared_ptr<const TimeZone>> FromTzif(std::string name, std::string_view bytes);

  const std::string& name() const { return name_; }
  // True when the offset is 0 at every instant (UTC and its aliases, "+00:00").
  bool is_utc() const { return is_utc_; }

  // Seconds east of UTC at `unix_seconds`.
  int32_t OffsetAt(int64_t unix_seconds) const;
  // The instant a wall-clock time in this zone denotes (seconds; gaps and overlaps as above).
  int64_t LocalToUnix(int64_t local_seconds) const;

  // Microsecond forms of the two, for SQL timestamps.
  int64_t UtcMicrosToLocal(int64_t micros) const;
  int64_t LocalMicrosToUtc(int64_t micros) const;

 private:
  TimeZone() = default;

  std::string name_;
  bool is_utc_ = false;
  std::vector<int64_t> transitions_;   // ascending unix seconds
  std::vector<int32_t> offset_after_;  // offset from transitions_[i] on
  int32_t initial_offset_ = 0;         // before the first transition
  bool has_footer_ = false;            // the rule applies after the last transition
  PosixZoneRule footer_;
};

// "+01", "+05:30", "-00:53:28": an offset as PostgreSQL and DuckDB print it after a timestamp.
std::string FormatUtcOffset(int32_t seconds);

}  // namespace floe
