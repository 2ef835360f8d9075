// The ceilings a run's results are fractions of: their record, and the fractions a result gets.
#include <catch2/catch.hpp>

#include "perfgate/core/error.hpp"
#include "perfgate/microbench/ceilings.hpp"

using namespace perfgate;
using microbench::Ceilings;

namespace {
Result measured(double gbps, double tflops) {
  Result r;
  r.status = ResultStatus::ok;
  r.extra["counters"] = {{"gbps", gbps}, {"tflops", tflops}};
  return r;
}
Ceilings h200_like() {  // the copy and GEMM ceilings of docs/gpu-results-2026-11-29.md
  Ceilings c;
  c.copy_bytes_per_second = 4217e9;
  c.gemm_flops_per_second = 789.8e12;
  return c;
}
}  // namespace

TEST_CASE("a result's fraction of ceiling is the roofline's: copy below the ridge, GEMM above") {
  // A memory-bound norm: 3395 GB/s at 1.1 TFLOP/s.
  Result norm = measured(3395, 1.1);
  microbench::add_ceiling_fractions(norm, h200_like());
  const auto& n = norm.extra["counters"];
  CHECK(n["copy_fraction"].get<double>() == Approx(3395.0 / 4217.0));
  CHECK(n["gemm_fraction"].get<double>() == Approx(1.1 / 789.8));
  CHECK(n["ceiling_fraction"].get<double>() == Approx(3395.0 / 4217.0));
  // A compute-bound GEMM: 799 TFLOP/s moving 400 GB/s.
  Result gemm = measured(400, 799);
  microbench::add_ceiling_fractions(gemm, h200_like());
  CHECK(gemm.extra["counters"]["ceiling_fraction"].get<double>() == Approx(799 / 789.8));
}

TEST_CASE("a ceiling not measured gives no fraction of it, and a failed result none at all") {
  Ceilings copy_only;
  copy_only.copy_bytes_per_second = 20e9;
  Result r = measured(5, 0.2);
  microbench::add_ceiling_fractions(r, copy_only);
  CHECK(r.extra["counters"]["copy_fraction"].get<double>() == Approx(0.25));
  CHECK_FALSE(r.extra["counters"].contains("gemm_fraction"));
  CHECK_FALSE(r.extra["counters"].contains("ceiling_fraction"));  // the roofline needs both

  Result failed = measured(5, 0.2);
  failed.status = ResultStatus::error;
  microbench::add_ceiling_fractions(failed, h200_like());
  CHECK_FALSE(failed.extra["counters"].contains("copy_fraction"));
  Result no_counters;
  no_counters.status = ResultStatus::ok;
  microbench::add_ceiling_fractions(no_counters, h200_like());
  CHECK_FALSE(no_counters.extra.contains("counters"));
}

TEST_CASE("ceilings round-trip through their record, and a bad record is named") {
  auto c = h200_like();
  c.how = {{"copy", {{"bytes", 1 << 30}}}};
  const auto j = microbench::to_json(c);
  CHECK(j["copy_gbps"].get<double>() == Approx(4217));
  CHECK(j["gemm_tflops"].get<double>() == Approx(789.8));
  const Ceilings back = microbench::ceilings_from_json(j, "c.json");
  CHECK(*back.copy_bytes_per_second == Approx(4217e9));
  CHECK(*back.gemm_flops_per_second == Approx(789.8e12));
  CHECK(back.how == c.how);
  CHECK_FALSE(microbench::to_json(Ceilings{}).contains("copy_gbps"));
  CHECK_THROWS_WITH(microbench::ceilings_from_json({{"copy_gbps", -1}}, "c.json"),
                    "c.json: ceilings: 'copy_gbps' must be a positive number");
  CHECK_THROWS_WITH(microbench::ceilings_from_json({{"gemm_tflops", "fast"}}, "c.json"),
                    "c.json: ceilings: 'gemm_tflops' must be a positive number");
  CHECK_THROWS_AS(microbench::ceilings_from_json(nlohmann::json::array(), "c.json"), InputError);
}
