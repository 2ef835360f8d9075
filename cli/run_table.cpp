#include "run_table.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace perfgate::cli {
namespace {

std::string human_time(double ns) {
  if (ns < 1e3) return fmt::format("{:.1f} ns", ns);
  if (ns < 1e6) return fmt::format("{:.2f} us", ns / 1e3);
  if (ns < 1e9) return fmt::format("{:.2f} ms", ns / 1e6);
  return fmt::format("{:.3f} s", ns / 1e9);
}

double counter(const Result& r, const char* name) {
  const auto c = r.extra.find("counters");
  if (c == r.extra.end() || !c->contains(name)) return 0;
  return (*c)[name].get<double>();
}

// The roofline fraction where both ceilings were measured, else the copy fraction, marked.
std::string of_ceiling(const Result& r) {
  if (const double f = counter(r, "ceiling_fraction"); f > 0)
    return fmt::format("{:.1f}%", 100 * f);
  if (const double f = counter(r, "copy_fraction"); f > 0)
    return fmt::format("{:.1f}% copy", 100 * f);
  return "-";
}

// "ceilings cuda: copy 4217.0 GB/s, GEMM 789.8 TFLOP/s", one line per backend measured.
std::string ceiling_lines(const Run& run) {
  const auto it = run.metadata.find("ceilings");
  if (it == run.metadata.end() || !it->is_object()) return {};
  std::string out;
  for (const auto& [backend, c] : it->items()) {
    std::string what;
    if (c.contains("copy_gbps"))
      what = fmt::format("copy {:.1f} GB/s", c["copy_gbps"].get<double>());
    if (c.contains("gemm_tflops"))
      what += fmt::format("{}GEMM {:.1f} TFLOP/s", what.empty() ? "" : ", ",
                          c["gemm_tflops"].get<double>());
    if (c.contains("error")) what = "not measured: " + c["error"].get<std::string>();
    out += fmt::format("ceilings {}: {}\n", backend, what);
  }
  return out;
}

}  // namespace

std::string results_table(const Run& run) {
  std::size_t width = 4;
  for (const auto& r : run.results) width = std::max(width, r.key.name().size());
  std::string out = ceiling_lines(run);
  out += fmt::format("{:<{}}  {:<8} {:>11} {:>8} {:>5} {:>9} {:>9}  {}\n", "case", width, "status",
                     "median", "±mad", "n", "GB/s", "TFLOP/s", "of ceiling");
  for (const auto& r : run.results) {
    if (r.status != ResultStatus::ok) {
      out += fmt::format("{:<{}}  {:<8}\n", r.key.name(), width, to_string(r.status));
      if (!r.message.empty()) out += fmt::format("{:<{}}    {}\n", "", width, r.message);
      continue;
    }
    const auto& s = r.summary;
    out += fmt::format("{:<{}}  {:<8} {:>11} {:>7.2f}% {:>5} {:>9.2f} {:>9.4f}  {}\n", r.key.name(),
                       width, "ok", human_time(s.median),
                       s.median > 0 ? 100.0 * s.mad / s.median : 0.0, s.n, counter(r, "gbps"),
                       counter(r, "tflops"), of_ceiling(r));
  }
  return out;
}

}  // namespace perfgate::cli
