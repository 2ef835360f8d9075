#include <catch2/catch.hpp>

#include "perfgate/collectives/result_document.hpp"
#include "perfgate/core/document.hpp"

using namespace perfgate;
using namespace perfgate::collectives;

namespace {

CaseMeasurement all_reduce_case() {
  CaseMeasurement m;
  m.backend = "mpi";
  m.shape = {Collective::all_reduce, DataType::bf16, ReduceOp::sum, 0, 4, 512};
  m.bytes = 1024;
  m.in_place = true;
  m.sample_us = {10.0, 12.5};
  m.per_rank_us = {10, 11, 12, 30};
  m.avg_us = 11.25;
  m.min_us = 10;
  m.max_us = 12.5;
  m.wrong = 0;
  m.stragglers = {3};
  return m;
}

}  // namespace

TEST_CASE("a case gives time, algbw and busbw series with busbw = algbw x factor") {
  const Scale scale{1, 0, 4};
  const std::vector<Result> results = case_results(all_reduce_case(), scale);
  REQUIRE(results.size() == 3);
  CHECK(results[0].key.id() ==
        "collectives.all_reduce/bytes:1024/dtype:bf16/inplace:1/redop:sum/root:-1@time");
  // The backend is not part of the series (NCCL results line up with nccl-tests logs), only noted.
  for (const Result& r : results) CHECK(r.extra["backend"] == "mpi");
  CHECK(results[0].unit == "us");
  CHECK(results[0].extra["per_rank_us"].size() == 4);
  CHECK(results[0].extra["stragglers"] == nlohmann::json::array({3}));
  CHECK(results[1].key.metric == "algbw");
  CHECK(results[2].key.metric == "busbw");
  CHECK(results[2].direction == Direction::higher_is_better);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(results[1].samples[i] == Approx(1024 / (results[0].samples[i] * 1e-6) / 1e9));
    CHECK(results[2].samples[i] == Approx(results[1].samples[i] * 1.5));
  }
  CHECK(results[2].scale == scale);
}

TEST_CASE("a launch time taken (-C) gives a fourth series, cputime") {
  CaseMeasurement m = all_reduce_case();
  CHECK(case_results(m, {}).size() == 3);
  m.launch_us = {2.0, 2.5};
  m.wrong = 1;
  const std::vector<Result> results = case_results(m, {});
  REQUIRE(results.size() == 4);
  CHECK(results[3].key.id() ==
        "collectives.all_reduce/bytes:1024/dtype:bf16/inplace:1/redop:sum/root:-1@cputime");
  CHECK(results[3].unit == "us");
  CHECK(results[3].direction == Direction::lower_is_better);
  CHECK(results[3].samples == std::vector<double>{2.0, 2.5});
  CHECK(results[3].status == ResultStatus::error);  // the case's data check covers it too
  // The bandwidths stay the operation's.
  CHECK(results[1].samples[0] == Approx(1024 / (10.0 * 1e-6) / 1e9));
}

TEST_CASE("a later cycle's measurement (-N) joins the samples and the means") {
  CaseMeasurement all = all_reduce_case();  // 2 samples
  CaseMeasurement more = all_reduce_case();
  more.sample_us = {20.0};  // 1 sample: weighs half as much as the first cycle's two
  more.per_rank_us = {40, 41, 42, 60};
  more.avg_us = 41;
  more.min_us = 40;
  more.max_us = 60;
  more.wrong = 2;
  absorb_cycle(all, more);
  CHECK(all.sample_us == std::vector<double>{10.0, 12.5, 20.0});
  CHECK(all.per_rank_us == std::vector<double>{20, 21, 22, 40});
  CHECK(all.avg_us == Approx((11.25 * 2 + 41) / 3));
  CHECK(all.min_us == Approx(20));
  CHECK(all.max_us == Approx((12.5 * 2 + 60) / 3));
  CHECK(all.wrong == std::optional<std::size_t>{2});
  CaseMeasurement unchecked = all_reduce_case();
  unchecked.wrong.reset();
  absorb_cycle(all, unchecked);
  CHECK(all.wrong == std::optional<std::size_t>{2});
  CHECK(all.sample_us.size() == 5);
}

TEST_CASE("per-iteration statistics (-I 1) sit beside the time, one entry a cycle") {
  const Scale scale{1, 0, 4};
  CHECK(case_results(all_reduce_case(), scale)[0].extra.count("per_iteration") == 0);
  CaseMeasurement all = all_reduce_case();
  all.per_iteration = {iteration_times({{8, 12}, {10, 9}})};
  CaseMeasurement more = all_reduce_case();
  more.per_iteration = {iteration_times({{20, 5}, {4, 30}})};
  absorb_cycle(all, more);
  const std::vector<Result> results = case_results(all, scale);
  // Each cycle's iterations are their slowest rank's: 10, 12 and 20, 30.
  CHECK(results[0].extra["per_iteration"] == nlohmann::json::parse(R"([
    {"skipped_iterations": 0, "min_us": 10.0, "max_us": 12.0, "avg_us": 11.0, "p50_us": 12.0, "p95_us": 12.0,
     "p99_us": 12.0, "stdev_us": 1.0, "cv_pct": 9.090909090909092, "times_us": [10.0, 12.0]},
    {"skipped_iterations": 0, "min_us": 20.0, "max_us": 30.0, "avg_us": 25.0, "p50_us": 30.0, "p95_us": 30.0,
     "p99_us": 30.0, "stdev_us": 5.0, "cv_pct": 20.0, "times_us": [20.0, 30.0]}])"));
  CHECK(results[1].extra.count("per_iteration") == 0);  // bandwidths carry none
}

TEST_CASE("wrong elements make the case an error") {
  CaseMeasurement m = all_reduce_case();
  m.wrong = 5;
  const std::vector<Result> results = case_results(m, {});
  CHECK(results[0].status == ResultStatus::error);
  CHECK(results[2].message.find("5 wrong") != std::string::npos);
}

TEST_CASE("a timeout names the collective, the size and the rank") {
  const Result r = timeout_result(all_reduce_case(), {}, 2, "node7", 1.5);
  CHECK(r.status == ResultStatus::timeout);
  CHECK(r.message.find("all_reduce") != std::string::npos);
  CHECK(r.message.find("1024 B") != std::string::npos);
  CHECK(r.message.find("rank 2 (node7)") != std::string::npos);
}

TEST_CASE("overlap efficiency: 1 when the shorter one hides entirely, 0 when nothing overlaps") {
  CHECK(overlap_efficiency(100, 50, 100) == Approx(1));
  CHECK(overlap_efficiency(100, 50, 150) == Approx(0));
  CHECK(overlap_efficiency(100, 50, 125) == Approx(0.5));
}

TEST_CASE("the results survive a document round trip") {
  Run run;
  run.uuid = "u";
  run.suite = "collectives";
  for (Result& r : case_results(all_reduce_case(), {2, 4, 8})) run.results.push_back(r);
  BucketMeasurement b{"mpi", DataType::f32, 1 << 20, 1 << 18, {100}, 8, true};
  for (Result& r : bucket_results(b, {2, 4, 8})) run.results.push_back(r);
  const Run back = from_document(to_document(run), "test");
  REQUIRE(back.results.size() == 5);
  CHECK(back.results[2].samples == run.results[2].samples);
  CHECK(back.results[3].key.family == "collectives.bucket_all_reduce");
  CHECK(back.results[3].extra["best"] == true);
  CHECK(back.results[0].scale == Scale{2, 4, 8});
}
