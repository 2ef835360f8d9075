#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

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
  row.out_of_place.iterations = iteration_times({{13.0, 17.0, 16.5}, {12.0, 14.0, 16.0}});
  TableRow in_place_only = row;
  in_place_only.out_of_place.measured = false;
  in_place_only.iterations = 3;  // fewer than -n under a byte budget (-s)
  run.rows = {row, in_place_only};
  run.wrong_total = 0;
  run.avg_busbw = 0.07;
  const nlohmann::ordered_json j = nccl_tests_json(run);
  // The keys in nccl-tests' order (a row's placement, then its per-iteration object).
  const auto keys = [](const nlohmann::ordered_json& object) {
    std::vector<std::string> names;
    for (const auto& item : object.items()) names.push_back(item.key());
    return names;
  };
  CHECK(keys(j) == std::vector<std::string>{"version", "program", "start_time", "args", "env",
                                            "nccl_version", "config", "results", "out_of_bounds",
                                            "average_bus_bandwidth", "errors", "end_time"});
  CHECK(keys(j["results"][0]) == std::vector<std::string>{"size", "count", "type", "redop", "root",
                                                          "out_of_place", "out_of_place_per_iter",
                                                          "in_place", "in_place_per_iter",
                                                          "actual_iterations", "experiment_name"});
  CHECK(j["results"][0]["actual_iterations"] == 20);  // the header's -n: no count of its own
  CHECK(j["results"][1]["actual_iterations"] == 3);
  CHECK(keys(j["config"]).front() == "nthreads");
  CHECK(j["program"] == "all_reduce_perf");
  CHECK(j["nccl_version"] == 22803);
  CHECK(j["config"]["step_factor"] == 2);
  CHECK(j["config"]["blocking_collectives"] == "true");  // nccl-tests' booleans are strings
  CHECK(j["version"] == 3);                              // nccl-tests' format with per_iter_skip
  CHECK(keys(j["config"]) ==
        std::vector<std::string>{
            "nthreads", "ngpus", "minimum_bytes", "maximum_bytes", "step_factor", "warmup_iters",
            "iterations", "aggregated_iterations", "validation", "graph", "blocking_collectives",
            "per_iter_timing", "per_iter_skip", "parallel_init", "devices"});
  CHECK(j["config"]["per_iter_skip"] == 0);
  CHECK(j["config"]["devices"][0]["device_hex"] == "0000:19:00");
  const nlohmann::ordered_json& r = j["results"][0];
  CHECK(r["type"] == "bfloat16");
  CHECK(r["root"] == "    -1");  // nccl-tests' %6i
  CHECK(r["out_of_place"]["time"] == 14.5);
  CHECK(r["out_of_place"]["nwrong"] == 0.0);
  CHECK(r["in_place"]["nwrong"].is_null());  // unchecked
  CHECK(r["out_of_place_per_iter"]["p99_us"] == 17.0);
  CHECK(r["out_of_place_per_iter"]["skipped_iterations"] == 0);
  CHECK(r["out_of_place_per_iter"]["times_us"] == nlohmann::json::parse("[13.0, 17.0, 16.5]"));
  CHECK(r["out_of_place_per_iter"]["per_process_max_times_us"].size() == 2);
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
