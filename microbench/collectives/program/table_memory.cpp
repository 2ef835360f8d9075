#include "table_memory.hpp"

#include <algorithm>

#include "perfgate/collectives/communicator.hpp"

namespace perfgate::collectives {

TableMemory::TableMemory(const Backend& backend)
    : backend_(backend),
      in_use_at_start_(backend.memory_in_use()),
      buffers_at_start_(backend.buffer_memory()),
      buffers_peak_(buffers_at_start_) {}

void TableMemory::after_case() {
  buffers_peak_ = std::max(buffers_peak_, backend_.buffer_memory());
}

MemoryReport TableMemory::report(const Communicator& comm) const {
  const std::int64_t buffers_now = backend_.buffer_memory();
  const std::int64_t grown = backend_.memory_in_use() - in_use_at_start_;
  const MemoryReport mine{backend_.setup_memory(), std::max(buffers_peak_, buffers_now),
                          grown - (buffers_now - buffers_at_start_)};
  // Byte counts stay exact in a double far beyond any device's memory (2^53 B).
  const auto largest = [&](std::int64_t v) {
    return static_cast<std::int64_t>(comm.max(static_cast<double>(v)));
  };
  return {largest(mine.initialization), largest(mine.user_allocated), largest(mine.collective)};
}

}  // namespace perfgate::collectives
