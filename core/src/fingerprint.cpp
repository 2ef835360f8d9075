#include "perfgate/core/fingerprint.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "perfgate/core/csv_rows.hpp"
#include "perfgate/core/process.hpp"
#include "perfgate/core/visible_devices.hpp"

#ifndef PERFGATE_COMPILER
#define PERFGATE_COMPILER "unknown"
#endif
#ifndef PERFGATE_CXX_FLAGS
#define PERFGATE_CXX_FLAGS ""
#endif
#ifndef PERFGATE_BUILD_TYPE
#define PERFGATE_BUILD_TYPE "unknown"
#endif

namespace perfgate {

BuildInfo this_build() {
  return {PERFGATE_COMPILER, PERFGATE_CXX_FLAGS, PERFGATE_BUILD_TYPE};
}

namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with("model name")) return trim_blanks(line.substr(line.find(':') + 1));
  return {};
}

void put_env(std::map<std::string, std::string>& into, const char* var, const std::string& key) {
  if (const char* v = std::getenv(var); v && *v) into[key] = v;
}

// The query's columns: which GPU a line is (index, uuid, PCI bus), then what it is.
constexpr const char* kGpuQuery =
    "--query-gpu=index,uuid,pci.bus_id,name,memory.total,driver_version,mig.mode.current,"
    "ecc.mode.current";

void add_gpu_keys(Fingerprint& fp) {
  if (!find_program("nvidia-smi")) return;
  ProcessOptions opts;
  opts.timeout = std::chrono::seconds(20);
  ProcessResult r;
  try {
    r = run_process({"nvidia-smi", kGpuQuery, "--format=csv,noheader"}, opts);
  } catch (...) {
    return;
  }
  if (!r.ok()) return;
  const Fingerprint gpu = gpu_fingerprint(r.out, visible_devices_from_environment());
  merge_keys(fp, gpu.comparable, gpu.info);
}

}  // namespace

void merge_keys(Fingerprint& fp, const std::map<std::string, std::string>& comparable,
                const std::map<std::string, std::string>& info) {
  for (const auto& [k, v] : comparable) fp.comparable[k] = v;
  for (const auto& [k, v] : info) fp.info[k] = v;
}

Fingerprint gpu_fingerprint(const std::string& csv, const std::string& visible_devices) {
  std::vector<std::vector<std::string>> gpus;
  for (auto& row : csv_rows(csv))
    if (row.size() >= 8) gpus.push_back(std::move(row));
  Fingerprint fp;
  if (gpus.empty()) return fp;
  // CUDA's device 0 is the first entry of CUDA_VISIBLE_DEVICES; an entry nvidia-smi does not
  // list (a MIG instance) leaves the first GPU.
  const auto entries = visible_device_entries(visible_devices);
  const auto& chosen = [&]() -> const std::vector<std::string>& {
    if (!entries.empty())
      for (const auto& g : gpus)
        if (entry_names_gpu(entries.front(), g[0], g[1])) return g;
    return gpus.front();
  }();
  fp.comparable["gpu.model"] = chosen[3];
  fp.comparable["gpu.memory"] = chosen[4];
  fp.comparable["gpu.driver"] = chosen[5];
  fp.comparable["gpu.mig"] = chosen[6];
  fp.comparable["gpu.ecc"] = chosen[7];
  fp.comparable["gpu.count"] = std::to_string(gpus.size());
  fp.info["gpu.index"] = chosen[0];
  fp.info["gpu.uuid"] = chosen[1];
  fp.info["gpu.pci_bus_id"] = chosen[2];
  if (!visible_devices.empty()) fp.info["gpu.visible_devices"] = visible_devices;
  return fp;
}

Fingerprint collect_fingerprint(const BuildInfo& build) {
  Fingerprint fp;
  fp.comparable["cpu.model"] = cpu_model();
  fp.comparable["cpu.cores"] = std::to_string(std::thread::hardware_concurrency());
  fp.comparable["build.compiler"] = build.compiler;
  fp.comparable["build.flags"] = build.cxx_flags;
  fp.comparable["build.type"] = build.build_type;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) fp.info["host"] = host;
  utsname u{};
  if (uname(&u) == 0) fp.info["kernel"] = std::string(u.sysname) + " " + u.release;
  add_gpu_keys(fp);
  put_env(fp.info, "SLURM_JOB_ID", "slurm.job_id");
  put_env(fp.info, "SLURM_JOB_NODELIST", "slurm.nodelist");
  put_env(fp.info, "SLURM_CLUSTER_NAME", "slurm.cluster");
  put_env(fp.info, "SLURM_JOB_PARTITION", "slurm.partition");
  put_env(fp.info, "SLURM_JOB_NUM_NODES", "slurm.nodes");
  return fp;
}

CodeUnderTest read_code_under_test(const std::string& dir) {
  CodeUnderTest code;
  if (!find_program("git")) return code;
  auto git = [&](std::vector<std::string> args) -> std::optional<std::string> {
    args.insert(args.begin(), {"git", "-C", dir.empty() ? "." : dir});
    ProcessOptions opts;
    opts.timeout = std::chrono::seconds(20);
    const auto r = run_process(args, opts);
    if (!r.ok()) return std::nullopt;
    return trim_blanks(r.out);
  };
  try {
    const auto top = git({"rev-parse", "--show-toplevel"});
    if (!top) return code;
    code.repo = git({"config", "--get", "remote.origin.url"}).value_or(*top);
    code.branch = git({"rev-parse", "--abbrev-ref", "HEAD"}).value_or("");
    code.commit = git({"rev-parse", "HEAD"}).value_or("");
    code.dirty = !git({"status", "--porcelain", "--untracked-files=no"}).value_or("").empty();
  } catch (...) {
    // git not usable here: leave the fields empty.
  }
  return code;
}

}  // namespace perfgate
