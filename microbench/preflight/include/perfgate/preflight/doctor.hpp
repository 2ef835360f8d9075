#pragma once
// Preflight checks (`perfgate doctor`): what on this machine makes numbers untrustworthy —
// a busy or throttled GPU, ECC errors, a power-saving CPU governor, a debug build, a loaded
// machine, a full disk, a store on a network file system. Checks never throw for a missing
// source of information (no GPU, no cpufreq): they report it as an info finding.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "perfgate/core/fingerprint.hpp"
#include "perfgate/core/model.hpp"
#include "perfgate/core/visible_devices.hpp"

namespace perfgate::preflight {

enum class Level { info, warning, error };
std::string_view to_string(Level level);

struct Finding {
  std::string check;  // e.g. "gpu.processes", "cpu.governor", "store.filesystem"
  Level level = Level::info;
  std::string message;
  bool operator==(const Finding&) const = default;
};

struct DoctorOptions {
  // The store whose folder is checked for free space and a network file system; none: skipped.
  std::optional<std::filesystem::path> store;
  // /proc and /sys are read below this folder (a captured machine, or a test fixture).
  std::filesystem::path sysroot = "/";
  // nvidia-smi program (name on PATH or a path); absent: "no GPU found" (info).
  std::string nvidia_smi = "nvidia-smi";
  // The GPUs this process may use, as CUDA_VISIBLE_DEVICES lists them (indices or UUIDs);
  // empty: every GPU. Only these are checked: another job's GPU says nothing of this run.
  std::string cuda_visible_devices = visible_devices_from_environment();
  BuildInfo build = this_build();
  unsigned cpu_count = 0;                         // 0: the online CPUs of this machine
  std::uint64_t warn_free_bytes = 2ull << 30;     // below: warning
  std::uint64_t error_free_bytes = 256ull << 20;  // below: error
};

// Each check returns its findings; run_doctor runs them all, in a fixed order.
std::vector<Finding> check_build(const BuildInfo& build);
std::vector<Finding> check_cpu_governor(const std::filesystem::path& sysroot);
std::vector<Finding> check_load(const std::filesystem::path& sysroot, unsigned cpu_count);
// The GPUs named by `visible_devices` (every GPU when it is empty, or when an entry names none
// that nvidia-smi lists, e.g. a MIG instance), and the processes on them.
std::vector<Finding> check_gpu(const std::string& nvidia_smi,
                               const std::string& visible_devices = "");
std::vector<Finding> check_store_location(const std::filesystem::path& store,
                                          std::uint64_t warn_free_bytes,
                                          std::uint64_t error_free_bytes);
std::vector<Finding> run_doctor(const DoctorOptions& options);

// The name of a network/cluster file system for a statfs f_type ("NFS", "Lustre", …); nullopt
// for a local one. SQLite's locking is unreliable on these: perfgate never writes a store there.
std::optional<std::string> network_filesystem_name(std::uint64_t statfs_type);
// Throws ToolError naming the path and the file system when `store` lies on a network file
// system; for the store's writers to call before opening it read-write.
void require_local_store(const std::filesystem::path& store);

Level worst_level(const std::vector<Finding>& findings);             // info when empty
nlohmann::json to_json(const std::vector<Finding>& findings);        // [{check, level, message}]
std::vector<Finding> findings_from_json(const nlohmann::json& doc);  // throws InputError

// Runs the checks (store location included when options.store is set) and records them in
// run.metadata["doctor"], so a report can say under which conditions the numbers were taken.
void record_doctor_findings(Run& run, const DoctorOptions& options = {});

}  // namespace perfgate::preflight
