#include <cmath>

#include <catch2/catch.hpp>

#include "perfgate/regress/stats.hpp"

using namespace perfgate::regress::stats;

TEST_CASE("median, MAD and IQR of small samples") {
  CHECK(median({3, 1, 2}) == 2);
  CHECK(median({4, 1, 3, 2}) == 2.5);
  CHECK(std::isnan(median({})));
  CHECK(mad({1, 2, 3, 4, 100}) == 1);
  CHECK(iqr({1, 2, 3, 4, 5}) == 2);
}

TEST_CASE("exact Mann-Whitney without ties matches the tabulated distribution") {
  // Complete separation, 3 vs 3: the most extreme of C(6,3) = 20 arrangements, two-sided.
  const MannWhitney r = mann_whitney({1, 2, 3}, {4, 5, 6});
  CHECK(r.exact);
  CHECK(r.u == 0);
  CHECK(r.p_value == Approx(0.1));
  // 10 vs 10 fully separated: 2 / C(20,10).
  std::vector<double> a, b;
  for (int i = 0; i < 10; ++i) {
    a.push_back(i);
    b.push_back(100 + i);
  }
  CHECK(mann_whitney(a, b).p_value == Approx(2.0 / 184756));
  CHECK(mann_whitney(b, a).p_value == Approx(2.0 / 184756));
  // Identical samples are not evidence of anything.
  CHECK(mann_whitney({1, 2, 3, 4}, {1, 2, 3, 4}).p_value == Approx(1.0));
}

TEST_CASE("exact Mann-Whitney conditions on ties") {
  // All tied: every arrangement gives the same statistic.
  const MannWhitney all_tied = mann_whitney({5, 5, 5}, {5, 5, 5});
  CHECK(all_tied.ties);
  CHECK(all_tied.p_value == Approx(1.0));
  // Two tied groups, completely separated: still the most extreme arrangement, 2 / C(8,4).
  const MannWhitney separated = mann_whitney({1, 1, 1, 1}, {2, 2, 2, 2});
  CHECK(separated.p_value == Approx(2.0 / 70));
}

TEST_CASE("normal approximation with tie correction for large samples") {
  std::vector<double> a, b;
  for (int i = 0; i < 30; ++i) {
    a.push_back(i % 7);
    b.push_back(i % 7 + 3);
  }
  const MannWhitney r = mann_whitney(a, b);
  CHECK_FALSE(r.exact);
  CHECK(r.ties);
  CHECK(r.p_value < 1e-4);
  CHECK(mann_whitney(a, a).p_value == Approx(1.0));
}

TEST_CASE("smallest attainable p and the repetitions it takes to reach alpha") {
  CHECK(smallest_attainable_p(2, 2) == Approx(1.0 / 3));
  CHECK(smallest_attainable_p(2, 3) == Approx(0.2));
  CHECK(smallest_attainable_p(4, 4) == Approx(2.0 / 70));
  CHECK(repetitions_needed_for(0.05) == 4);
  CHECK(repetitions_needed_for(0.01) == 5);
}

TEST_CASE("Hodges-Lehmann shift and its distribution-free interval") {
  std::vector<double> x, y;
  for (int i = 0; i < 10; ++i) {
    x.push_back(i);
    y.push_back(i + 5.0);
  }
  const ShiftInterval s = hodges_lehmann(x, y, 0.95);
  CHECK(s.bounded);
  CHECK(s.estimate == Approx(5.0));
  CHECK(s.low < 5.0);
  CHECK(s.high > 5.0);
  // The 95 % interval for 10 vs 10 cuts 23 differences from each end (tabulated critical U = 23).
  CHECK(s.low == Approx(2.0));
  CHECK(s.high == Approx(8.0));
  // Too few samples for the level: the interval is flagged unbounded.
  CHECK_FALSE(hodges_lehmann({1, 2}, {3, 4}, 0.95).bounded);
}

TEST_CASE("Benjamini-Hochberg adjusted p-values") {
  const std::vector<double> adjusted = benjamini_hochberg({0.01, 0.04, 0.03, 0.5});
  CHECK(adjusted[0] == Approx(0.04));
  CHECK(adjusted[1] == Approx(0.04 * 4 / 3));
  CHECK(adjusted[2] == Approx(0.04 * 4 / 3));
  CHECK(adjusted[3] == Approx(0.5));
  CHECK(benjamini_hochberg({}).empty());
}
