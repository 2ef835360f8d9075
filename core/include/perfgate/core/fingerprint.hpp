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

// The gpu.* keys from nvidia-smi's CSV lines (no header) for the columns index, uuid,
// pci.bus_id, name, memory.total, driver_version, mig.mode.current, ecc.mode.current, one line
// per GPU. Comparable: model, memory, driver, MIG and ECC modes of the GPU that CUDA's device 0
// is (the first entry of `visible_devices`, CUDA_VISIBLE_DEVICES, when it names a listed GPU by
// index or UUID; else the first line), and gpu.count, the GPUs listed. Info: that GPU's index,
// UUID and PCI bus id, and `visible_devices` when set. No GPU line: no keys.
Fingerprint gpu_fingerprint(const std::string& csv, const std::string& visible_devices);

// Adds GPU keys (gpu.*) from a map the CUDA backend reports, without touching the others.
void merge_keys(Fingerprint& fp, const std::map<std::string, std::string>& comparable,
                const std::map<std::string, std::string>& info);

// Reads repo/branch/commit/dirty from the git checkout at `dir` (empty fields outside a checkout).
CodeUnderTest read_code_under_test(const std::string& dir);

}  // namespace perfgate
