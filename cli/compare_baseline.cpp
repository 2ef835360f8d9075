#include "compare_baseline.hpp"

#include <algorithm>

#include "compare_persist.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::cli {

namespace {

std::optional<baselines::BaselinePolicy> named_policy(baselines::Store& store,
                                                      const std::string& selector) {
  const std::string prefix = "baseline:";
  if (selector.rfind(prefix, 0) != 0 || names_a_file(selector)) return std::nullopt;
  return store.get_baseline(selector.substr(prefix.size()));
}

bool holds(const std::vector<Run>& runs, const std::string& uuid) {
  return std::any_of(runs.begin(), runs.end(), [&](const Run& r) { return r.uuid == uuid; });
}

// The policy's runs as if the candidate were not stored yet.
std::vector<Run> policy_runs_without(baselines::Store& store,
                                     const baselines::BaselinePolicy& policy,
                                     const std::string& candidate) {
  const std::size_t wanted =
      policy.kind == baselines::BaselinePolicy::Kind::pooled_last_k ? policy.k : 1;
  std::vector<Run> runs;
  for (const std::string& uuid : store.eligible_nightlies(policy.name, std::nullopt, wanted + 1))
    if (uuid != candidate && runs.size() < wanted) runs.push_back(store.load_run(uuid));
  return runs;
}

}  // namespace

BaselineSide baseline_side(baselines::Store* store, const std::string& selector,
                           std::vector<Run> runs, const Run& candidate,
                           const std::string& command) {
  BaselineSide side;
  side.runs = std::move(runs);
  const auto policy = store ? named_policy(*store, selector) : std::nullopt;
  if (policy && policy->kind != baselines::BaselinePolicy::Kind::pinned_run &&
      holds(side.runs, candidate.uuid))
    side.runs = policy_runs_without(*store, *policy, candidate.uuid);
  side.runs.erase(std::remove_if(side.runs.begin(), side.runs.end(),
                                 [&](const Run& r) { return r.uuid == candidate.uuid; }),
                  side.runs.end());
  if (side.runs.empty())
    throw InsufficientDataError(command + ": baseline '" + selector +
                                "' names no run other than the candidate");
  if (policy && policy->kind == baselines::BaselinePolicy::Kind::pooled_last_k) {
    side.pools = pool_since_change_point(*store, *policy, side.runs, candidate.uuid);
    apply_pools(side.runs, side.pools);
  }
  return side;
}

BaselineSide load_baseline(RunSources& sources, const std::string& selector, const Run& candidate) {
  auto runs = sources.load("baseline", selector, true);
  // The store is open whenever a selector (not a file) was read.
  return baseline_side(sources.store(), selector, std::move(runs), candidate, "compare");
}

}  // namespace perfgate::cli
