#pragma once
// The nccl-tests stdout table, column for column as the newest nccl-tests print it, so that people
// and nccl-tests log parsers (perfgate's own `ingest --format nccl-tests` included) read it as
// they read nccl-tests.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/collectives/bitwise_check.hpp"
#include "perfgate/collectives/datatype.hpp"
#include "perfgate/collectives/iteration_stats.hpp"
#include "perfgate/collectives/size_sweep.hpp"

namespace perfgate::collectives {

struct RankDescription {
  int rank = 0;
  int pid = 0;
  std::string host;
  int device = 0;      // GPU index, or the local rank on CPU
  std::string bus_id;  // "0000:04:00", or "cpu"
  std::string name;    // device name
  int group = 0;       // NCCL_TESTS_SPLIT's colour of the rank (0 unsplit)
};

struct TableHeader {
  std::string program;  // "all_reduce_perf"
  std::size_t min_bytes = 0, max_bytes = 0;
  SizeSteps steps;
  int warmup_iters = 0, iters = 0, agg_iters = 1;
  int check = 1;     // checked operations per case (0: none)
  int blocking = 0;  // -z 1, 2 or 3: printed as the newest nccl-tests print it
  int graph = 0;
  int unalign = 0;  // -u: printed at the end of the parameter line, as the newest nccl-tests
  // -R 1 or 2: a line of perfgate's own (nccl-tests prints none), which perfgate's reader maps
  // to the same fingerprint key as the run's document.
  int registration = 0;
  int cta_policy = -1;   // -x 0, 1 or 2: a line of perfgate's own too; -1: none
  bool cputime = false;  // -C: the time columns are headed "cputime", as nccl-tests heads them
  // -I 1: each placement adds i_min, i_max, i_p99 and i_cv%, after a "# Per-Iteration Report:"
  // line naming the clock ("CUDA event", "host clock").
  bool per_iteration = false;
  std::string iteration_timing;
  int per_iter_skip = 0;    // -K: the line ends "; summary skips first N iterations
  bool timestamps = false;  // -S 1: a last column, "timestamp"
  // --bitwise-repeats N: a "# Bitwise Repeatability:" line, and #bitdiff after each #wrong.
  int bitwise_repeats = 0;
  std::vector<RankDescription> ranks;
};

struct PlacementCells {
  double time_us = 0, algbw = 0, busbw = 0;
  std::optional<std::size_t> wrong;  // nullopt: not checked ("N/A")
  // --bitwise-repeats: how the repeats' outputs differed from the reference's (#bitdiff: its
  // bits; "N/A" where the output was not compared).
  std::optional<BitwiseDifference> bitwise{};
  bool measured = true;  // false: the cells are blank (nccl-tests' -O 0 out-of-place cells)
  std::optional<IterationTimes> iterations{};  // -I 1: the four per-iteration cells' source
};

struct TableRow {
  std::size_t bytes = 0, count = 0;
  DataType dtype = DataType::f32;
  std::string redop;  // "sum", or "none" for collectives that do not reduce
  int root = -1;
  PlacementCells out_of_place, in_place;
  std::string printed_at{};  // -S 1: "2026-12-03 14:05:09", the row's last cell
  // Timed iterations of each placement (fewer than the header's under -s): not printed; the
  // JSON's actual_iterations. 0: the header's.
  int iterations = 0;
};

// A number in `width` characters as the newest nccl-tests print their cells (getFloatStr): two
// decimals while they fit, then one, then none, then exponent form (1.2e+07). Times are 7 wide,
// bandwidths 6: a time has two decimals below 10 ms, one below 100 ms, none below 10 s.
std::string format_table_number(double value, int width);
std::string format_time_us(double us);
std::string format_table_header(const TableHeader& header);
// `per_iteration`: the header's (-I 1); a placement without its statistics prints zeros.
// `bitwise`: the header's (--bitwise-repeats), a #bitdiff cell after each #wrong.
std::string format_table_row(const TableRow& row, bool per_iteration = false, bool bitwise = false);
// "# Out of bounds values : N OK|FAILED", "# Avg bus bandwidth    : X", "# Collective test
// concluded: ..."; the average followed by OK or FAILED under a floor (NCCL_TESTS_MIN_BW), and
// with `bitwise_mismatches` (--bitwise-repeats) "# Bitwise mismatches   : N OK|FAILED" before it.
std::string format_table_footer(std::size_t wrong_total, double avg_busbw, std::string_view program,
                                std::optional<double> min_busbw = std::nullopt,
                                std::optional<std::size_t> bitwise_mismatches = std::nullopt);

}  // namespace perfgate::collectives
