#include <catch2/catch.hpp>

#include "perfgate/core/error.hpp"
#include "perfgate/core/model.hpp"
#include "perfgate/core/series_pattern.hpp"
#include "perfgate/core/verdict.hpp"

using namespace perfgate;

TEST_CASE("series ids are canonical and parse back") {
  SeriesKey k{"attention", {{"seq", "4096"}, {"heads", "16"}}, "time"};
  CHECK(k.name() == "attention/heads:16/seq:4096");
  CHECK(k.id() == "attention/heads:16/seq:4096@time");
  CHECK(SeriesKey::parse_id(k.id()) == k);
  CHECK(SeriesKey::parse_id("copy@bandwidth").family == "copy");
  CHECK_THROWS_AS(SeriesKey::parse_id("no-metric"), InputError);
  CHECK_THROWS_AS(SeriesKey::parse_id("f/bad@time"), InputError);
}

TEST_CASE("series patterns: globs, metric defaulting, regexes") {
  CHECK(SeriesPattern("attention/*").matches("attention/seq:1@time"));
  CHECK(SeriesPattern("attention/*@time").matches("attention/seq:1@time"));
  CHECK_FALSE(SeriesPattern("attention/*@time").matches("attention/seq:1@tflops"));
  CHECK_FALSE(SeriesPattern("gemm/*").matches("attention/seq:1@time"));
  CHECK(SeriesPattern("re:seq:(1|2)@").matches("attention/seq:2@time"));
  CHECK_THROWS_AS(SeriesPattern("re:("), InputError);
  // Shapes that make backtracking exponential are refused; ordinary ones are not.
  CHECK_THROWS_WITH(SeriesPattern("re:(a+)+$"), Catch::Contains("quantified group"));
  CHECK_THROWS_WITH(SeriesPattern("re:a???"), Catch::Contains("stacked quantifiers"));
  CHECK(SeriesPattern("re:(?:seq:1)+").matches("attention/seq:1@time"));
  CHECK(SeriesPattern("re:gemm/.*?@time").matches("gemm/m:1@time"));
  CHECK(SeriesPattern("re:[+*?]{2}").matches("x/k:+?@t"));
  // Backreferences: a huge group number overflows inside libstdc++; none is needed.
  CHECK_THROWS_WITH(SeriesPattern("re:(a)\\999999999999999999"), Catch::Contains("backreferences"));
  CHECK(SeriesPattern("re:a\\.b\\\\1").matches("x/k:a.b\\1@t"));
}

TEST_CASE("summaries are robust") {
  const auto s = summarize({1, 2, 3, 4, 100});
  CHECK(s.n == 5);
  CHECK(s.median == 3);
  CHECK(s.mad == 1);
  CHECK(s.max == 100);
  CHECK(summarize({}).n == 0);
}

TEST_CASE("enum names round-trip and unknown names are named in the error") {
  for (auto k : {VerdictKind::regression, VerdictKind::new_series, VerdictKind::acknowledged})
    CHECK(verdict_kind_from_string(to_string(k)) == k);
  CHECK_THROWS_WITH(trigger_from_string("weekly"), Catch::Contains("'weekly'"));
  CHECK(direction_for_unit("GB/s") == Direction::higher_is_better);
  CHECK(direction_for_unit("ms") == Direction::lower_is_better);
  CHECK(time_unit_to_ns("us") == 1e3);
}
