#include "nccl_tests_ranks.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgate/core/bounded_regex.hpp"

namespace perfgate::baselines {

namespace {

// A number of the log as printed, less its leading zeros ("007" and "7" are one rank).
std::string without_leading_zeros(const std::string& digits) {
  const auto first = digits.find_first_not_of('0');
  return first == std::string::npos ? "0" : digits.substr(first);
}

// Two listings of the same ranks: each rank's group, host and device model alike, in order.
bool same_ranks(const std::vector<RankLine>& a, const std::vector<RankLine>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const RankLine& x, const RankLine& y) {
                      return std::tie(x.rank, x.group, x.host, x.model, x.gpu) ==
                             std::tie(y.rank, y.group, y.host, y.model, y.gpu);
                    });
}

// "8 ranks on dgx-a01 (NVIDIA H100 80GB HBM3)", for messages.
std::string describe_ranks(const std::vector<RankLine>& ranks) {
  std::set<std::string> hosts, models;
  for (const RankLine& r : ranks) {
    hosts.insert(r.host);
    models.insert(r.model);
  }
  return fmt::format("{} {} on {} ({})", ranks.size(), ranks.size() == 1 ? "rank" : "ranks",
                     fmt::join(hosts, ", "), fmt::join(models, ", "));
}

// How NCCL_TESTS_SPLIT or NCCL_TESTS_SPLIT_MASK split `ranks` (Split, in the header).
Split split_of(const std::vector<RankLine>& ranks) {
  Split split;
  if (ranks.empty()) return split;
  std::map<std::string, std::size_t> sizes;
  for (const RankLine& r : ranks) ++sizes[r.group];
  const auto zero =
      std::find_if(ranks.begin(), ranks.end(), [](const RankLine& r) { return r.rank == "0"; });
  const std::string& reference = (zero != ranks.end() ? *zero : ranks.front()).group;
  split.groups = sizes.size();
  split.group_ranks = sizes.at(reference);
  split.unequal = std::any_of(sizes.begin(), sizes.end(),
                              [&](const auto& s) { return s.second != split.group_ranks; });
  return split;
}

}  // namespace

const char* const kSeparateTestsHint =
    "the processes each ran the test alone, as a one-rank job of its own (what an nccl-tests "
    "binary built without MPI=1 does under mpirun or srun); rebuild nccl-tests with MPI=1, or "
    "ingest one process's output";

std::optional<RankLine> read_rank_line(const std::string& line, std::size_t line_no) {
  static const std::regex rank_re(
      R"(^#\s*Rank\s+(\d+)\s+(?:Group\s+(\d+)\s+)?Pid\s+(\d+)\s+on\s+(\S+)\s+device\s+(\d+)\s+\[([^\]]*)\]\s+(.*?)\s*$)");
  std::smatch m;
  if (!bounded_regex_match(line, m, rank_re)) return std::nullopt;
  return RankLine{without_leading_zeros(m[1]),
                  m[2].matched ? without_leading_zeros(m[2]) : std::string(),
                  m[4],
                  m[7],
                  m[6] != "cpu",
                  line_no};
}

Placement placement_of(const std::vector<RankLine>& ranks) {
  Placement placement;
  if (ranks.empty()) return placement;
  std::map<std::string, int> models;
  std::set<std::string> hosts;
  for (const RankLine& r : ranks) {
    ++models[r.model];
    hosts.insert(r.host);
    placement.on_gpus = placement.on_gpus || r.gpu;
  }
  placement.model =
      std::max_element(models.begin(), models.end(), [](const auto& a, const auto& b) {
        return a.second < b.second;
      })->first;
  placement.ranks = static_cast<int>(ranks.size());
  placement.nodes = static_cast<int>(hosts.size());
  placement.gpus_per_node = placement.on_gpus ? placement.ranks / placement.nodes : 0;
  placement.hosts = fmt::format("{}", fmt::join(hosts, ","));
  return placement;
}

std::optional<std::string> RankListings::add(RankLine rank) {
  if (closed_) {
    listing_.clear();
    closed_ = false;
  }
  const auto same = std::find_if(listing_.begin(), listing_.end(),
                                 [&](const RankLine& r) { return r.rank == rank.rank; });
  if (same != listing_.end())
    return "rank " + rank.rank + " is listed twice (first at line " + std::to_string(same->line) +
           "): " + kSeparateTestsHint;
  listing_.push_back(std::move(rank));
  return std::nullopt;
}

void RankListings::start_run() {
  if (!closed_) listing_.clear();
}

std::optional<std::string> RankListings::close() {
  if (closed_) return std::nullopt;
  closed_ = true;
  if (ranks_.empty()) {
    ranks_ = listing_;
    split_ = split_of(ranks_);
    return std::nullopt;
  }
  if (same_ranks(ranks_, listing_)) return std::nullopt;
  return "this run lists " + describe_ranks(listing_) + ", the log's first run " +
         describe_ranks(ranks_) +
         ": a log ingests as one run on one set of ranks; split it per run";
}

}  // namespace perfgate::baselines
