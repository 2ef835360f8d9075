#include "perfgate/collectives/nccl_tests_json.hpp"

#include <fmt/format.h>

#include "perfgate/collectives/min_busbw.hpp"

namespace perfgate::collectives {
namespace {

// nccl-tests writes its booleans as the strings "true" and "false".
std::string flag(bool value) {
  return value ? "true" : "false";
}

nlohmann::ordered_json config(const TableHeader& h) {
  nlohmann::ordered_json c = {{"nthreads", 1},
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
  if (h.bitwise_repeats > 0) c["bitwise_repeats"] = h.bitwise_repeats;
  c["graph"] = h.graph;
  c["blocking_collectives"] = flag(h.blocking != 0);
  c["per_iter_timing"] = flag(h.per_iteration);
  c["per_iter_skip"] = h.per_iter_skip;
  c["parallel_init"] = flag(false);
  nlohmann::ordered_json& devices = c["devices"] = nlohmann::ordered_json::array();
  for (const RankDescription& r : h.ranks)
    devices.push_back({{"rank", r.rank},
                       {"group", r.group},
                       {"pid", r.pid},
                       {"hostname", r.host},
                       {"device", r.device},
                       {"device_hex", r.bus_id},
                       {"device_info", r.name}});
  return c;
}

// One placement's object; null where it was not measured (-O 0's out-of-place).
// A count, or null where nccl-tests writes one for "none" (-1).
nlohmann::ordered_json count_or_null(long long value) {
  return value < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(value);
}

// --bitwise-repeats: how the repeats differed, in nccl-tests' keys (`repeats` from the header).
nlohmann::ordered_json bitwise_json(const BitwiseDifference& d, int repeats) {
  return {{"repeats", repeats},
          {"different_elements", d.elements},
          {"different_bits", d.bits},
          {"first_repeat", count_or_null(d.first_repeat)},
          {"first_rank", count_or_null(d.first_rank)},
          {"first_element", count_or_null(d.first_element)},
          {"first_bit", count_or_null(d.first_bit)}};
}

nlohmann::ordered_json placement(const PlacementCells& c, const TableHeader& h) {
  if (!c.measured) return nullptr;
  nlohmann::ordered_json p = {
      {h.cputime ? "cpu_time" : "time", c.time_us},
      {"alg_bw", c.algbw},
      {"bus_bw", c.busbw},
      {"nwrong", c.wrong ? nlohmann::ordered_json(double(*c.wrong)) : nlohmann::ordered_json()}};
  if (c.bitwise) p["bitwise"] = bitwise_json(*c.bitwise, h.bitwise_repeats);
  return p;
}

nlohmann::ordered_json per_iteration(const PlacementCells& c) {
  if (!c.measured || !c.iterations) return nullptr;
  return iteration_times_json(*c.iterations, true);
}

nlohmann::ordered_json result(const TableRow& row, const TableHeader& h) {
  nlohmann::ordered_json r = {{"size", row.bytes},
                              {"count", row.count},
                              {"type", type_name(row.dtype)},
                              {"redop", row.redop},
                              {"root", fmt::format("{:6d}", row.root)}};
  // As nccl-tests writes a row: each placement, then its per-iteration object.
  for (const auto& [key, cells] :
       {std::pair{"out_of_place", &row.out_of_place}, std::pair{"in_place", &row.in_place}}) {
    r[key] = placement(*cells, h);
    if (h.per_iteration) r[std::string(key) + "_per_iter"] = per_iteration(*cells);
  }
  r["actual_iterations"] = row.iterations > 0 ? row.iterations : h.iters;
  r["experiment_name"] = "";
  return r;
}

}  // namespace

nlohmann::ordered_json nccl_tests_json(const NcclTestsJsonRun& run) {
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const TableRow& row : run.rows) results.push_back(result(row, run.header));
  nlohmann::ordered_json j = {
      {"version", 3},
      // Not nccl-tests': the binary the file stands for, which nccl-tests' readers take from
      // args[0] and perfgate-collectives' command line does not name.
      {"program", run.header.program},
      {"start_time", run.start_time},
      {"args", run.args},
      {"env", run.env},
      {"nccl_version",
       run.nccl_version ? nlohmann::ordered_json(*run.nccl_version) : nlohmann::ordered_json()},
      {"config", config(run.header)},
      {"results", std::move(results)},
      {"out_of_bounds", {{"count", run.wrong_total}, {"okay", flag(run.wrong_total == 0)}}}};
  if (run.header.bitwise_repeats > 0)
    j["bitwise_mismatches"] = {{"count", run.bitwise_mismatches},
                               {"okay", flag(run.bitwise_mismatches == 0)}};
  j["average_bus_bandwidth"] = {
      {"bandwidth", run.avg_busbw},
      {"okay", run.min_busbw ? flag(meets_min_busbw(run.avg_busbw, *run.min_busbw)) : "unchecked"}};
  j["errors"] = nlohmann::ordered_json::array();
  j["end_time"] = run.end_time;
  return j;
}

std::filesystem::path unused_json_path(const std::filesystem::path& path) {
  std::filesystem::path candidate = path;
  for (int n = 0; std::filesystem::exists(candidate); ++n)
    candidate = std::filesystem::path(path.string() + "." + std::to_string(n));
  return candidate;
}

}  // namespace perfgate::collectives
