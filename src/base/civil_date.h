// Civil dates: the proleptic Gregorian calendar's (year, month, day) and days since
// 1970-01-01, both ways. Every format floe reads or writes counts dates this way (Iceberg and
// Parquet dates, SQL dates, S3's timestamps, JSON events), so the conversion lives once, here.
// Pure functions; any thread.
#pragma once

#include <cstdint>

namespace floe {

struct CivilDate {
  int64_t year;
  int month;  // 1..12
  int day;    // 1..31
};

// Days since 1970-01-01 (negative before). Fields out of range are not checked: the caller
// validates text it parsed.
int64_t DaysFromCivil(CivilDate date);
CivilDate CivilFromDays(int64_t days);

}  // namespace floe
