#include "run_measure_options.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace perfgate::cli {

void add_measure_options(CLI::App& cmd, MeasureOptions& o) {
  cmd.add_option("--backend", o.backend, "cpu, cuda or auto (the suite's backends available here)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  cmd.add_option("--timing", o.timing,
                 "hot, cold, graph or a list (hot,cold): how launches are timed, replacing the "
                 "suite's (cold: L2 flushed before each launch; graph: replayed from a CUDA "
                 "graph; both cuda only)")
      ->delimiter(',')
      ->check(CLI::IsMember({"hot", "cold", "graph"}));
  cmd.add_flag("--no-ceilings", o.no_ceilings,
               "do not measure the copy and GEMM ceilings that results are fractions of");
  cmd.add_option("--wrap", o.wrap,
                 "command every measuring process starts under, e.g. 'taskset -c 2' or "
                 "'nsys profile -o prof/{case}' ({case}: the case's name as a file name)");
}

std::vector<std::string> measure_arguments(const MeasureOptions& o) {
  std::vector<std::string> args;
  if (o.backend != "auto") args.insert(args.end(), {"--backend", o.backend});
  if (!o.timing.empty())
    args.insert(args.end(), {"--timing", fmt::format("{}", fmt::join(o.timing, ","))});
  if (o.no_ceilings) args.emplace_back("--no-ceilings");
  if (o.wrap) args.push_back("--wrap=" + *o.wrap);  // '=': the text may start with '-'
  return args;
}

}  // namespace perfgate::cli
