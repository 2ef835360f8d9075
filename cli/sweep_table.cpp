#include <fmt/format.h>

#include "sweep_cli.hpp"

namespace perfgate::cli {

namespace {

std::string num(const nlohmann::json& j, const char* key, const char* format) {
  return j.contains(key) && j[key].is_number()
             ? fmt::format(fmt::runtime(format), j[key].get<double>())
             : "-";
}

std::string straggler_text(const nlohmann::json& list) {
  std::string out;
  for (const auto& s : list)
    out += (out.empty() ? "" : ",") +
           fmt::format("{}@{}", s.value("rank", -1), s.value("host", std::string("?")));
  return out.empty() ? "-" : out;
}

}  // namespace

void print_sweep_table(std::ostream& out, const Run& sweep) {
  const nlohmann::json& s = sweep.metadata.at("sweep");
  std::size_t ok = 0;
  for (const auto& p : s["points"]) ok += p.value("status", "") == "ok";
  out << fmt::format("sweep {} ({} scaling, launcher {}): {}/{} points, run {}\n",
                     s.value("name", ""), s.value("mode", ""), s.value("launcher", ""), ok,
                     s["points"].size(), sweep.uuid);
  out << fmt::format("{:<8} {:>5} {:<16} {:>12} {:>14} {:>10}  {}\n", "point", "ranks", "case",
                     "time_us", "throughput", "efficiency", "stragglers");
  bool decomposition = false;
  for (const auto& p : s["points"]) {
    if (p.value("status", "") != "ok") {
      out << fmt::format("{:<8} {:>5} MISSING: {}\n", p.value("label", ""), p.value("ranks", 0),
                         p.value("reason", ""));
      continue;
    }
    for (const auto& c : p["cases"]) {
      out << fmt::format("{:<8} {:>5} {:<16} {:>12} {:>9} {:<4} {:>10}  {}\n", p.value("label", ""),
                         p.value("ranks", 0), c.value("case", ""), num(c, "time_us", "{:.1f}"),
                         num(c, "per_rank_throughput", "{:.3g}"), c.value("throughput_unit", ""),
                         num(c, "efficiency", "{:.3f}"), straggler_text(c["stragglers"]));
      decomposition = decomposition || c.contains("decomposition");
    }
  }
  if (!decomposition) return;
  out << fmt::format(
      "\nstep-time decomposition (us per step, mean over ranks)\n{:<8} {:>12} {:>12} {:>12} {:>12} "
      "{:>12} {:>9} {:>7}\n",
      "point", "step", "compute", "comm", "exposed", "other", "overlap", "mfu");
  for (const auto& p : s["points"]) {
    if (p.value("status", "") != "ok") continue;
    for (const auto& c : p["cases"]) {
      if (!c.contains("decomposition")) continue;
      const auto& d = c["decomposition"];
      out << fmt::format("{:<8} {:>12} {:>12} {:>12} {:>12} {:>12} {:>9} {:>7}\n",
                         p.value("label", ""), num(d, "step_time", "{:.0f}"),
                         num(d, "compute_time", "{:.0f}"), num(d, "comm_time", "{:.0f}"),
                         num(d, "exposed_comm_time", "{:.0f}"), num(d, "other_time", "{:.0f}"),
                         num(d, "overlap_fraction", "{:.2f}"), num(d, "mfu", "{:.3f}"));
    }
  }
}

}  // namespace perfgate::cli
