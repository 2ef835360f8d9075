#pragma once
// The CPUs a measuring process may run on, recorded with each of its results: a case pinned by
// `perfgate run --wrap 'taskset -c 2'`, by numactl or by Slurm's CPU binding says where it ran.
#include <string>
#include <vector>

namespace perfgate::microbench {

// This process's affinity mask (sched_getaffinity) as a CPU list; empty if it cannot be read.
std::string allowed_cpus();

// CPU numbers as Linux writes a CPU list (cpusets, /sys/devices/system/cpu/online): each run
// of consecutive CPUs as "a-b", e.g. {0,1,2,5,7,8} → "0-2,5,7-8". `cpus` must be ascending.
std::string cpu_list(const std::vector<int>& cpus);

}  // namespace perfgate::microbench
