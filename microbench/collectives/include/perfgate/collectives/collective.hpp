#pragma once
// The collectives table (nccl-tests' shape): what each operation moves and how its time turns
// into algbw/busbw. The drivers and backends read this table; adding a collective starts here.
#include <cstddef>
#include <optional>
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
  scatter,
  hypercube  // nccl-tests' hypercube_perf: an all_gather by recursive doubling over send/receive
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
// The share of the table's size column that algbw counts for `c` over `ranks` ranks: 1, but for
// hypercube the blocks a rank receives, (n−1)/n (nccl-tests' algbw for each).
double algbw_share(Collective c, int ranks);
// Why `c` cannot run on `ranks` ranks, nullopt when it can: hypercube needs a power of two.
std::optional<std::string> rank_count_refusal(Collective c, int ranks);
// One exchange of hypercube's recursive doubling (nccl-tests' hypercube_perf) for one rank: it
// sends `blocks` blocks of its output from block `sent` to `peer` and receives as many from
// `peer` into block `received`.
struct HypercubeStep {
  int peer = 0;
  std::size_t sent = 0, received = 0, blocks = 0;
};
// Rank `rank`'s exchanges, in order, over `ranks` ranks (a power of two): across dimension
// mask = 1, 2, 4, ... with rank ^ mask, the mask blocks gathered so far for the mask blocks
// the peer holds; after the last, every block.
std::vector<HypercubeStep> hypercube_steps(int rank, int ranks);

// In place, the operation's input is this rank's block of its output (all_gather, gather,
// hypercube): where the in-place input is written and read.
bool input_is_own_output_block(Collective c);

// Element counts of one rank's send and receive buffers for a table `count` (the size column /
// element size). `count` must already be a multiple of `ranks` when the collective splits.
struct BufferCounts {
  std::size_t send = 0, recv = 0;
};
BufferCounts buffer_counts(Collective c, std::size_t count, int ranks);
// Largest usable table count not above `count` (rounded down to a multiple of `ranks` when split).
std::size_t usable_count(Collective c, std::size_t count, int ranks);

}  // namespace perfgate::collectives
