#include <unistd.h>

#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgate/core/csv_rows.hpp"
#include "perfgate/core/process.hpp"
#include "perfgate/core/visible_devices.hpp"
#include "perfgate/preflight/doctor.hpp"

namespace perfgate::preflight {

namespace {

// Columns of the per-GPU query, in order.
constexpr const char* kGpuQuery =
    "--query-gpu=index,name,persistence_mode,mig.mode.current,ecc.mode.current,"
    "ecc.errors.uncorrected.volatile.total,clocks.sm,clocks.default_applications.graphics,"
    "clocks_throttle_reasons.active";
enum Column {
  kIndex,
  kName,
  kPersistence,
  kMig,
  kEcc,
  kEccErrors,
  kSmClock,
  kBaseClock,
  kReasons,
  kColumns
};

struct ThrottleReason {
  std::uint64_t bit;
  const char* name;
};
// NVML's clocks event reasons; idle (0x1) and the application-clock setting (0x2) are benign.
constexpr ThrottleReason kThrottleReasons[] = {{0x4, "software power cap"},
                                               {0x8, "hardware slowdown"},
                                               {0x10, "sync boost"},
                                               {0x20, "software thermal slowdown"},
                                               {0x40, "hardware thermal slowdown"},
                                               {0x80, "hardware power brake"},
                                               {0x100, "display clock setting"}};

// nvidia-smi prints "[N/A]", "N/A" or "[Not Supported]" for values a GPU does not report.
std::optional<std::uint64_t> number(const std::string& cell, int base = 10) {
  if (cell.empty() || cell.find_first_of("[N") == 0) return std::nullopt;
  try {
    std::size_t used = 0;
    const auto v = std::stoull(cell, &used, base);
    return used == cell.size() ? std::optional(v) : std::nullopt;
  } catch (...) {
    return std::nullopt;
  }
}

std::optional<ProcessResult> query(const std::string& nvidia_smi, std::vector<std::string> args) {
  args.insert(args.begin(), nvidia_smi);
  ProcessOptions opts;
  opts.timeout = std::chrono::seconds(30);
  try {
    return run_process(args, opts);
  } catch (...) {
    return std::nullopt;
  }
}

void check_one_gpu(const std::vector<std::string>& c, std::vector<Finding>& out) {
  const std::string gpu = fmt::format("GPU {} ({})", c[kIndex], c[kName]);
  if (c[kPersistence] == "Disabled")
    out.push_back({"gpu.persistence", Level::warning,
                   gpu + ": persistence mode is off: the driver re-initialises between processes "
                         "(nvidia-smi -pm 1)"});
  if (c[kMig] == "Enabled")
    out.push_back({"gpu.mig", Level::warning,
                   gpu + ": MIG is enabled: a benchmark sees one slice, not the whole GPU"});
  if (const auto errors = number(c[kEccErrors]); errors && *errors > 0)
    out.push_back(
        {"gpu.ecc", Level::error,
         fmt::format("{}: {} uncorrected ECC errors since the driver loaded", gpu, *errors)});
  else if (c[kEcc] == "Disabled")
    out.push_back({"gpu.ecc", Level::info, gpu + ": ECC is disabled"});
  const auto reasons = number(c[kReasons], 16);
  if (reasons) {
    std::string active;
    for (const auto& r : kThrottleReasons)
      if (*reasons & r.bit) active += (active.empty() ? "" : ", ") + std::string(r.name);
    if (!active.empty())
      out.push_back({"gpu.throttle", Level::warning, gpu + ": clocks throttled: " + active});
  }
  const bool idle = reasons && (*reasons & 0x1);
  const auto sm = number(c[kSmClock]);
  const auto base = number(c[kBaseClock]);
  if (!idle && sm && base && *sm < *base)
    out.push_back({"gpu.clocks", Level::warning,
                   fmt::format("{}: SM clock {} MHz is below its base {} MHz", gpu, *sm, *base)});
}

// Which GPUs a process restricted by CUDA_VISIBLE_DEVICES uses: their indices and UUIDs.
struct UsedGpus {
  bool all = true;  // no restriction, or one that could not be resolved
  std::set<std::string> indices, uuids;
  std::string note;  // why all GPUs are checked despite a restriction
};

UsedGpus used_gpus(const std::string& nvidia_smi, const std::string& visible_devices) {
  UsedGpus used;
  const auto entries = visible_device_entries(visible_devices);
  if (entries.empty()) return used;
  const auto r = query(nvidia_smi, {"--query-gpu=index,uuid", "--format=csv,noheader"});
  const auto gpus = r && r->ok() ? csv_rows(r->out) : std::vector<std::vector<std::string>>{};
  for (const auto& entry : entries) {
    bool found = false;
    for (const auto& g : gpus)
      if (g.size() == 2 && entry_names_gpu(entry, g[0], g[1])) {
        used.indices.insert(g[0]);
        used.uuids.insert(g[1]);
        found = true;
      }
    if (!found)
      return {.all = true,
              .indices = {},
              .uuids = {},
              .note = fmt::format(
                  "CUDA_VISIBLE_DEVICES={}: '{}' is no GPU nvidia-smi lists; every GPU is checked",
                  visible_devices, entry)};
  }
  used.all = false;
  return used;
}

void check_gpu_processes(const std::string& nvidia_smi, const UsedGpus& used,
                         std::vector<Finding>& out) {
  const auto r = query(nvidia_smi, {"--query-compute-apps=pid,process_name,used_memory,gpu_uuid",
                                    "--format=csv,noheader,nounits"});
  if (!r || !r->ok()) {
    out.push_back({"gpu.processes", Level::warning, "cannot list the processes using the GPUs"});
    return;
  }
  const std::string self = std::to_string(getpid());
  int others = 0;
  std::string names;
  for (const auto& row : csv_rows(r->out)) {
    if (row.empty() || row[0] == self) continue;
    // A process on a GPU this one does not use is another job's business (a row without its
    // GPU's UUID counts: it cannot be placed).
    if (!used.all && row.size() > 3 && used.uuids.count(row[3]) == 0) continue;
    ++others;
    if (others <= 5)
      names +=
          fmt::format("{}{} (pid {}{})", names.empty() ? "" : ", ", row.size() > 1 ? row[1] : "?",
                      row[0], row.size() > 2 ? ", " + row[2] + " MiB" : "");
  }
  if (others > 0)
    out.push_back({"gpu.processes", Level::warning,
                   fmt::format("{} other process(es) use the GPUs: {}", others, names)});
  else
    out.push_back({"gpu.processes", Level::info, "no other process uses the GPUs"});
}

}  // namespace

std::vector<Finding> check_gpu(const std::string& nvidia_smi, const std::string& visible_devices) {
  if (!find_program(nvidia_smi))
    return {{"gpu", Level::info, "no GPU found (" + nvidia_smi + " is not on PATH)"}};
  const auto r = query(nvidia_smi, {kGpuQuery, "--format=csv,noheader,nounits"});
  if (!r || !r->ok()) {
    const std::string why = r ? trim_blanks(r->out + r->err) : "could not be started";
    return {{"gpu", Level::warning,
             "nvidia-smi failed (" + (r ? r->describe() : std::string("not started")) +
                 "): " + why.substr(0, why.find('\n'))}};
  }
  std::vector<Finding> out;
  const auto rows = csv_rows(r->out);
  const UsedGpus used = used_gpus(nvidia_smi, visible_devices);
  std::vector<std::string> skipped;
  for (const auto& row : rows) {
    if (row.size() != kColumns) {
      out.push_back(
          {"gpu", Level::warning,
           "unexpected nvidia-smi output line: " + fmt::format("{}", fmt::join(row, ", "))});
      continue;
    }
    if (!used.all && used.indices.count(row[kIndex]) == 0) {
      skipped.push_back(row[kIndex]);
      continue;
    }
    check_one_gpu(row, out);
  }
  if (rows.empty()) return {{"gpu", Level::info, "no GPU found (nvidia-smi lists none)"}};
  out.insert(out.begin(), {"gpu", Level::info, fmt::format("{} GPU(s) found", rows.size())});
  if (!used.note.empty()) out.insert(out.begin() + 1, {"gpu", Level::info, used.note});
  if (!skipped.empty())
    out.insert(out.begin() + 1,
               {"gpu", Level::info,
                fmt::format("GPU(s) {} not checked: CUDA_VISIBLE_DEVICES={} leaves them out",
                            fmt::join(skipped, ", "), visible_devices)});
  check_gpu_processes(nvidia_smi, used, out);
  return out;
}

}  // namespace perfgate::preflight
