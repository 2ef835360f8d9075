// Google Benchmark's own comparison inputs (corpus/gbench, google/benchmark tools/gbench/Inputs)
// against the p-values its tools/compare.py (scipy mannwhitneyu, two-sided) lists.
#include <fstream>
#include <map>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "perfgate/regress/stats.hpp"

using namespace perfgate::regress::stats;

namespace {

struct Times {
  std::vector<double> real, cpu;
};

// Repetition rows per benchmark name; rows carrying "aggregate_name" (mean/median/stddev) are
// summaries, not samples. compare.py groups by name the same way.
std::map<std::string, Times> read_rows(const std::string& file) {
  std::ifstream in(std::string(PERFGATE_CORPUS) + "/gbench/" + file);
  REQUIRE(in);
  const nlohmann::json doc = nlohmann::json::parse(in);
  std::map<std::string, Times> rows;
  for (const auto& b : doc.at("benchmarks")) {
    if (b.contains("aggregate_name") || !b.contains("real_time")) continue;  // BigO/RMS rows
    rows[b.at("name")].real.push_back(b.at("real_time").get<double>());
    rows[b.at("name")].cpu.push_back(b.at("cpu_time").get<double>());
  }
  return rows;
}

}  // namespace

TEST_CASE("gbench test3: p-values agree with compare.py where both use the same method") {
  const auto before = read_rows("test3_run0.json");
  const auto after = read_rows("test3_run1.json");
  // BM_Two, 2 vs 2 without ties: exact in both tools.
  CHECK(mann_whitney(before.at("BM_Two").real, after.at("BM_Two").real).p_value ==
        Approx(1.0).margin(5e-5));
  CHECK(mann_whitney(before.at("BM_Two").cpu, after.at("BM_Two").cpu).p_value ==
        Approx(0.6667).margin(5e-5));
  // short cpu_time, 2 vs 3 without ties: exact in both tools.
  CHECK(mann_whitney(before.at("short").cpu, after.at("short").cpu).p_value ==
        Approx(0.2).margin(5e-5));
}

TEST_CASE("gbench test3 short real_time: scipy switches to the normal approximation on ties") {
  const auto before = read_rows("test3_run0.json");
  const auto after = read_rows("test3_run1.json");
  const auto& x = before.at("short").real;  // {8, 8}: a tie
  const auto& y = after.at("short").real;
  // scipy's default falls back to the asymptotic test when values tie; forcing that method
  // reproduces compare.py's 0.7671 ...
  CHECK(mann_whitney(x, y, Method::asymptotic).p_value == Approx(0.7671).margin(5e-5));
  // ... while perfgate, for so small a sample, keeps the exact distribution conditional on the
  // tie: of the C(5,2) = 10 equally likely draws from the ranks {1, 2, 3.5, 3.5, 5}, 4 have a
  // rank sum at least the observed 7, and the two-sided p is twice that tail.
  const MannWhitney exact = mann_whitney(x, y);
  CHECK(exact.exact);
  CHECK(exact.ties);
  CHECK(exact.p_value == Approx(0.8).margin(5e-5));
}

TEST_CASE("gbench test3: with 2 or 3 repetitions no p below 0.05 is attainable") {
  CHECK(smallest_attainable_p(2, 2) > 0.05);
  CHECK(smallest_attainable_p(2, 3) > 0.05);
  CHECK(smallest_attainable_p(2, 1) > 0.05);  // "medium": compare.py runs no test at all
  CHECK(repetitions_needed_for(0.05) == 4);
}

TEST_CASE("gbench test1: relative changes match compare.py") {
  const auto before = read_rows("test1_run1.json");
  const auto after = read_rows("test1_run2.json");
  const auto change = [&](const std::string& name) {
    return median(after.at(name).real) / median(before.at(name).real) - 1;
  };
  CHECK(change("BM_2xFaster") == Approx(-0.5));
  CHECK(change("BM_2xSlower") == Approx(1.0));
  CHECK(change("BM_SameTimes") == Approx(0.0));
}
