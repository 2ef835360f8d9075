#include "perfgate/scaling/batch_script.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "launchers.hpp"
#include "perfgate/core/error.hpp"
#include "slurm_text.hpp"

namespace perfgate::scaling {

// --exclusive: a point measured on nodes shared with another job (a sibling point of the same
// sweep included, since all points are submitted at once) measures the contention, and two MPI
// jobs on one host were seen to crash a rank during start-up.
const std::string& default_batch_template() {
  static const std::string text = R"(#!/bin/bash
# One scale point of a perfgate sweep (generated; see docs/scaling.md).
#SBATCH --job-name=@JOB_NAME@
#SBATCH --nodes=@NODES@
#SBATCH --ntasks-per-node=@TASKS_PER_NODE@
#SBATCH --output=@LOG@
#SBATCH --time=@TIME_LIMIT@
#SBATCH --exclusive
@SBATCH_EXTRA@
set -euo pipefail
@EXPORTS@
srun @SRUN_OPTIONS@ @PROGRAM@
)";
  return text;
}

namespace {

// Names are checked character by character: std::regex would recurse once per character, and
// neither an environment key from a plan nor the text between two '@' of a template is bounded.
bool is_env_name(const std::string& s) {
  const auto word = [](unsigned char c) { return std::isalnum(c) || c == '_'; };
  return !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0])) &&
         std::all_of(s.begin(), s.end(), word);
}

bool is_placeholder_name(const std::string& s) {
  const auto upper = [](unsigned char c) { return (c >= 'A' && c <= 'Z') || c == '_'; };
  return !s.empty() && std::all_of(s.begin(), s.end(), upper);
}

std::string joined_quoted(const std::vector<std::string>& args) {
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : " ") + detail::shell_quote(a);
  return out;
}

}  // namespace

std::string render_batch_script(const std::string& tmpl, const BatchScriptInput& in,
                                const std::string& template_source) {
  std::string exports;
  for (const auto& [k, v] : in.env) {
    if (!is_env_name(k))
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
    if (!is_placeholder_name(name)) {
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
