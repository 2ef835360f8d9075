// nccl-tests' -M 1 line: its amounts in nccl-tests' units and precision, and its layout.
#include <catch2/catch.hpp>

#include "perfgate/collectives/memory_report.hpp"

using namespace perfgate::collectives;

TEST_CASE("memory amounts print in nccl-tests' binary units with 2, 1 or 0 decimals") {
  CHECK(memory_amount(0) == "0.00 B");
  CHECK(memory_amount(5) == "5.00 B");
  CHECK(memory_amount(1023) == "1023 B");
  CHECK(memory_amount(1024) == "1.00 KB");
  CHECK(memory_amount(10752) == "10.5 KB");
  CHECK(memory_amount(std::int64_t{520} << 20) == "520 MB");
  CHECK(memory_amount(std::int64_t{3} << 29) == "1.50 GB");
  CHECK(memory_amount(std::int64_t{141} << 30) == "141 GB");
  CHECK(memory_amount(std::int64_t{2048} << 30) == "2048 GB");   // no unit above GB
  CHECK(memory_amount(-(std::int64_t{2} << 20)) == "-2.00 MB");  // memory given back
}

TEST_CASE("the memory line names its three parts and their total as nccl-tests prints them") {
  const MemoryReport report{std::int64_t{1} << 30, std::int64_t{512} << 20, std::int64_t{10} << 20};
  CHECK(report.total() == (std::int64_t{1546} << 20));
  CHECK(format_memory_line("GPU", report) ==
        "# GPU memory usage     : Initialization 1.00 GB | User-Allocated 512 MB | Collective "
        "10.0 MB | Total  1.51 GB\n");
  CHECK(format_memory_line("Host", {}) ==
        "# Host memory usage    : Initialization 0.00 B | User-Allocated 0.00 B | Collective "
        "0.00 B | Total  0.00 B\n");
}
