#include "sql/types/temporal.h"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

namespace floe::sql {

namespace {

bool ReadInt(std::string_view& text, int digits_min, int digits_max, int64_t& out) {
  size_t n = 0;
  while (n < text.size() && n < static_cast<size_t>(digits_max) && std::isdigit(static_cast<unsigned char>(text[n]))) ++n;
  if (n < static_cast<size_t>(digits_min)) return false;
  std::from_chars(text.data(), text.data() + n, out);
  text.remove_prefix(n);
  return true;
}

bool Expect(std::string_view& text, char c) {
  if (text.empty() || text[0] != c) return false;
  text.remove_prefix(1);
  return true;
}

int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

std::optional<int64_t> ParseDatePrefix(std::string_view& text) {
  int64_t year = 0, month = 0, day = 0;
  if (!ReadInt(text, 4, 6, year) || !Expect(text, '-') || !ReadInt(text, 1, 2, month) || !Expect(text, '-') ||
      !ReadInt(text, 1, 2, day)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, static_cast<int>(month))) return std::nullopt;
  return DaysFromCivil(CivilDate{year, static_cast<int>(month), static_cast<int>(day)});
}

}  // namespace

std::optional<int64_t> ParseDate(std::string_view text) {
  text = Trim(text);
  auto days = ParseDatePrefix(text);
  if (!days || !text.empty()) return std::nullopt;
  return days;
}

std::optional<int64_t> ParseTimestamp(std::string_view text, bool with_zone) {
  text = Trim(text);
  auto days = ParseDatePrefix(text);
  if (!days) return std::nullopt;
  int64_t micros = *days * kMicrosPerDay;
  if (!text.empty() && (text[0] == ' ' || text[0] == 'T') && text.size() > 1 && std::isdigit(static_cast<unsigned char>(text[1]))) {
    text.remove_prefix(1);
    int64_t hour = 0, minute = 0, second = 0;
    if (!ReadInt(text, 1, 2, hour) || !Expect(text, ':') || !ReadInt(text, 2, 2, minute)) return std::nullopt;
    if (!text.empty() && text[0] == ':') {
      text.remove_prefix(1);
      if (!ReadInt(text, 2, 2, second)) return std::nullopt;
    }
    if (hour > 23 || minute > 59 || second > 59) return std::nullopt;
    int64_t fraction = 0;
    if (!text.empty() && text[0] == '.') {
      text.remove_prefix(1);
      size_t n = 0;
      while (n < text.size() && std::isdigit(static_cast<unsigned char>(text[n]))) {
        if (n < 6) fraction = fraction * 10 + (text[n] - '0');
        ++n;
      }
      if (n == 0) return std::nullopt;
      for (size_t i = n; i < 6; ++i) fraction *= 10;
      text.remove_prefix(n);
    }
    micros += ((hour * 60 + minute) * 60 + second) * kMicrosPerSecond + fraction;
  }
  text = Trim(text);
  if (text.empty()) return micros;
  if (!with_zone) return std::nullopt;
  if (text == "UTC" || text == "Z" || text == "utc" || text == "GMT") return micros;
  if (text[0] == '+' || text[0] == '-') {
    int sign = text[0] == '-' ? -1 : 1;
    text.remove_prefix(1);
    int64_t hours = 0, minutes = 0;
    if (!ReadInt(text, 1, 2, hours)) return std::nullopt;
    if (!text.empty() && text[0] == ':') text.remove_prefix(1);
    if (!text.empty() && !ReadInt(text, 2, 2, minutes)) return std::nullopt;
    if (!text.empty()) return std::nullopt;
    return micros - sign * (hours * 60 + minutes) * 60 * kMicrosPerSecond;
  }
  return std::nullopt;  // Named zones other than UTC need the zone database (not yet).
}

std::string FormatDate(int64_t days) {
  CivilDate d = CivilFromDays(days);
  return fmt::format("{:04d}-{:02d}-{:02d}", d.year, d.month, d.day);
}

std::optional<int64_t> ParseTimestampInZone(std::string_view text, const TimeZone& zone) {
  if (auto local = ParseTimestamp(text, false)) return zone.LocalMicrosToUtc(*local);
  if (auto instant = ParseTimestamp(text, true)) return instant;
  // "2024-03-01 12:00:00 Europe/Berlin": a named zone after the last space.
  text = Trim(text);
  size_t space = text.rfind(' ');
  if (space == std::string_view::npos) return std::nullopt;
  auto local = ParseTimestamp(text.substr(0, space), false);
  if (!local) return std::nullopt;
  auto named = TimeZone::Find(text.substr(space + 1));
  if (!named) return std::nullopt;
  return (*named)->LocalMicrosToUtc(*local);
}

std::string FormatTimestampInZone(int64_t micros, const TimeZone& zone) {
  if (zone.is_utc()) return FormatTimestamp(micros, true);
  return FormatTimestamp(zone.UtcMicrosToLocal(micros), false) + " " + zone.name();
}

std::string FormatTimestamp(int64_t micros, bool with_zone) {
  int64_t days = FloorDiv(micros, kMicrosPerDay);
  int64_t rest = micros - days * kMicrosPerDay;
  int64_t seconds = rest / kMicrosPerSecond;
  return fmt::format("{} {:02d}:{:02d}:{:02d}.{:06d}{}", FormatDate(days), seconds / 3600, seconds / 60 % 60, seconds % 60,
                     rest % kMicrosPerSecond, with_zone ? " UTC" : "");
}

std::optional<int64_t> TruncateMicros(std::string_view unit, int64_t micros) {
  auto floor_to = [&](int64_t step) { return FloorDiv(micros, step) * step; };
  if (unit == "microsecond") return micros;
  if (unit == "millisecond") return floor_to(1000);
  if (unit == "second") return floor_to(kMicrosPerSecond);
  if (unit == "minute") return floor_to(60 * kMicrosPerSecond);
  if (unit == "hour") return floor_to(3600 * kMicrosPerSecond);
  int64_t days = FloorDiv(micros, kMicrosPerDay);
  if (unit == "day") return days * kMicrosPerDay;
  if (unit == "week") {
    // ISO weeks start on Monday; 1970-01-01 was a Thursday.
    int64_t monday = days - ((days + 3) % 7 + 7) % 7;
    return monday * kMicrosPerDay;
  }
  CivilDate d = CivilFromDays(days);
  if (unit == "month") return DaysFromCivil({d.year, d.month, 1}) * kMicrosPerDay;
  if (unit == "quarter") return DaysFromCivil({d.year, (d.month - 1) / 3 * 3 + 1, 1}) * kMicrosPerDay;
  if (unit == "year") return DaysFromCivil({d.year, 1, 1}) * kMicrosPerDay;
  return std::nullopt;
}

std::optional<int64_t> ExtractField(std::string_view field, int64_t micros) {
  int64_t days = FloorDiv(micros, kMicrosPerDay);
  int64_t rest = micros - days * kMicrosPerDay;
  CivilDate d = CivilFromDays(days);
  if (field == "year") return d.year;
  if (field == "quarter") return (d.month - 1) / 3 + 1;
  if (field == "month") return d.month;
  if (field == "day" || field == "day_of_month") return d.day;
  if (field == "hour") return rest / (3600 * kMicrosPerSecond);
  if (field == "minute") return rest / (60 * kMicrosPerSecond) % 60;
  if (field == "second") return rest / kMicrosPerSecond % 60;
  if (field == "millisecond") return rest / 1000 % 1000;
  if (field == "day_of_week" || field == "dow") return ((days + 3) % 7 + 7) % 7 + 1;  // ISO: Monday = 1.
  if (field == "day_of_year" || field == "doy") return days - DaysFromCivil({d.year, 1, 1}) + 1;
  if (field == "epoch") return FloorDiv(micros, kMicrosPerSecond);
  if (field == "week") {
    // ISO week number: the week containing the year's first Thursday is week 1.
    int64_t weekday = ((days + 3) % 7 + 7) % 7;  // Monday = 0.
    int64_t thursday = days - weekday + 3;
    CivilDate t = CivilFromDays(thursday);
    return (thursday - DaysFromCivil({t.year, 1, 1})) / 7 + 1;
  }
  return std::nullopt;
}

}  // namespace floe::sql
