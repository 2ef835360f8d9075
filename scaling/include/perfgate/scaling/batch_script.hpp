#pragma once
// The batch script the sbatch launcher submits for one scale point, rendered from a template
// (scripts/slurm/sweep-point.sbatch is the same text as the built-in one, for editing).
#include <map>
#include <string>
#include <vector>

#include "perfgate/scaling/plan.hpp"

namespace perfgate::scaling {

struct BatchScriptInput {
  std::string job_name;
  ScalePoint point;
  std::string log_path;    // --output (may hold %j)
  std::string time_limit;  // "HH:MM:SS"
  std::string partition;   // empty: the default partition
  std::string mpi;         // srun --mpi plugin
  std::map<std::string, std::string> env;
  std::vector<std::string> program;
};

// Placeholders: @JOB_NAME@ @NODES@ @TASKS_PER_NODE@ @LOG@ @TIME_LIMIT@ @SBATCH_EXTRA@ @EXPORTS@
// @SRUN_OPTIONS@ @PROGRAM@. Every argument is single-quoted; env names must be shell names.
// Throws InputError naming `template_source` for an unknown placeholder or a bad env name.
std::string render_batch_script(const std::string& tmpl, const BatchScriptInput& in,
                                const std::string& template_source);

const std::string& default_batch_template();

}  // namespace perfgate::scaling
