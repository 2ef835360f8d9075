#include "perfgate/scaling/batch_script.hpp"

#include <regex>

#include <fmt/format.h>

#include "launchers.hpp"
#include "perfgate/core/error.hpp"
#include "slurm_text.hpp"

namespace perfgate::scaling {

const std::string& default_batch_template() {
  static const std::string text = R"(#!/bin/bash
# One scale point of a perfgate sweep (generated; see docs/scaling.md).
#SBATCH --job-name=@JOB_NAME@
#SBATCH --nodes=@NODES@
#SBATCH --ntasks-per-node=@TASKS_PER_NODE@
#SBATCH --output=@LOG@
#SBATCH --time=@TIME_LIMIT@
@SBATCH_EXTRA@
set -euo pipefail
@EXPORTS@
srun @SRUN_OPTIONS@ @PROGRAM@
)";
  return text;
}

namespace {

std::string joined_quoted(const std::vector<std::string>& args) {
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : " ") + detail::shell_quote(a);
  return out;
}

}  // namespace

std::string render_batch_script(const std::string& tmpl, const BatchScriptInput& in,
                                const std::string& template_source) {
  static const std::regex env_name("[A-Za-z_][A-Za-z0-9_]*");
  std::string exports;
  for (const auto& [k, v] : in.env) {
    if (!std::regex_match(k, env_name))
      throw InputError(fmt::format("env: '{}' is not a valid environment variable name", k));
    exports += fmt::format("export {}={}\n", k, detail::shell_quote(v));
  }
  std::string extra;
  if (in.point.gpus_per_node > 0)
    extra += fmt::format("#SBATCH --gpus-per-node={}\n", in.point.gpus_per_node);
  if (!in.partition.empty()) extra += "#SBATCH --partition=" + in.partition + "\n";
  std::vector<std::string> srun_opts = detail::srun_options(in.point, in.mpi, "");
  const std::map<std::string, std::string> values{
      {"JOB_NAME", in.job_name},
      {"NODES", std::to_string(in.point.nodes)},
      {"TASKS_PER_NODE", std::to_string(in.point.ranks_per_node)},
      {"LOG", in.log_path},
      {"TIME_LIMIT", in.time_limit},
      {"SBATCH_EXTRA", extra},
      {"EXPORTS", exports},
      {"SRUN_OPTIONS", joined_quoted(srun_opts)},
      {"PROGRAM", joined_quoted(in.program)},
  };
  std::string out;
  std::size_t pos = 0;
  while (true) {
    const auto start = tmpl.find('@', pos);
    if (start == std::string::npos) break;
    const auto end = tmpl.find('@', start + 1);
    const std::string name =
        end == std::string::npos ? "" : tmpl.substr(start + 1, end - start - 1);
    const bool placeholder = !name.empty() && std::regex_match(name, std::regex("[A-Z_]+"));
    if (!placeholder) {
      out += tmpl.substr(pos, start + 1 - pos);
      pos = start + 1;
      continue;
    }
    const auto v = values.find(name);
    if (v == values.end())
      throw InputError(fmt::format("{}: unknown placeholder @{}@", template_source, name));
    out += tmpl.substr(pos, start - pos) + v->second;
    pos = end + 1;
  }
  return out + tmpl.substr(pos);
}

}  // namespace perfgate::scaling
