#pragma once
// The collectives table (nccl-tests' shape): what each operation moves and how its time turns
// into algbw/busbw. The drivers and backends read this table; adding a collective starts here.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate::collectives {

enum class Collective {
  all_reduce,
  all_gather,
  reduce_scatter,
  broadcast,
  reduce,
  alltoall,
  sendrecv,
  gather,
  scatter
};

struct CollectiveInfo {
  std::string_view name;       // "all_reduce"
  std::string_view perf_name;  // nccl-tests program name, "all_reduce_perf"
  bool reduces;                // takes a reduction op
  bool has_root;               // broadcast, reduce, gather, scatter
  bool splits_by_ranks;        // the size is a total buffer split into one block per rank
};

const CollectiveInfo& info(Collective c);
const std::vector<Collective>& all_collectives();
// "all_reduce" (also "allreduce"); throws InputError naming the value.
Collective collective_from_string(std::string_view s);

// busbw / algbw as nccl-tests defines it for `ranks` ranks.
double busbw_factor(Collective c, int ranks);
// Bytes per second in GB/s (1e9) for `bytes` moved in `time_us`.
double algbw_gbps(std::size_t bytes, double time_us);

// Element counts of one rank's send and receive buffers for a table `count` (the size column /
// element size). `count` must already be a multiple of `ranks` when the collective splits.
struct BufferCounts {
  std::size_t send = 0, recv = 0;
};
BufferCounts buffer_counts(Collective c, std::size_t count, int ranks);
// Largest usable table count not above `count` (rounded down to a multiple of `ranks` when split).
std::size_t usable_count(Collective c, std::size_t count, int ranks);

}  // namespace perfgate::collectives
