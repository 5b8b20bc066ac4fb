#include "base/time_zone.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "base/civil_date.h"
#include "base/floor_div.h"

namespace floe {
namespace {

constexpr int64_t kSecondsPerDay = 86400;
// Instants beyond this many seconds from the epoch (about 36 billion years) are clamped before
// offset arithmetic, so no input can overflow it.
constexpr int64_t kClampSeconds = int64_t{1} << 60;
// The largest TZif file floe reads (the biggest in tzdata is a few KiB).
constexpr size_t kMaxTzifBytes = 1 << 20;
// RFC 8536: a UT offset lies in [-89999, 93599] seconds (-24:59:59 .. +25:59:59).
constexpr int32_t kMinUtcOffset = -89999;
constexpr int32_t kMaxUtcOffset = 93599;

int64_t Clamp(int64_t seconds) { return std::clamp(seconds, -kClampSeconds, kClampSeconds); }

// --- POSIX TZ rule text -------------------------------------------------------------------------

class RuleReader {
 public:
  explicit RuleReader(std::string_view text) : text_(text) {}

  bool done() const { return at_ == text_.size(); }
  char peek() const { return done() ? '\0' : text_[at_]; }
  bool Consume(char c) {
    if (peek() != c) return false;
    ++at_;
    return true;
  }

  std::unexpected<Error> Fail(std::string_view what) const {
    return InvalidArgument("time zone rule '{}': {} at character {}", text_, what, at_ + 1);
  }

  // A zone abbreviation: three or more letters, or <...> quoted (may hold digits and signs).
  Status Abbreviation() {
    size_t start = at_;
    if (Consume('<')) {
      while (!done() && peek() != '>') {
        char c = peek();
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-') return Fail("a bad abbreviation");
        ++at_;
      }
      if (!Consume('>')) return Fail("an unterminated <abbreviation>");
      if (at_ - start < 5) return Fail("an abbreviation shorter than 3 characters");
      return OkStatus();
    }
    while (std::isalpha(static_cast<unsigned char>(peek()))) ++at_;
    if (at_ - start < 3) return Fail("an abbreviation shorter than 3 letters");
    return OkStatus();
  }

  // [+-]hh[:mm[:ss]] with hh up to `max_hours`; the value in seconds.
  Result<int64_t> Duration(int max_hours) {
    int sign = 1;
    if (Consume('-')) {
      sign = -1;
    } else {
      Consume('+');
    }
    FLOE_ASSIGN_OR_RETURN(int64_t hours, Number(0, max_hours, "hours"));
    int64_t seconds = hours * 3600;
    if (Consume(':')) {
      FLOE_ASSIGN_OR_RETURN(int64_t minutes, Number(0, 59, "minutes"));
      seconds += minutes * 60;
      if (Consume(':')) {
        FLOE_ASSIGN_OR_RETURN(int64_t secs, Number(0, 59, "seconds"));
        seconds += secs;
      }
    }
    return sign * seconds;
  }

  Result<int64_t> Number(int64_t min, int64_t max, std::string_view what) {
    size_t start = at_;
    int64_t value = 0;
    while (std::isdigit(static_cast<unsigned char>(peek())) && at_ - start < 4) {
      value = value * 10 + (peek() - '0');
      ++at_;
    }
    if (at_ == start) return Fail(fmt::format("missing {}", what));
    if (value < min || value > max) return Fail(fmt::format("{} {} outside {}..{}", what, value, min, max));
    return value;
  }

  Result<PosixZoneRule::Date> RuleDate() {
    using Kind = PosixZoneRule::Date::Kind;
    PosixZoneRule::Date date;
    if (Consume('M')) {
      date.kind = Kind::kMonthWeekDay;
      FLOE_ASSIGN_OR_RETURN(int64_t month, Number(1, 12, "month"));
      if (!Consume('.')) return Fail("'.' expected");
      FLOE_ASSIGN_OR_RETURN(int64_t week, Number(1, 5, "week"));
      if (!Consume('.')) return Fail("'.' expected");
      FLOE_ASSIGN_OR_RETURN(int64_t weekday, Number(0, 6, "weekday"));
      date.month = static_cast<int>(month);
      date.week = static_cast<int>(week);
      date.weekday = static_cast<int>(weekday);
    } else if (Consume('J')) {
      date.kind = Kind::kJulianNoLeap;
      FLOE_ASSIGN_OR_RETURN(int64_t day, Number(1, 365, "Julian day"));
      date.day = static_cast<int>(day);
    } else {
      date.kind = Kind::kJulianZeroBased;
      FLOE_ASSIGN_OR_RETURN(int64_t day, Number(0, 365, "day of year"));
      date.day = static_cast<int>(day);
    }
    if (Consume('/')) {
      // RFC 8536 extends POSIX's 0..24 hours to -167..167.
      FLOE_ASSIGN_OR_RETURN(date.seconds, Duration(167));
    }
    return date;
  }

 private:
  std::string_view text_;
  size_t at_ = 0;
};

bool IsLeapYear(int64_t year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

// Local seconds since the epoch at which `date` falls in `year`.
int64_t LocalSecondsOf(int64_t year, const PosixZoneRule::Date& date) {
  using Kind = PosixZoneRule::Date::Kind;
  int64_t jan1 = DaysFromCivil({year, 1, 1});
  int64_t day = 0;
  switch (date.kind) {
    case Kind::kJulianNoLeap:
      day = jan1 + date.day - 1 + (IsLeapYear(year) && date.day >= 60 ? 1 : 0);
      break;
    case Kind::kJulianZeroBased:
      day = jan1 + date.day;
      break;
    case Kind::kMonthWeekDay: {
      int64_t first = DaysFromCivil({year, date.month, 1});
      int first_weekday =
          static_cast<int>((first + 4 - FloorDiv(first + 4, int64_t{7}) * 7));  // 1970-01-01 was a Thursday
      int64_t day_of_month = 1 + (date.weekday - first_weekday + 7) % 7 + (date.week - 1) * 7;
      while (day_of_month > DaysInMonth(year, date.month)) day_of_month -= 7;
      day = first + day_of_month - 1;
      break;
    }
  }
  return day * kSecondsPerDay + date.seconds;
}

// --- TZif bytes ---------------------------------------------------------------------------------

class TzifReader {
 public:
  TzifReader(std::string_view name, std::string_view bytes) : name_(name), bytes_(bytes) {}

  std::unexpected<Error> Fail(std::string_view what) const {
    return InvalidArgument("time zone '{}': bad zoneinfo file: {} at byte {}", name_, what, at_);
  }
  size_t remaining() const { return bytes_.size() - at_; }

  Result<std::string_view> Take(size_t n, std::string_view what) {
    if (n > remaining()) return Fail(fmt::format("truncated {} ({} bytes needed, {} left)", what, n, remaining()));
    std::string_view out = bytes_.substr(at_, n);
    at_ += n;
    return out;
  }
  Result<int64_t> BigEndian(size_t width, std::string_view what) {
    FLOE_ASSIGN_OR_RETURN(std::string_view raw, Take(width, what));
    uint64_t v = 0;
    for (char c : raw) v = (v << 8) | static_cast<unsigned char>(c);
    if (width == 4) return static_cast<int32_t>(static_cast<uint32_t>(v));
    return static_cast<int64_t>(v);
  }

 private:
  std::string_view name_;
  std::string_view bytes_;
  size_t at_ = 0;
};

struct TzifCounts {
  int64_t isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt;
};

Result<TzifCounts> ReadHeader(TzifReader& r, char* version) {
  FLOE_ASSIGN_OR_RETURN(std::string_view magic, r.Take(4, "header"));
  if (magic != "TZif") return r.Fail("no TZif magic");
  FLOE_ASSIGN_OR_RETURN(std::string_view v, r.Take(1, "header"));
  if (v[0] != '\0' && (v[0] < '2' || v[0] > '9')) return r.Fail(fmt::format("unknown version byte {}", int(v[0])));
  *version = v[0];
  FLOE_RETURN_IF_ERROR(r.Take(15, "header"));
  TzifCounts c{};
  for (int64_t* field : {&c.isutcnt, &c.isstdcnt, &c.leapcnt, &c.timecnt, &c.typecnt, &c.charcnt}) {
    FLOE_ASSIGN_OR_RETURN(int64_t n, r.BigEndian(4, "header"));
    *field = static_cast<uint32_t>(n);
  }
  // Every count is bounded by what the file could hold, so a lying header cannot make floe
  // allocate more than the file's size.
  if (c.typecnt == 0 || c.typecnt > 256) return r.Fail(fmt::format("{} local time types", c.typecnt));
  if (c.charcnt == 0 || c.charcnt > 65536) return r.Fail(fmt::format("{} abbreviation bytes", c.charcnt));
  if (c.isutcnt != 0 && c.isutcnt != c.typecnt) return r.Fail("UT indicators do not match the types");
  if (c.isstdcnt != 0 && c.isstdcnt != c.typecnt) return r.Fail("standard indicators do not match the types");
  if (c.timecnt > static_cast<int64_t>(r.remaining())) return r.Fail(fmt::format("{} transitions", c.timecnt));
  if (c.leapcnt > static_cast<int64_t>(r.remaining())) return r.Fail(fmt::format("{} leap seconds", c.leapcnt));
  return c;
}

}  // namespace

// --- PosixZoneRule ------------------------------------------------------------------------------

Result<PosixZoneRule> PosixZoneRule::Parse(std::string_view text) {
  if (text.size() > 256) return InvalidArgument("time zone rule of {} characters (at most 256)", text.size());
  RuleReader r(text);
  PosixZoneRule rule;
  FLOE_RETURN_IF_ERROR(r.Abbreviation());
  FLOE_ASSIGN_OR_RETURN(int64_t std_west, r.Duration(24));
  rule.std_offset = static_cast<int32_t>(-std_west);  // POSIX counts west of UTC
  if (r.done()) return rule;
  FLOE_RETURN_IF_ERROR(r.Abbreviation());
  rule.has_dst = true;
  rule.dst_offset = rule.std_offset + 3600;
  if (r.peek() != ',' && !r.done()) {
    FLOE_ASSIGN_OR_RETURN(int64_t dst_west, r.Duration(24));
    rule.dst_offset = static_cast<int32_t>(-dst_west);
  }
  if (!r.Consume(',')) return r.Fail("daylight time without a rule (',start,end' expected)");
  FLOE_ASSIGN_OR_RETURN(rule.dst_start, r.RuleDate());
  if (!r.Consume(',')) return r.Fail("',' expected before the end of daylight time");
  FLOE_ASSIGN_OR_RETURN(rule.dst_end, r.RuleDate());
  if (!r.done()) return r.Fail("unexpected text");
  return rule;
}

int32_t PosixZoneRule::OffsetAt(int64_t unix_seconds) const {
  if (!has_dst) return std_offset;
  int64_t t = Clamp(unix_seconds);
  int64_t year = CivilFromDays(FloorDiv(t + std_offset, kSecondsPerDay)).year;
  int64_t start = LocalSecondsOf(year, dst_start) - std_offset;
  int64_t end = LocalSecondsOf(year, dst_end) - dst_offset;
  bool dst = start < end ? (start <= t && t < end) : !(end <= t && t < start);
  return dst ? dst_offset : std_offset;
}

// --- TimeZone -----------------------------------------------------------------------------------

std::shared_ptr<const TimeZone> TimeZone::Utc() {
  static const std::shared_ptr<const TimeZone> utc = [] {
    std::shared_ptr<TimeZone> zone(new TimeZone());
    zone->name_ = "UTC";
    zone->is_utc_ = true;
    return zone;
  }();
  return utc;
}

Result<std::shared_ptr<const TimeZone>> TimeZone::FromTzif(std::string name, std::string_view bytes) {
  if (bytes.size() > kMaxTzifBytes) {
    return InvalidArgument("time zone '{}': zoneinfo file of {} bytes (at most {})", name, bytes.size(), kMaxTzifBytes);
  }
  TzifReader r(name, bytes);
  char version = 0;
  FLOE_ASSIGN_OR_RETURN(TzifCounts c, ReadHeader(r, &version));
  size_t time_size = 4;
  if (version != '\0') {
    // Skip the 32-bit block: version 2+ repeats everything with 64-bit times after it.
    size_t v1 = c.timecnt * 5 + c.typecnt * 6 + c.charcnt + c.leapcnt * 8 + c.isstdcnt + c.isutcnt;
    FLOE_RETURN_IF_ERROR(r.Take(v1, "version 1 data"));
    char again = 0;
    FLOE_ASSIGN_OR_RETURN(c, ReadHeader(r, &again));
    time_size = 8;
  }
  if (c.leapcnt != 0) {
    return NotImplemented("time zone '{}': zoneinfo files with leap seconds (the right/ zones) are not supported",
                          name);
  }
  std::vector<int64_t> times(static_cast<size_t>(c.timecnt));
  for (int64_t& t : times) {
    FLOE_ASSIGN_OR_RETURN(t, r.BigEndian(time_size, "transition times"));
  }
  for (size_t i = 1; i < times.size(); ++i) {
    if (times[i] <= times[i - 1]) return r.Fail(fmt::format("transition {} not after the one before", i));
  }
  FLOE_ASSIGN_OR_RETURN(std::string_view indices, r.Take(static_cast<size_t>(c.timecnt), "transition types"));
  std::vector<int32_t> type_offsets;
  for (int64_t i = 0; i < c.typecnt; ++i) {
    FLOE_ASSIGN_OR_RETURN(int64_t utoff, r.BigEndian(4, "local time types"));
    FLOE_ASSIGN_OR_RETURN(std::string_view rest, r.Take(2, "local time types"));
    if (utoff < kMinUtcOffset || utoff > kMaxUtcOffset) return r.Fail(fmt::format("UT offset {} s", utoff));
    if (static_cast<unsigned char>(rest[0]) > 1) return r.Fail("a DST flag other than 0 or 1");
    if (static_cast<unsigned char>(rest[1]) >= c.charcnt) return r.Fail("an abbreviation index past the table");
    type_offsets.push_back(static_cast<int32_t>(utoff));
  }
  FLOE_RETURN_IF_ERROR(r.Take(static_cast<size_t>(c.charcnt + c.isstdcnt + c.isutcnt), "abbreviations"));

  std::shared_ptr<TimeZone> zone(new TimeZone());
  zone->transitions_ = std::move(times);
  for (char index : indices) {
    auto type = static_cast<unsigned char>(index);
    if (type >= type_offsets.size())
      return r.Fail(fmt::format("transition type {} of {}", int(type), type_offsets.size()));
    zone->offset_after_.push_back(type_offsets[type]);
  }
  zone->initial_offset_ = type_offsets[0];
  if (version != '\0') {
    FLOE_ASSIGN_OR_RETURN(std::string_view newline, r.Take(1, "footer"));
    if (newline != "\n") return r.Fail("no newline before the footer");
    std::string_view rest = *r.Take(r.remaining(), "footer");
    size_t end = rest.find('\n');
    if (end == std::string_view::npos) return r.Fail("an unterminated footer");
    if (end + 1 != rest.size()) return r.Fail("bytes after the footer");
    if (end > 0) {
      auto footer = PosixZoneRule::Parse(rest.substr(0, end));
      if (!footer) return r.Fail(footer.error().message());
      zone->footer_ = *footer;
      zone->has_footer_ = true;
    }
  } else if (r.remaining() != 0) {
    return r.Fail("bytes after the data");
  }
  zone->name_ = std::move(name);  // last: the reader's error messages view `name` until here
  bool footer_is_utc = !zone->has_footer_ || (!zone->footer_.has_dst && zone->footer_.std_offset == 0);
  zone->is_utc_ =
      footer_is_utc && std::all_of(type_offsets.begin(), type_offsets.end(), [](int32_t o) { return o == 0; });
  return std::shared_ptr<const TimeZone>(std::move(zone));
}

int32_t TimeZone::OffsetAt(int64_t unix_seconds) const {
  if (is_utc_) return 0;
  if (transitions_.empty()) return has_footer_ ? footer_.OffsetAt(unix_seconds) : initial_offset_;
  if (unix_seconds < transitions_.front()) return initial_offset_;
  size_t index = static_cast<size_t>(std::upper_bound(transitions_.begin(), transitions_.end(), unix_seconds) -
                                     transitions_.begin()) -
                 1;
  if (index + 1 == transitions_.size() && has_footer_) return footer_.OffsetAt(unix_seconds);
  return offset_after_[index];
}

int64_t TimeZone::LocalToUnix(int64_t local_seconds) const {
  if (is_utc_) return local_seconds;
  int64_t local = Clamp(local_seconds);
  // The offsets a day before and after bound the candidates: transitions are never a day apart.
  int32_t before = OffsetAt(local - kSecondsPerDay);
  int32_t after = OffsetAt(local + kSecondsPerDay);
  int64_t early = local - before;
  int64_t late = local - after;
  bool early_fits = OffsetAt(early) == before;
  bool late_fits = OffsetAt(late) == after;
  if (early_fits && late_fits) return std::max(early, late);  // repeated wall time: the later instant
  if (late_fits) return late;
  return early;  // fits, or a skipped wall time moved forward by the gap
}

int64_t TimeZone::UtcMicrosToLocal(int64_t micros) const {
  if (is_utc_) return micros;
  return micros + int64_t{OffsetAt(FloorDiv(micros, int64_t{1'000'000}))} * 1'000'000;
}

int64_t TimeZone::LocalMicrosToUtc(int64_t micros) const {
  if (is_utc_) return micros;
  int64_t seconds = FloorDiv(micros, int64_t{1'000'000});
  return LocalToUnix(seconds) * 1'000'000 + (micros - seconds * 1'000'000);
}

// --- Finding zones by name ----------------------------------------------------------------------

namespace {

bool IsUtcAlias(std::string_view name) {
  for (std::string_view alias : {"UTC", "Etc/UTC", "Z", "GMT", "Etc/GMT", "UCT", "Etc/UCT", "Zulu", "Etc/Zulu",
                                 "Universal", "Etc/Universal", "Greenwich", "Etc/Greenwich"}) {
    if (name.size() == alias.size() && std::equal(name.begin(), name.end(), alias.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        })) {
      return true;
    }
  }
  return false;
}

// "+05:30", "-08", "+0100", "-00:53:28" -> seconds east of UTC.
std::optional<int32_t> ParseFixedOffset(std::string_view name) {
  if (name.size() < 2 || (name[0] != '+' && name[0] != '-')) return std::nullopt;
  int sign = name[0] == '-' ? -1 : 1;
  std::string digits;
  for (size_t i = 1; i < name.size(); ++i) {
    char c = name[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits += c;
    } else if (c != ':' || i + 1 == name.size()) {
      return std::nullopt;
    }
  }
  if (digits.size() != 2 && digits.size() != 4 && digits.size() != 6) {
    if (digits.size() != 1) return std::nullopt;
    digits = "0" + digits;
  }
  int hours = std::stoi(digits.substr(0, 2));
  int minutes = digits.size() >= 4 ? std::stoi(digits.substr(2, 2)) : 0;
  int seconds = digits.size() == 6 ? std::stoi(digits.substr(4, 2)) : 0;
  if (hours > 18 || minutes > 59 || seconds > 59) return std::nullopt;
  return sign * (hours * 3600 + minutes * 60 + seconds);
}

// IANA names are ASCII letters, digits and "_+-" in "/"-separated parts; nothing else can name
// a file under the zoneinfo folder, so no name reaches outside it.
bool IsSafeZoneName(std::string_view name) {
  if (name.empty() || name.size() > 255 || name.front() == '/' || name.back() == '/') return false;
  size_t part_start = 0;
  for (size_t i = 0; i <= name.size(); ++i) {
    if (i == name.size() || name[i] == '/') {
      std::string_view part = name.substr(part_start, i - part_start);
      if (part.empty() || part == "." || part == ".." || part.front() == '.') return false;
      part_start = i + 1;
      continue;
    }
    char c = name[i];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '+' && c != '-') return false;
  }
  return true;
}

std::string ZoneinfoFolder() {
  const char* dir = std::getenv("TZDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/usr/share/zoneinfo";
}

// The file for `name`, matching each part case-insensitively when the exact spelling is absent
// ("europe/berlin" finds Europe/Berlin, as DuckDB and Trino accept it).
std::optional<std::filesystem::path> ZoneFile(const std::filesystem::path& folder, std::string_view name) {
  std::error_code ec;
  std::filesystem::path exact = folder / name;
  if (std::filesystem::is_regular_file(exact, ec)) return exact;
  std::filesystem::path at = folder;
  size_t start = 0;
  while (start <= name.size()) {
    size_t end = std::min(name.find('/', start), name.size());
    std::string_view part = name.substr(start, end - start);
    std::optional<std::filesystem::path> match;
    for (const auto& entry : std::filesystem::directory_iterator(at, ec)) {
      std::string candidate = entry.path().filename().string();
      if (candidate.size() == part.size() &&
          std::equal(candidate.begin(), candidate.end(), part.begin(), [](char a, char b) {
            return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
          })) {
        match = entry.path();
        break;
      }
    }
    if (!match) return std::nullopt;
    at = *match;
    start = end + 1;
  }
  if (!std::filesystem::is_regular_file(at, ec)) return std::nullopt;
  return at;
}

Result<std::string> ReadZoneFile(const std::filesystem::path& path, std::string_view name) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return InvalidArgument("unknown time zone '{}'", name);
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<size_t>(st.st_size) > kMaxTzifBytes) {
    ::close(fd);
    return InvalidArgument("time zone '{}': {} is not a zoneinfo file", name, path.string());
  }
  std::string bytes(static_cast<size_t>(st.st_size), '\0');
  size_t got = 0;
  while (got < bytes.size()) {
    ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  ::close(fd);
  bytes.resize(got);
  return bytes;
}

}  // namespace

Result<std::shared_ptr<const TimeZone>> TimeZone::Find(std::string_view name) {
  if (IsUtcAlias(name)) return Utc();
  static std::mutex mutex;
  static std::unordered_map<std::string, std::shared_ptr<const TimeZone>> cache;
  {
    std::lock_guard lock(mutex);
    if (auto it = cache.find(std::string(name)); it != cache.end()) return it->second;
  }
  std::shared_ptr<const TimeZone> found;
  if (auto offset = ParseFixedOffset(name)) {
    std::shared_ptr<TimeZone> zone(new TimeZone());
    zone->name_ = std::string(name);
    zone->initial_offset_ = *offset;
    zone->is_utc_ = *offset == 0;
    found = std::move(zone);
  } else {
    if (!IsSafeZoneName(name)) return InvalidArgument("unknown time zone '{}'", name);
    auto path = ZoneFile(ZoneinfoFolder(), name);
    if (!path) return InvalidArgument("unknown time zone '{}'", name);
    FLOE_ASSIGN_OR_RETURN(std::string bytes, ReadZoneFile(*path, name));
    // The zone is named as its file is ("europe/berlin" is Europe/Berlin).
    std::string canonical = std::filesystem::relative(*path, ZoneinfoFolder()).string();
    FLOE_ASSIGN_OR_RETURN(found, FromTzif(canonical.empty() ? std::string(name) : canonical, bytes));
  }
  std::lock_guard lock(mutex);
  // Names come from users: stop remembering new ones past a bound rather than grow forever.
  if (cache.size() < 4096) cache.emplace(std::string(name), found);
  return found;
}

std::string FormatUtcOffset(int32_t seconds) {
  char sign = seconds < 0 ? '-' : '+';
  int64_t a = std::abs(int64_t{seconds});
  int64_t h = a / 3600, m = a / 60 % 60, s = a % 60;
  if (s != 0) return fmt::format("{}{:02}:{:02}:{:02}", sign, h, m, s);
  if (m != 0) return fmt::format("{}{:02}:{:02}", sign, h, m);
  return fmt::format("{}{:02}", sign, h);
}

}  // namespace floe
