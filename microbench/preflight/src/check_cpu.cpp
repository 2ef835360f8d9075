#include <fmt/format.h>

#include <fstream>
#include <map>
#include <thread>

#include "perfgate/preflight/doctor.hpp"

namespace perfgate::preflight {

namespace fs = std::filesystem;

std::vector<Finding> check_cpu_governor(const fs::path& sysroot) {
  const fs::path cpus = sysroot / "sys/devices/system/cpu";
  std::map<std::string, int> governors;  // governor → CPUs using it
  int total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(cpus, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() < 4 || name.rfind("cpu", 0) != 0 ||
        name.find_first_not_of("0123456789", 3) != std::string::npos)
      continue;
    std::ifstream in(it->path() / "cpufreq/scaling_governor");
    std::string governor;
    if (!(in >> governor)) continue;
    ++governors[governor];
    ++total;
  }
  if (total == 0)
    return {{"cpu.governor", Level::info,
             "no CPU frequency governor exposed (virtual machine or container)"}};
  std::vector<Finding> out;
  for (const auto& [governor, count] : governors) {
    if (governor == "performance") continue;
    out.push_back({"cpu.governor", Level::warning,
                   fmt::format("{} of {} CPUs use the '{}' frequency governor, not 'performance': "
                               "clock ramps add noise",
                               count, total, governor)});
  }
  if (out.empty())
    out.push_back({"cpu.governor", Level::info,
                   fmt::format("all {} CPUs use the 'performance' governor", total)});
  return out;
}

std::vector<Finding> check_load(const fs::path& sysroot, unsigned cpu_count) {
  if (cpu_count == 0) cpu_count = std::max(1u, std::thread::hardware_concurrency());
  std::ifstream in(sysroot / "proc/loadavg");
  double load1 = 0;
  if (!(in >> load1))
    return {{"cpu.load", Level::info, "load average unknown (no readable /proc/loadavg)"}};
  // Half the cores busy elsewhere already perturbs host-side timing and launch latency.
  const double limit = std::max(1.0, 0.5 * cpu_count);
  if (load1 >= limit)
    return {{"cpu.load", Level::warning,
             fmt::format("load average {:.2f} on {} CPUs: other work competes with the benchmarks",
                         load1, cpu_count)}};
  return {
      {"cpu.load", Level::info, fmt::format("load average {:.2f} on {} CPUs", load1, cpu_count)}};
}

}  // namespace perfgate::preflight
