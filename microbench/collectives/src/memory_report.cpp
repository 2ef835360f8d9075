#include "perfgate/collectives/memory_report.hpp"

#include <cmath>

#include <fmt/format.h>

namespace perfgate::collectives {

std::string memory_amount(std::int64_t bytes) {
  double amount = static_cast<double>(bytes);
  const char* unit = "B";
  for (const char* bigger : {"KB", "MB", "GB"}) {
    // nccl-tests stops at GB: a larger amount shows as thousands of GB.
    if (std::fabs(amount) < 1024.0) break;
    amount /= 1024.0;
    unit = bigger;
  }
  const int decimals = std::fabs(amount) < 10.0 ? 2 : std::fabs(amount) < 100.0 ? 1 : 0;
  return fmt::format("{:.{}f} {}", amount, decimals, unit);
}

std::string format_memory_line(std::string_view device, const MemoryReport& report) {
  // The two blanks before the total are nccl-tests'.
  const std::string parts =
      fmt::format("Initialization {} | User-Allocated {} | Collective {} | Total  {}",
                  memory_amount(report.initialization), memory_amount(report.user_allocated),
                  memory_amount(report.collective), memory_amount(report.total()));
  return fmt::format("# {:<20} : {}\n", fmt::format("{} memory usage", device), parts);
}

}  // namespace perfgate::collectives
