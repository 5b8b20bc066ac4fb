#include "base/units.h"

#include <cctype>
#include <charconv>
#include <string>

namespace floe {
namespace {

// The number at the start of `text` (after spaces) and the unit after it, trimmed and lower case.
bool SplitNumber(std::string_view text, double* number, std::string* unit) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *number);
  if (ec != std::errc() || !(*number >= 0)) return false;
  unit->clear();
  for (const char* p = end; p < text.data() + text.size(); ++p) {
    if (*p != ' ') unit->push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(*p))));
  }
  return true;
}

}  // namespace

Result<int64_t> ParseDurationMillis(std::string_view text, int64_t bare_unit_ms) {
  double value = 0;
  std::string unit;
  if (!SplitNumber(text, &value, &unit)) return InvalidArgument("'{}' is not a duration such as 500ms, 10s, 2m, 1h or 7d", text);
  double scale = 0;
  if (unit.empty()) scale = static_cast<double>(bare_unit_ms);
  if (unit == "ms") scale = 1;
  if (unit == "s") scale = 1e3;
  if (unit == "m") scale = 60e3;
  if (unit == "h") scale = 3600e3;
  if (unit == "d") scale = 86400e3;
  if (scale == 0) return InvalidArgument("duration '{}': unknown unit '{}' (ms, s, m, h or d)", text, unit);
  double millis = value * scale;
  if (millis > 9.2e18) return InvalidArgument("duration '{}' is too long", text);
  return static_cast<int64_t>(millis);
}

Result<int64_t> ParseDataSize(std::string_view text) {
  double value = 0;
  std::string unit;
  if (!SplitNumber(text, &value, &unit)) return InvalidArgument("'{}' is not a data size such as 256MB", text);
  int shift = -1;
  if (unit.empty() || unit == "b" || unit == "bytes") shift = 0;
  if (unit == "kb" || unit == "kib") shift = 10;
  if (unit == "mb" || unit == "mib") shift = 20;
  if (unit == "gb" || unit == "gib") shift = 30;
  if (unit == "tb" || unit == "tib") shift = 40;
  if (shift < 0) return InvalidArgument("data size '{}': unknown unit '{}' (B, kB, MB, GB or TB)", text, unit);
  double bytes = value * static_cast<double>(int64_t{1} << shift);
  if (bytes > static_cast<double>(int64_t{1} << 62)) return InvalidArgument("data size '{}' is too large", text);
  return static_cast<int64_t>(bytes);
}

}  // namespace floe
