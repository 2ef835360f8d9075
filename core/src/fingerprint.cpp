#include "perfgate/core/fingerprint.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "perfgate/core/process.hpp"

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

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  const auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with("model name")) return trim(line.substr(line.find(':') + 1));
  return {};
}

void put_env(std::map<std::string, std::string>& into, const char* var, const std::string& key) {
  if (const char* v = std::getenv(var); v && *v) into[key] = v;
}

// One line per GPU: "name, memory.total [MiB], driver_version".
void add_gpu_keys(Fingerprint& fp) {
  if (!find_program("nvidia-smi")) return;
  ProcessOptions opts;
  opts.timeout = std::chrono::seconds(20);
  ProcessResult r;
  try {
    r = run_process({"nvidia-smi",
                     "--query-gpu=name,memory.total,driver_version,mig.mode.current,"
                     "ecc.mode.current",
                     "--format=csv,noheader"},
                    opts);
  } catch (...) {
    return;
  }
  if (!r.ok()) return;
  std::istringstream lines(r.out);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    if (trim(line).empty()) continue;
    std::vector<std::string> f;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) f.push_back(trim(cell));
    if (count++ == 0 && f.size() >= 5) {
      fp.comparable["gpu.model"] = f[0];
      fp.comparable["gpu.memory"] = f[1];
      fp.comparable["gpu.driver"] = f[2];
      fp.comparable["gpu.mig"] = f[3];
      fp.comparable["gpu.ecc"] = f[4];
    }
  }
  if (count > 0) fp.comparable["gpu.count"] = std::to_string(count);
}

}  // namespace

void merge_keys(Fingerprint& fp, const std::map<std::string, std::string>& comparable,
                const std::map<std::string, std::string>& info) {
  for (const auto& [k, v] : comparable) fp.comparable[k] = v;
  for (const auto& [k, v] : info) fp.info[k] = v;
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
    return trim(r.out);
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
