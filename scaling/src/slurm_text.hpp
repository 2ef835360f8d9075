#pragma once
// Reading what Slurm's tools print, and writing what a batch script needs (internal).
#include <map>
#include <string>
#include <vector>

namespace perfgate::scaling::detail {

// The --mpi plugin to use: pmix when `srun --mpi=list` offers it, else pmi2, else none.
std::string choose_mpi_plugin(const std::string& mpi_list_output);

// From `srun -v` output: "launching StepId=7.0 on host n1, 2 tasks: 0-1" -> {0:n1, 1:n1}.
// Ranks from 0 to `ranks` - 1 only; malformed ranges are passed over.
std::map<int, std::string> rank_hosts_from_srun_log(const std::string& log, int ranks);
// The first "StepId=..." and the "nodes(2):`n[1-2]'" node list srun -v prints.
std::string step_id_from_srun_log(const std::string& log);
std::string nodelist_from_srun_log(const std::string& log);

// `scontrol show job -o ID` output -> field value ("" when absent), e.g. field "NodeList".
std::string scontrol_field(const std::string& line, const std::string& field);

// Single-quotes `arg` for a POSIX shell (batch scripts are shell text by nature).
std::string shell_quote(const std::string& arg);

}  // namespace perfgate::scaling::detail
