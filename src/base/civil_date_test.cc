#include "base/civil_date.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(CivilDate, KnownDays) {
  EXPECT_EQ(DaysFromCivil({1970, 1, 1}), 0);
  EXPECT_EQ(DaysFromCivil({1969, 12, 31}), -1);
  EXPECT_EQ(DaysFromCivil({2000, 3, 1}), 11017);
  EXPECT_EQ(DaysFromCivil({2024, 2, 29}), 19782);
  EXPECT_EQ(DaysFromCivil({1, 1, 1}), -719162);
  CivilDate d = CivilFromDays(19782);
  EXPECT_EQ(d.year, 2024);
  EXPECT_EQ(d.month, 2);
  EXPECT_EQ(d.day, 29);
}

// Every day from 1600 to 2400 (leap centuries and not) round-trips and follows the one before.
TEST(CivilDate, RoundTripsDayByDay) {
  int64_t first = DaysFromCivil({1600, 1, 1});
  int64_t last = DaysFromCivil({2400, 12, 31});
  CivilDate previous = CivilFromDays(first - 1);
  for (int64_t days = first; days <= last; ++days) {
    CivilDate d = CivilFromDays(days);
    ASSERT_EQ(DaysFromCivil(d), days);
    bool next_day = d.year == previous.year && d.month == previous.month && d.day == previous.day + 1;
    bool next_month = d.year == previous.year && d.month == previous.month + 1 && d.day == 1;
    bool next_year = d.year == previous.year + 1 && d.month == 1 && d.day == 1 && previous.month == 12;
    ASSERT_TRUE(next_day || next_month || next_year) << days;
    previous = d;
  }
  EXPECT_EQ(CivilFromDays(DaysFromCivil({1900, 2, 28}) + 1).month, 3);  // 1900 is not leap.
  EXPECT_EQ(CivilFromDays(DaysFromCivil({2000, 2, 28}) + 1).day, 29);   // 2000 is.
}

TEST(CivilDate, NegativeYears) {
  CivilDate d = CivilFromDays(DaysFromCivil({-44, 3, 15}));
  EXPECT_EQ(d.year, -44);
  EXPECT_EQ(d.month, 3);
  EXPECT_EQ(d.day, 15);
}

}  // namespace
}  // namespace floe
