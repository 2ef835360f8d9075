#include "rank_split.hpp"

#include <cstdlib>
#include <map>
#include <string>

#include "perfgate/core/error.hpp"

namespace perfgate::collectives {

RankSplit split_ranks(const Communicator& world) {
  // Rank 0's values of the two variables, "=" before a set one's value so that unset and empty
  // differ.
  std::map<std::string, std::string> rank0;
  for (const char* variable : {"NCCL_TESTS_SPLIT_MASK", "NCCL_TESTS_SPLIT"}) {
    const char* value = std::getenv(variable);
    const std::string mine = value == nullptr ? "" : std::string("=") + value;
    const std::string first = world.all_gather(mine).front();
    if (!first.empty()) rank0[variable] = first.substr(1);
  }
  const EnvLookup env = [&rank0](const std::string& name) -> std::optional<std::string> {
    const auto it = rank0.find(name);
    if (it == rank0.end()) return std::nullopt;
    return it->second;
  };
  RankSplit split;
  split.rule = read_split_rule(env);  // the same values on every rank: refused on all together
  if (!split.rule) return split;
  split.groups = world.size() / equal_group_size(*split.rule, world.size());
  if (split.groups > 1) split.group = world.split(split.rule->color(world.rank()));
  return split;
}

}  // namespace perfgate::collectives
