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

}  // namespace

std::string results_table(const Run& run) {
  std::size_t width = 4;
  for (const auto& r : run.results) width = std::max(width, r.key.name().size());
  std::string out = fmt::format("{:<{}}  {:<8} {:>11} {:>8} {:>5} {:>9} {:>9}\n", "case", width,
                                "status", "median", "±mad", "n", "GB/s", "TFLOP/s");
  for (const auto& r : run.results) {
    if (r.status != ResultStatus::ok) {
      out += fmt::format("{:<{}}  {:<8}\n", r.key.name(), width, to_string(r.status));
      if (!r.message.empty()) out += fmt::format("{:<{}}    {}\n", "", width, r.message);
      continue;
    }
    const auto& s = r.summary;
    out +=
        fmt::format("{:<{}}  {:<8} {:>11} {:>7.2f}% {:>5} {:>9.2f} {:>9.4f}\n", r.key.name(), width,
                    "ok", human_time(s.median), s.median > 0 ? 100.0 * s.mad / s.median : 0.0, s.n,
                    counter(r, "gbps"), counter(r, "tflops"));
  }
  return out;
}

}  // namespace perfgate::cli
