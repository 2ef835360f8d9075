#include "run_ceilings.hpp"

#include <set>

#include <fmt/format.h>

#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/process.hpp"
#include "perfgate/microbench/registry.hpp"

namespace perfgate::cli {

RunCeilings measure_ceilings(const MeasuringProgram& program,
                             const std::vector<microbench::CaseRequest>& cases,
                             std::chrono::milliseconds limit,
                             const std::filesystem::path& scratch) {
  std::set<std::string> backends;
  for (const auto& c : cases) backends.insert(c.backend);
  const auto& probes = microbench::Registry::instance().ceiling_probes();
  RunCeilings out;
  for (const std::string& backend : backends) {
    if (probes.count(backend) == 0) continue;
    std::filesystem::remove(scratch);
    const auto proc = program.run("ceilings-" + backend,
                                  {"--ceilings", backend, "--output", scratch.string()}, limit);
    if (!proc.ok() || !std::filesystem::exists(scratch)) {
      out.record[backend] = {
          {"error", fmt::format("measuring process {}: {}", proc.describe(), proc.err_tail(300))}};
      continue;
    }
    try {  // a file the child wrote but that is not a ceilings record
      const auto ceilings =
          microbench::ceilings_from_json(read_json_file(scratch), scratch.string());
      out.record[backend] = microbench::to_json(ceilings);
      out.measured.emplace(backend, ceilings);
    } catch (const InputError& e) {
      out.record[backend] = {{"error", e.what()}};
    }
    std::filesystem::remove(scratch);
  }
  return out;
}

void add_fractions(Result& r, const std::string& backend, const RunCeilings& ceilings) {
  if (const auto it = ceilings.measured.find(backend); it != ceilings.measured.end())
    microbench::add_ceiling_fractions(r, it->second);
}

}  // namespace perfgate::cli
