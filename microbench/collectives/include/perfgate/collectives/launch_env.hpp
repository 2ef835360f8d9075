#pragma once
// Where this process sits in the job, from the launcher's environment (OpenMPI mpirun,
// Slurm srun, PMIx), so one GPU per rank can be chosen before any communicator exists.
#include <functional>
#include <optional>
#include <string>

namespace perfgate::collectives {

struct LaunchPlace {
  std::optional<int> local_rank;  // rank within the node
  std::optional<int> node;        // node index within the job
  std::string launcher;           // "openmpi", "slurm", "pmix" or "" when none was recognised
};

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
EnvLookup process_environment();

// Reads OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID / SLURM_NODEID, PMIX_LOCAL_RANK (in that
// order of preference for the local rank); values that are not integers are ignored.
LaunchPlace read_launch_place(const EnvLookup& env);

// The CUDA device this rank runs on (NCCL backend), of the `devices` it sees: nccl-tests'
// NCCL_TESTS_DEVICE when set (the first device of a process, for launchers that start each rank
// with its own device list or on a GPU the rank order does not give), else the local rank's,
// wrapping over the devices. A value that is no whole number from 0, or names a device the rank
// does not see, is an InputError naming the variable.
int rank_device(const EnvLookup& env, int local_rank, int devices);

}  // namespace perfgate::collectives
