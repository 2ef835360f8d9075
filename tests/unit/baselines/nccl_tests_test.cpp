#include <catch2/catch.hpp>

#include "find_series.hpp"
#include "perfgate/baselines/ingest.hpp"
#include "perfgate/baselines/nccl_tests.hpp"
#include "perfgate/core/error.hpp"

using namespace perfgate;
using namespace perfgate::baselines;

namespace {
const std::filesystem::path kData = std::filesystem::path(PERFGATE_TEST_DATA) / "baselines";

using perfgate::test::find_series;
}  // namespace

TEST_CASE("single-node all_reduce log: series, metrics, wrong counts and fingerprint") {
  const Run run = read_results_file(kData / "nccl_single_node.log");
  CHECK(run.suite == "nccl-tests");
  CHECK(run.results.size() == 4 * 2 * 3);  // rows x (out-of-place, in-place) x metrics
  const std::string p = "nccl-tests/all_reduce/inplace:0/redop:sum/root:-1/size:1048576/type:float";
  const auto& time = find_series(run, p + "@time");
  CHECK(time.unit == "us");
  CHECK(time.direction == Direction::lower_is_better);
  CHECK(time.samples == std::vector<double>{61.30});
  CHECK(time.extra["wrong"] == 0);
  CHECK(find_series(run, p + "@busbw").samples == std::vector<double>{29.94});
  CHECK(find_series(run, p + "@algbw").direction == Direction::higher_is_better);
  const auto& bad = find_series(
      run, "nccl-tests/all_reduce/inplace:1/redop:sum/root:-1/size:134217728/type:float@busbw");
  CHECK(bad.status == ResultStatus::error);
  CHECK(bad.extra["wrong"] == 3);
  CHECK(run.fingerprint.comparable.at("gpu.model") == "NVIDIA H100 80GB HBM3");
  CHECK(run.fingerprint.comparable.at("gpu.count") == "8");
  CHECK(run.fingerprint.comparable.at("cluster.nodes") == "1");
  CHECK(run.fingerprint.comparable.at("nccl.version") == "2.21.5+cuda12.4");
  REQUIRE(time.scale);
  CHECK(time.scale->gpus_per_node == 8);
  CHECK(run.metadata["nccl_tests"]["avg_busbw"] == Approx(66.0675));
}

TEST_CASE("multi-node log with interleaved MPI noise") {
  const Run run = read_results_file(kData / "nccl_multi_node.log");
  CHECK(run.results.size() == 4 * 2 * 3);
  CHECK(run.fingerprint.comparable.at("cluster.nodes") == "2");
  CHECK(run.fingerprint.comparable.at("cluster.gpus_per_node") == "8");
  CHECK(run.fingerprint.info.at("hosts") == "gpu-node-11,gpu-node-12");
  const auto& r = find_series(
      run, "nccl-tests/all_gather/inplace:0/redop:none/root:-1/size:4194304/type:float@time");
  CHECK(r.samples == std::vector<double>{201.44});
  REQUIRE(r.scale);
  CHECK(r.scale->nodes == 2);
  CHECK(r.scale->ranks == 16);
}

TEST_CASE("old nccl-tests format: no root column, an error column, op from the command line") {
  const Run run = read_results_file(kData / "nccl_old_format.log");
  CHECK(run.results.size() == 5 * 2 * 3);
  const auto& r = find_series(run, "nccl-tests/broadcast/inplace:1/redop:sum/size:2048/type:float@time");
  CHECK(r.samples == std::vector<double>{11.80});
  CHECK(r.status == ResultStatus::ok);
  CHECK(r.extra["error"] == "0e+00");
  CHECK(run.fingerprint.comparable.at("gpu.model") == "Tesla V100-SXM2-16GB");
}

TEST_CASE("truncated or foreign text is refused with the line") {
  CHECK_THROWS_WITH(read_results_file(kData / "nccl_truncated.log"),
                    Catch::Contains("nccl_truncated.log: line 22") && Catch::Contains("truncated"));
  CHECK_THROWS_WITH(from_nccl_tests_log("hello\n", "x.log"), Catch::Contains("no nccl-tests result table"));
  CHECK_FALSE(looks_like_nccl_tests("# size is big\n"));
  CHECK(looks_like_nccl_tests(
      "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n"));
}
