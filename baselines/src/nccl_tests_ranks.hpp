#pragma once
// The ranks an nccl-tests log lists ("#  Rank  0 Group  0 Pid 1234 on dgx-a01 device  0 [0x1b]
// NVIDIA H100 80GB HBM3"): each run's listing, the check that every run of one log ran on the
// same ranks, and what the ranks say about the run (its split into groups, nodes, GPUs).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace perfgate::baselines {

struct RankLine {
  std::string rank;   // its world rank, as printed without leading zeros
  std::string group;  // its group (the split's color), as rank; empty in logs without the column
  std::string host, model;
  bool gpu;  // perfgate-collectives' MPI backend prints "[cpu]" where nccl-tests prints a bus id
  std::size_t line;  // where the log lists it
};

// `line` as a rank line (line number `line_no`); none when it is no rank line.
std::optional<RankLine> read_rank_line(const std::string& line, std::size_t line_no);

// Why a log can hold two tables, or two rank 0s, of one test, and what to do about it.
extern const char* const kSeparateTestsHint;

// How NCCL_TESTS_SPLIT or NCCL_TESTS_SPLIT_MASK split the ranks into groups, each running its
// own communicator: the number of groups, and the ranks of rank 0's group (the first rank
// line's when none is rank 0's), the n of nccl-tests' bus factors. Logs without the Group
// column are one group of every rank.
struct Split {
  std::size_t groups = 0;
  std::size_t group_ranks = 0;
  bool unequal = false;  // groups of different sizes (nccl-tests allows them)
};

// Where the ranks ran: what the run's fingerprint and scale take from them.
struct Placement {
  bool on_gpus = false;
  std::string model;  // the device model most ranks report
  int ranks = 0, nodes = 0;
  int gpus_per_node = 0;  // 0 on CPU-only runs, as in every perfgate run (core/model.hpp, Scale)
  std::string hosts;      // comma-separated, sorted
};
Placement placement_of(const std::vector<RankLine>& ranks);

// A run lists its ranks before its table. A log may hold several runs (perfgate-collectives
// --collective all, a script running nccl-tests binaries one after another); each must list the
// same ranks, and the log's results are of those ranks. Each step returns the problem that
// refuses the log, if any.
class RankListings {
 public:
  // One rank line of the run being read.
  std::optional<std::string> add(RankLine rank);
  // A run's first lines: the listing of a run that ended before its table (its start failed)
  // is not this run's.
  void start_run();
  // The run's table header: its listing is complete, and must match the log's first.
  std::optional<std::string> close();
  // The first run's listing: the ranks of the log's results.
  const std::vector<RankLine>& ranks() const { return ranks_; }
  // How those ranks split into groups, read once when their listing closed.
  const Split& split() const { return split_; }

 private:
  std::vector<RankLine> ranks_;
  Split split_;
  std::vector<RankLine> listing_;  // the listing being read
  bool closed_ = false;            // a table header came after the last rank line
};

}  // namespace perfgate::baselines
