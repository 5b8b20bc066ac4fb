// Time zones against the system's tzdata (instants whose offsets the IANA database fixes), the
// wall-time rules DuckDB follows at transitions, the POSIX rules of TZif footers, and zoneinfo
// bytes that are garbage, truncated, lying about their counts or otherwise malformed.
#include "base/time_zone.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/civil_date.h"

namespace floe {
namespace {

// Unix seconds of a UTC civil time.
int64_t Utc(int64_t y, int mo, int d, int h = 0, int mi = 0, int s = 0) {
  return DaysFromCivil({y, mo, d}) * 86400 + h * 3600 + mi * 60 + s;
}

std::shared_ptr<const TimeZone> Zone(std::string_view name) {
  auto zone = TimeZone::Find(name);
  EXPECT_TRUE(zone.has_value()) << zone.error().ToString();
  return zone ? *zone : TimeZone::Utc();
}

TEST(TimeZoneTest, BerlinAcrossItsHistoryAndFuture) {
  auto berlin = Zone("Europe/Berlin");
  EXPECT_EQ(berlin->name(), "Europe/Berlin");
  EXPECT_FALSE(berlin->is_utc());
  EXPECT_EQ(berlin->OffsetAt(Utc(2024, 1, 15, 12)), 3600);
  EXPECT_EQ(berlin->OffsetAt(Utc(2024, 7, 1, 12)), 7200);
  // Summer time starts 2024-03-31 at 01:00 UTC and ends 2024-10-27 at 01:00 UTC.
  EXPECT_EQ(berlin->OffsetAt(Utc(2024, 3, 31, 0, 59, 59)), 3600);
  EXPECT_EQ(berlin->OffsetAt(Utc(2024, 3, 31, 1)), 7200);
  EXPECT_EQ(berlin->OffsetAt(Utc(2024, 10, 27, 0, 59, 59)), 7200);
  EXPECT_EQ(berlin->OffsetAt(Utc(2024, 10, 27, 1)), 3600);
  // Local mean time before 1893 (+00:53:28), and years past the file's last transition, which
  // only the footer rule answers.
  EXPECT_EQ(berlin->OffsetAt(Utc(1890, 6, 1)), 3208);
  EXPECT_EQ(berlin->OffsetAt(Utc(2100, 7, 1)), 7200);
  EXPECT_EQ(berlin->OffsetAt(Utc(2100, 1, 1)), 3600);
  EXPECT_EQ(berlin->OffsetAt(Utc(2100, 3, 28, 0, 59, 59)), 3600);  // last Sunday of March 2100
  EXPECT_EQ(berlin->OffsetAt(Utc(2100, 3, 28, 1)), 7200);
}

TEST(TimeZoneTest, OtherHemispheresAndHalfHours) {
  EXPECT_EQ(Zone("America/New_York")->OffsetAt(Utc(2024, 7, 4, 12)), -4 * 3600);
  EXPECT_EQ(Zone("America/New_York")->OffsetAt(Utc(2024, 12, 25, 12)), -5 * 3600);
  EXPECT_EQ(Zone("Asia/Kolkata")->OffsetAt(Utc(2024, 7, 4)), 19800);
  auto sydney = Zone("Australia/Sydney");
  EXPECT_EQ(sydney->OffsetAt(Utc(2024, 7, 1)), 10 * 3600);
  EXPECT_EQ(sydney->OffsetAt(Utc(2024, 1, 1)), 11 * 3600);
  EXPECT_EQ(sydney->OffsetAt(Utc(2090, 7, 1)), 10 * 3600);  // the footer's southern rule
  EXPECT_EQ(sydney->OffsetAt(Utc(2090, 1, 1)), 11 * 3600);
  auto lord_howe = Zone("Australia/Lord_Howe");  // half an hour of daylight saving
  EXPECT_EQ(lord_howe->OffsetAt(Utc(2024, 7, 1)), 10 * 3600 + 1800);
  EXPECT_EQ(lord_howe->OffsetAt(Utc(2024, 1, 1)), 11 * 3600);
}

TEST(TimeZoneTest, WallTimesInGapsMoveForwardAndRepeatedOnesTakeTheLaterInstant) {
  auto berlin = Zone("Europe/Berlin");
  // 02:30 on 2024-03-31 never happens in Berlin: it is read as 03:30 summer time (01:30 UTC).
  EXPECT_EQ(berlin->LocalToUnix(Utc(2024, 3, 31, 2, 30)), Utc(2024, 3, 31, 1, 30));
  // 02:30 on 2024-10-27 happens twice: the second (winter time, 01:30 UTC) is taken.
  EXPECT_EQ(berlin->LocalToUnix(Utc(2024, 10, 27, 2, 30)), Utc(2024, 10, 27, 1, 30));
  EXPECT_EQ(berlin->LocalToUnix(Utc(2024, 7, 1, 12)), Utc(2024, 7, 1, 10));
  EXPECT_EQ(berlin->LocalMicrosToUtc(Utc(2024, 7, 1, 12) * 1'000'000 + 7), Utc(2024, 7, 1, 10) * 1'000'000 + 7);
  EXPECT_EQ(berlin->UtcMicrosToLocal(-1), 3600 * int64_t{1'000'000} - 1);
  // Every local time of a year maps to an instant that maps back to it, outside the gap.
  for (int64_t local = Utc(2024, 1, 1); local < Utc(2025, 1, 1); local += 1800) {
    int64_t instant = berlin->LocalToUnix(local);
    bool in_gap = local >= Utc(2024, 3, 31, 2) && local < Utc(2024, 3, 31, 3);
    if (!in_gap) {
      EXPECT_EQ(instant + berlin->OffsetAt(instant), local) << local;
    }
  }
}

TEST(TimeZoneTest, UtcAliasesFixedOffsetsAndCaseInsensitiveNames) {
  for (std::string_view name : {"UTC", "utc", "Etc/UTC", "GMT", "Z"}) EXPECT_TRUE(Zone(name)->is_utc()) << name;
  EXPECT_EQ(Zone("+05:30")->OffsetAt(0), 19800);
  EXPECT_EQ(Zone("-08")->OffsetAt(0), -28800);
  EXPECT_EQ(Zone("+0100")->OffsetAt(Utc(2024, 7, 1)), 3600);
  EXPECT_TRUE(Zone("+00:00")->is_utc());
  EXPECT_EQ(Zone("europe/berlin")->name(), "Europe/Berlin");
  EXPECT_EQ(Zone("Etc/GMT+5")->OffsetAt(0), -5 * 3600);  // POSIX sign: GMT+5 is west
}

TEST(TimeZoneTest, UnknownAndEscapingNamesAreRefused) {
  for (std::string_view name :
       {"Nowhere/Land", "", "../../etc/passwd", "/etc/localtime", "Europe/../../../etc/passwd", "Europe//Berlin",
        "Europe/Berlin/", ".hidden", "Europe/Ber lin", "+19:00", "+5:3", "right/Europe/Berlin"}) {
    auto zone = TimeZone::Find(name);
    ASSERT_FALSE(zone.has_value()) << name;
    EXPECT_NE(zone.error().message().find("time zone"), std::string::npos) << zone.error().ToString();
  }
  EXPECT_FALSE(TimeZone::Find(std::string(300, 'a')).has_value());
}

TEST(TimeZoneTest, PosixRules) {
  auto us = PosixZoneRule::Parse("EST5EDT,M3.2.0,M11.1.0");
  ASSERT_TRUE(us.has_value()) << us.error().ToString();
  EXPECT_EQ(us->std_offset, -5 * 3600);
  EXPECT_EQ(us->dst_offset, -4 * 3600);
  EXPECT_EQ(us->OffsetAt(Utc(2030, 3, 10, 6, 59, 59)), -5 * 3600);  // second Sunday of March, 02:00 EST
  EXPECT_EQ(us->OffsetAt(Utc(2030, 3, 10, 7)), -4 * 3600);
  EXPECT_EQ(us->OffsetAt(Utc(2030, 11, 3, 5, 59, 59)), -4 * 3600);  // first Sunday of November, 02:00 EDT
  EXPECT_EQ(us->OffsetAt(Utc(2030, 11, 3, 6)), -5 * 3600);

  auto quoted = PosixZoneRule::Parse("<+0330>-3:30");
  ASSERT_TRUE(quoted.has_value()) << quoted.error().ToString();
  EXPECT_EQ(quoted->OffsetAt(0), 3 * 3600 + 1800);
  auto negative_times = PosixZoneRule::Parse("<-03>3<-02>,M3.5.0/-2,M10.5.0/-1");
  ASSERT_TRUE(negative_times.has_value()) << negative_times.error().ToString();
  auto julian = PosixZoneRule::Parse("XXX-1YYY,J60/0,300");
  ASSERT_TRUE(julian.has_value()) << julian.error().ToString();
  EXPECT_EQ(julian->OffsetAt(Utc(2031, 3, 1, 12)), 7200);  // J60 is March 1 in every year
  EXPECT_EQ(julian->OffsetAt(Utc(2031, 2, 28, 12)), 3600);

  for (std::string_view bad : {"", "CE", "CET", "CET-1CEST", "CET-1CEST,M13.5.0,M10.5.0/3", "CET-1CEST,M3.5.0",
                               "CET-1CEST,M3.5.0,M10.5.0/3x", "CET-25", "CET-1CEST,M3.6.0,M10.5.0", "CET-1CEST,J366,J1",
                               "<+03", "<+3>-3", "CET-1:60", "CET-1CEST,M3.5.7,M10.5.0"}) {
    auto rule = PosixZoneRule::Parse(bad);
    EXPECT_FALSE(rule.has_value()) << bad;
  }
  auto located = PosixZoneRule::Parse("CET-1CEST,M3.5.0,M10.5.0/3x");
  ASSERT_FALSE(located.has_value());
  EXPECT_NE(located.error().message().find("at character 27"), std::string::npos) << located.error().ToString();
  EXPECT_FALSE(PosixZoneRule::Parse(std::string(300, 'A')).has_value());
}

// --- TZif bytes -------------------------------------------------------------------------------

void PutBig(std::string* out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>(v >> (8 * i)));
}

struct TzifSpec {
  std::vector<int64_t> times;
  std::vector<uint8_t> indices;
  std::vector<int32_t> offsets = {0};
  std::string footer;
  uint32_t leapcnt = 0;
};

// A version 2 file: an empty version 1 block, then the 64-bit block and the footer.
std::string BuildTzif(const TzifSpec& spec) {
  std::string out;
  auto header = [&](uint32_t timecnt, uint32_t typecnt, uint32_t charcnt, uint32_t leapcnt) {
    out += "TZif2";
    out += std::string(15, '\0');
    for (uint32_t n : {0u, 0u, leapcnt, timecnt, typecnt, charcnt}) PutBig(&out, n, 4);
  };
  header(0, 1, 1, 0);
  out += std::string(6 + 1, '\0');  // one type, one abbreviation byte
  header(static_cast<uint32_t>(spec.times.size()), static_cast<uint32_t>(spec.offsets.size()), 4, spec.leapcnt);
  for (int64_t t : spec.times) PutBig(&out, static_cast<uint64_t>(t), 8);
  for (uint8_t i : spec.indices) out.push_back(static_cast<char>(i));
  for (int32_t o : spec.offsets) {
    PutBig(&out, static_cast<uint32_t>(o), 4);
    out += std::string("\0\0", 2);
  }
  out += "ABC";
  out.push_back('\0');
  for (uint32_t i = 0; i < spec.leapcnt; ++i) out += std::string(12, '\0');
  out += "\n" + spec.footer + "\n";
  return out;
}

TEST(TimeZoneTest, HandBuiltFilesAreReadAsWritten) {
  auto zone = TimeZone::FromTzif(
      "Test/Zone", BuildTzif({.times = {1000, 2000}, .indices = {1, 0}, .offsets = {3600, 7200}, .footer = "XXX-3"}));
  ASSERT_TRUE(zone.has_value()) << zone.error().ToString();
  EXPECT_EQ((*zone)->OffsetAt(999), 3600);  // before the first transition: type 0
  EXPECT_EQ((*zone)->OffsetAt(1000), 7200);
  EXPECT_EQ((*zone)->OffsetAt(1999), 7200);
  EXPECT_EQ((*zone)->OffsetAt(2000), 3 * 3600);  // after the last: the footer
  auto no_footer = TimeZone::FromTzif("Test/Plain", BuildTzif({.times = {5}, .indices = {0}, .offsets = {-3600}}));
  ASSERT_TRUE(no_footer.has_value()) << no_footer.error().ToString();
  EXPECT_EQ((*no_footer)->OffsetAt(int64_t{1} << 40), -3600);
  EXPECT_EQ((*no_footer)->OffsetAt(-(int64_t{1} << 62)), -3600);
}

TEST(TimeZoneTest, MalformedFilesAreClearErrors) {
  auto fails = [](std::string_view bytes, std::string_view why) {
    auto zone = TimeZone::FromTzif("Test/Bad", bytes);
    EXPECT_FALSE(zone.has_value()) << why;
    if (!zone) {
      EXPECT_NE(zone.error().message().find("Test/Bad"), std::string::npos) << zone.error().ToString();
    }
  };
  fails("", "empty");
  fails("not a zoneinfo file at all, just text", "garbage");
  fails(BuildTzif({.times = {2000, 1000}, .indices = {0, 0}}), "transitions out of order");
  fails(BuildTzif({.times = {1000}, .indices = {3}}), "type index past the types");
  fails(BuildTzif({.offsets = {100000}}), "offset beyond 26 hours");
  fails(BuildTzif({.footer = "CET-1CEST"}), "footer without a rule");
  fails(BuildTzif({}) + "x", "bytes after the footer");
  std::string lying = BuildTzif({});
  lying[44 + 7 + 20 + 12] = '\x7f';  // the 64-bit block's timecnt: billions of transitions
  fails(lying, "counts beyond the file");
  auto leap = TimeZone::FromTzif("Test/Leap", BuildTzif({.leapcnt = 1}));
  ASSERT_FALSE(leap.has_value());
  EXPECT_EQ(leap.error().kind(), ErrorKind::kNotImplemented);
  EXPECT_FALSE(TimeZone::FromTzif("Test/Huge", std::string((1 << 20) + 1, 'x')).has_value());
}

TEST(TimeZoneTest, EveryTruncationAndByteFlipOfARealFileIsHandled) {
  std::ifstream in("/usr/share/zoneinfo/Europe/Berlin", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_GT(bytes.size(), 100u);
  ASSERT_TRUE(TimeZone::FromTzif("Europe/Berlin", bytes).has_value());
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(TimeZone::FromTzif("Europe/Berlin", bytes.substr(0, n)).has_value()) << "truncated to " << n;
  }
  // A flipped byte either fails cleanly or still gives a zone whose answers are bounded.
  for (size_t at = 0; at < bytes.size(); ++at) {
    std::string flipped = bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x5a);
    auto zone = TimeZone::FromTzif("Europe/Berlin", flipped);
    if (zone) {
      int32_t offset = (*zone)->OffsetAt(Utc(2024, 7, 1));
      EXPECT_LE(std::abs(offset), 93599) << at;
      (void)(*zone)->LocalToUnix(Utc(2024, 7, 1));
    }
  }
}

TEST(TimeZoneTest, OffsetsPrintAsPostgresDoes) {
  EXPECT_EQ(FormatUtcOffset(3600), "+01");
  EXPECT_EQ(FormatUtcOffset(19800), "+05:30");
  EXPECT_EQ(FormatUtcOffset(-3208), "-00:53:28");
  EXPECT_EQ(FormatUtcOffset(0), "+00");
}

}  // namespace
}  // namespace floe
