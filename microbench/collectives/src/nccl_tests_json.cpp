#include "perfgate/collectives/nccl_tests_json.hpp"

#include <fmt/format.h>

namespace perfgate::collectives {
namespace {

// nccl-tests writes its booleans as the strings "true" and "false".
std::string flag(bool value) {
  return value ? "true" : "false";
}

nlohmann::json config(const TableHeader& h) {
  nlohmann::json c = {{"nthreads", 1},
                      {"ngpus", 1},
                      {"minimum_bytes", h.min_bytes},
                      {"maximum_bytes", h.max_bytes}};
  if (h.steps.by_factor())
    c["step_factor"] = h.steps.factor;
  else
    c["step_bytes"] = h.steps.bytes;
  c["warmup_iters"] = h.warmup_iters;
  c["iterations"] = h.iters;
  c["aggregated_iterations"] = h.agg_iters;
  c["validation"] = h.check;
  c["graph"] = h.graph;
  c["blocking_collectives"] = flag(h.blocking != 0);
  c["per_iter_timing"] = flag(h.per_iteration);
  c["parallel_init"] = flag(false);
  nlohmann::json& devices = c["devices"] = nlohmann::json::array();
  for (const RankDescription& r : h.ranks)
    devices.push_back({{"rank", r.rank},
                       {"group", 0},
                       {"pid", r.pid},
                       {"hostname", r.host},
                       {"device", r.device},
                       {"device_hex", r.bus_id},
                       {"device_info", r.name}});
  return c;
}

// One placement's object; null where it was not measured (-O 0's out-of-place).
nlohmann::json placement(const PlacementCells& c, bool cputime) {
  if (!c.measured) return nullptr;
  return {{cputime ? "cpu_time" : "time", c.time_us},
          {"alg_bw", c.algbw},
          {"bus_bw", c.busbw},
          {"nwrong", c.wrong ? nlohmann::json(double(*c.wrong)) : nlohmann::json()}};
}

nlohmann::json per_iteration(const PlacementCells& c) {
  if (!c.measured || !c.iterations) return nullptr;
  return iteration_stats_json(*c.iterations);
}

nlohmann::json result(const TableRow& row, const TableHeader& h) {
  nlohmann::json r = {{"size", row.bytes},
                      {"count", row.count},
                      {"type", type_name(row.dtype)},
                      {"redop", row.redop},
                      {"root", fmt::format("{:6d}", row.root)},
                      {"out_of_place", placement(row.out_of_place, h.cputime)},
                      {"in_place", placement(row.in_place, h.cputime)}};
  if (h.per_iteration) {
    r["out_of_place_per_iter"] = per_iteration(row.out_of_place);
    r["in_place_per_iter"] = per_iteration(row.in_place);
  }
  r["actual_iterations"] = h.iters;
  r["experiment_name"] = "";
  return r;
}

}  // namespace

nlohmann::json nccl_tests_json(const NcclTestsJsonRun& run) {
  nlohmann::json results = nlohmann::json::array();
  for (const TableRow& row : run.rows) results.push_back(result(row, run.header));
  return {{"version", 2},
          // Not nccl-tests': the binary the file stands for, which nccl-tests' readers take from
          // args[0] and perfgate-collectives' command line does not name.
          {"program", run.header.program},
          {"start_time", run.start_time},
          {"args", run.args},
          {"env", run.env},
          {"nccl_version", run.nccl_version ? nlohmann::json(*run.nccl_version) : nlohmann::json()},
          {"config", config(run.header)},
          {"results", std::move(results)},
          {"out_of_bounds", {{"count", run.wrong_total}, {"okay", flag(run.wrong_total == 0)}}},
          {"average_bus_bandwidth", {{"bandwidth", run.avg_busbw}, {"okay", "unchecked"}}},
          {"errors", nlohmann::json::array()},
          {"end_time", run.end_time}};
}

std::filesystem::path unused_json_path(const std::filesystem::path& path) {
  std::filesystem::path candidate = path;
  for (int n = 0; std::filesystem::exists(candidate); ++n)
    candidate = std::filesystem::path(path.string() + "." + std::to_string(n));
  return candidate;
}

}  // namespace perfgate::collectives
