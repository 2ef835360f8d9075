// What one rank may allocate: the node's available memory read from /proc/meminfo, divided among
// the ranks that share it and bounded by --max-memory, and the message a case too big gets.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "perfgate/collectives/node_memory.hpp"
#include "perfgate/collectives/page_aligned.hpp"

using namespace perfgate::collectives;

TEST_CASE("the node's available memory is MemAvailable of /proc/meminfo") {
  const auto file = std::filesystem::temp_directory_path() / "perfgate-meminfo-test";
  std::ofstream(file) << "MemTotal:       24576000 kB\nMemFree:         1000 kB\n"
                         "MemAvailable:   20000000 kB\nBuffers:            0 kB\n";
  CHECK(available_memory_bytes(file) == std::size_t(20000000) * 1024);
  std::ofstream(file) << "MemTotal:       24576000 kB\n";  // a kernel before 3.14
  CHECK_FALSE(available_memory_bytes(file));
  std::filesystem::remove(file);
  CHECK_FALSE(available_memory_bytes(file));
  CHECK(available_memory_bytes().value_or(0) > 0);  // this machine's
}

TEST_CASE("the process's resident memory is statm's second field, in pages") {
  const auto file = std::filesystem::temp_directory_path() / "perfgate-statm-test";
  std::ofstream(file) << "123456 2500 300 40 0 5000 0\n";
  CHECK(resident_memory_bytes(file) == std::int64_t{2500} * ::sysconf(_SC_PAGESIZE));
  std::ofstream(file) << "123456\n";
  CHECK_FALSE(resident_memory_bytes(file));
  std::filesystem::remove(file);
  CHECK_FALSE(resident_memory_bytes(file));
  CHECK(resident_memory_bytes().value_or(0) > 0);  // this process's
}

TEST_CASE("a page-aligned buffer is resident while it lives and given back when freed") {
  // What -M's host report rests on: the buffers' pages count once written, and not after.
  constexpr std::int64_t bytes = std::int64_t{64} << 20;
  // Beside the pages: the allocator's and Catch's own, and under AddressSanitizer the buffer's
  // shadow (an eighth of it), which the sanitizer keeps after the pages are unmapped.
#ifdef __SANITIZE_ADDRESS__
  constexpr std::int64_t slack = (std::int64_t{4} << 20) + bytes / 8;
#else
  constexpr std::int64_t slack = std::int64_t{4} << 20;
#endif
  const std::int64_t before = resident_memory_bytes().value();
  std::int64_t with_buffer = 0;
  {
    PageAlignedVector<std::byte> buffer(std::size_t(bytes), std::byte{1});
    with_buffer = resident_memory_bytes().value();
  }
  const std::int64_t after = resident_memory_bytes().value();
  CHECK(with_buffer - before >= bytes);
  CHECK(with_buffer - before < bytes + slack);
  CHECK(after - before < slack);
}

TEST_CASE("byte counts print in the largest unit that keeps them at 1 or more") {
  CHECK(bytes_text(0) == "0 B");
  CHECK(bytes_text(1023) == "1023 B");
  CHECK(bytes_text(1536) == "1.5 KiB");
  CHECK(bytes_text(64.0 * (1 << 20)) == "64.0 MiB");
  CHECK(bytes_text(0x1p40 * 3) == "3.0 TiB");
  CHECK(bytes_text(0x1p50) == "1024.0 TiB");
}

TEST_CASE("a rank's share: 90 % of what is available over the ranks sharing it, or the limit") {
  const double gib = 0x1p30;
  const MemoryShare host{"host memory", 20 * gib, 2, {}};
  CHECK(host.bytes() == 0.9 * 20 * gib / 2);
  CHECK(host.describe() ==
        "9.0 GiB (90 % of 20.0 GiB of host memory available, shared by 2 ranks)");
  MemoryShare limited = host;
  limited.limit = 1 << 20;
  CHECK(limited.bytes() == 1 << 20);
  CHECK(limited.describe() == "1.0 MiB (--max-memory)");
  limited.limit = 100 * gib;  // a limit above the share does not raise it
  CHECK(limited.bytes() == host.bytes());
  CHECK(limited.describe() == host.describe());
  const MemoryShare unknown{"host memory", std::nullopt, 1, {}};
  CHECK(std::isinf(unknown.bytes()));  // no MemAvailable and no limit: not judged

  CHECK_FALSE(memory_shortfall(9 * gib, host));
  CHECK(memory_shortfall(9 * gib + 1, host) ==
        "needs 9.0 GiB for its buffers, more than 9.0 GiB (90 % of 20.0 GiB of host memory "
        "available, shared by 2 ranks)");
  CHECK_FALSE(memory_shortfall(1e30, unknown));
  CHECK(memory_shortfall(2e6, {"GPU 3 memory", 80 * gib, 1, 1e6}) ==
        "needs 1.9 MiB for its buffers, more than 976.6 KiB (--max-memory)");
}
