#pragma once
// nccl-tests' rank split: NCCL_TESTS_SPLIT_MASK or NCCL_TESTS_SPLIT divide the job's ranks into
// groups that each run the sweep's operations on a communicator of their own, all groups at
// once, e.g. "MOD 8" on nodes of 8 GPUs: one group per GPU index, each crossing the nodes over
// the network only. Each rank's group (its colour) follows from its rank alone.
#include <map>
#include <optional>
#include <string>

#include "perfgate/collectives/launch_env.hpp"

namespace perfgate::collectives {

struct SplitRule {
  enum class Op { bit_and, bit_or, mod, div };
  Op op = Op::bit_and;
  int value = 0;
  std::string setting;  // as set, "NCCL_TESTS_SPLIT=MOD 8", for messages and the document
  int color(int rank) const;
};

// nccl-tests' reading: NCCL_TESTS_SPLIT_MASK (hexadecimal, "0x" optional; colour = rank & mask)
// wins over NCCL_TESTS_SPLIT ("AND v", "OR v", "MOD v", "DIV v", or "&", "|", "%", "/" for the
// word, any case; v decimal, "0x" hexadecimal, "0b" binary, a leading 0 octal). nullopt when
// neither is set or the one read is empty. A value nccl-tests would misread (an unknown
// operation, trailing text, a number above 2^31 - 1, MOD or DIV by 0) is an InputError naming
// the variable; nccl-tests ran such a value unsplit or divided by zero.
std::optional<SplitRule> read_split_rule(const EnvLookup& env);

// How many of `ranks` ranks each colour holds.
std::map<int, int> group_sizes(const SplitRule& rule, int ranks);

// The one size of the groups; an InputError naming the setting when they differ (a table's bus
// bandwidth has one bus factor, of one group size).
int equal_group_size(const SplitRule& rule, int ranks);

}  // namespace perfgate::collectives
