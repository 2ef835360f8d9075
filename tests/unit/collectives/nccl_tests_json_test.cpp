#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "perfgate/collectives/nccl_tests_json.hpp"

using namespace perfgate::collectives;

TEST_CASE("the JSON file (-J) is nccl-tests' layout: config, devices, rows, placements, footer") {
  NcclTestsJsonRun run;
  run.header.program = "all_reduce_perf";
  run.header.min_bytes = 1024;
  run.header.max_bytes = 4096;
  run.header.iters = 20;
  run.header.warmup_iters = 5;
  run.header.blocking = 1;
  run.header.per_iteration = true;
  run.header.ranks = {{0, 41, "n1", 0, "0000:19:00", "NVIDIA H200"}};
  run.args = {"perfgate-collectives", "-J", "x.json"};
  run.nccl_version = 22803;
  TableRow row{1024, 256, DataType::bf16, "sum", -1, {14.5, 0.07, 0.07, 0}, {14.0, 0.07, 0.07, {}}};
  row.out_of_place.iterations = IterationStats{13.0, 17.0, 16.5, 3.4};
  TableRow in_place_only = row;
  in_place_only.out_of_place.measured = false;
  run.rows = {row, in_place_only};
  run.wrong_total = 0;
  run.avg_busbw = 0.07;
  const nlohmann::json j = nccl_tests_json(run);
  CHECK(j["program"] == "all_reduce_perf");
  CHECK(j["nccl_version"] == 22803);
  CHECK(j["config"]["step_factor"] == 2);
  CHECK(j["config"]["blocking_collectives"] == "true");  // nccl-tests' booleans are strings
  CHECK(j["config"]["devices"][0]["device_hex"] == "0000:19:00");
  const nlohmann::json& r = j["results"][0];
  CHECK(r["type"] == "bfloat16");
  CHECK(r["root"] == "    -1");  // nccl-tests' %6i
  CHECK(r["out_of_place"]["time"] == 14.5);
  CHECK(r["out_of_place"]["nwrong"] == 0.0);
  CHECK(r["in_place"]["nwrong"].is_null());  // unchecked
  CHECK(r["out_of_place_per_iter"]["p99_us"] == 16.5);
  CHECK(r["in_place_per_iter"].is_null());
  CHECK(j["results"][1]["out_of_place"].is_null());  // -O 0
  CHECK(j["out_of_bounds"]["okay"] == "true");
  // -C: the time is the launch time, keyed cpu_time.
  run.header.cputime = true;
  CHECK(nccl_tests_json(run)["results"][0]["out_of_place"].contains("cpu_time"));
  run.nccl_version.reset();
  CHECK(nccl_tests_json(run)["nccl_version"].is_null());  // the MPI backend
}

TEST_CASE("the JSON output (-J) never overwrites: PATH, then PATH.0, PATH.1") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("pg_json_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / "nt.json";
  CHECK(unused_json_path(path) == path);
  std::ofstream(path) << "{}";
  CHECK(unused_json_path(path) == dir / "nt.json.0");
  std::ofstream(dir / "nt.json.0") << "{}";
  CHECK(unused_json_path(path) == dir / "nt.json.1");
  std::filesystem::remove_all(dir);
}
