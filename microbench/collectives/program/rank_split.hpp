#pragma once
// nccl-tests' NCCL_TESTS_SPLIT and NCCL_TESTS_SPLIT_MASK: the ranks each rank's operations run
// with. Times, checks and stragglers still count every rank of the job.
#include <memory>
#include <optional>

#include "perfgate/collectives/communicator.hpp"
#include "perfgate/collectives/split_rule.hpp"

namespace perfgate::collectives {

struct RankSplit {
  std::optional<SplitRule> rule;        // as rank 0's environment sets it
  int groups = 1;                       // how many groups the rule makes of the job's ranks
  std::unique_ptr<Communicator> group;  // this rank's group; null when there is one group
};

// Collective: rank 0's split, agreed by every rank (a launcher may pass the variables to some
// ranks only), its groups checked to be of one size, and this rank's group's communicator. A
// malformed split is an InputError on every rank, before any communicator is made.
RankSplit split_ranks(const Communicator& world);

}  // namespace perfgate::collectives
