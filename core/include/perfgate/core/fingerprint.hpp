#pragma once
// Collects the environment fingerprint of this machine and build (DESIGN.md §3).
#include <map>
#include <string>

#include "perfgate/core/model.hpp"

namespace perfgate {

// What the build knows about itself (filled in by the binary that measures).
struct BuildInfo {
  std::string compiler;    // e.g. "GNU 12.2.0"
  std::string cxx_flags;   // flags that affect generated code
  std::string build_type;  // Release, Debug, ...
};

BuildInfo this_build();  // the perfgate build's own compiler, flags and build type

// Host, CPU model and cores, compiler/flags/build type; GPU model/count/memory/driver/CUDA and
// library versions where nvidia-smi or the libraries are present; Slurm job and node data from
// the environment. Never fails: a key that cannot be read is left out.
Fingerprint collect_fingerprint(const BuildInfo& build);

// Adds GPU keys (gpu.*) from a map the CUDA backend reports, without touching the others.
void merge_keys(Fingerprint& fp, const std::map<std::string, std::string>& comparable,
                const std::map<std::string, std::string>& info);

// Reads repo/branch/commit/dirty from the git checkout at `dir` (empty fields outside a checkout).
CodeUnderTest read_code_under_test(const std::string& dir);

}  // namespace perfgate
