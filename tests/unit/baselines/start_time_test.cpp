// Start times given to `perfgate ingest --started-at`: a date and time with its zone, stored in
// UTC; anything else refused rather than guessed.
#include <catch2/catch.hpp>

#include <string>

#include "perfgate/baselines/ingest.hpp"

using perfgate::baselines::utc_time_from_text;

TEST_CASE("a time with its zone is stored in UTC") {
  CHECK(utc_time_from_text("2026-11-20T03:12:44Z") == "2026-11-20T03:12:44Z");
  CHECK(utc_time_from_text("2026-11-20T04:12:44+01:00") == "2026-11-20T03:12:44Z");
  CHECK(utc_time_from_text("2026-11-19 21:42:44-0530") == "2026-11-20T03:12:44Z");
  // Across a day, a month and a year's end.
  CHECK(utc_time_from_text("2025-12-31T23:30:00-01:00") == "2026-01-01T00:30:00Z");
  CHECK(utc_time_from_text("2024-03-01T00:15:00+01:00") == "2024-02-29T23:15:00Z");
  CHECK(utc_time_from_text("2026-11-20T03:12:44.981Z") == "2026-11-20T03:12:44Z");
}

TEST_CASE("a time without its zone, or no time, is refused") {
  // nccl-tests' dates are local: which zone, the file does not say.
  CHECK_FALSE(utc_time_from_text("2026-11-20 03:12:44"));
  CHECK_FALSE(utc_time_from_text("2026-11-20"));
  CHECK_FALSE(utc_time_from_text("yesterday"));
  CHECK_FALSE(utc_time_from_text(""));
  // Dates the calendar lacks, which timegm would carry into the next month or day.
  CHECK_FALSE(utc_time_from_text("2026-02-30T03:12:44Z"));
  CHECK_FALSE(utc_time_from_text("2025-02-29T03:12:44Z"));
  CHECK_FALSE(utc_time_from_text("2026-13-01T00:00:00Z"));
  CHECK_FALSE(utc_time_from_text("2026-11-20T24:00:00Z"));
  CHECK_FALSE(utc_time_from_text("2026-11-20T03:60:00Z"));
}
