#pragma once
// How a run's cases are measured: the options `perfgate run` takes and `perfgate gate` passes
// on to each of its `run` processes, declared once so that the two commands cannot drift apart.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace perfgate::cli {

struct MeasureOptions {
  std::string backend = "auto";     // cpu, cuda, or auto: the suite's backends available here
  std::vector<std::string> timing;  // empty: each family's `timing` in the suite
  bool no_ceilings = false;
  std::optional<std::string> wrap;  // none: each measuring process runs alone (run_wrapper.hpp)
};

// --backend, --timing, --no-ceilings and --wrap on `cmd`.
void add_measure_options(CLI::App& cmd, MeasureOptions& o);

// The `run` arguments that reproduce `o` (none for the defaults).
std::vector<std::string> measure_arguments(const MeasureOptions& o);

}  // namespace perfgate::cli
