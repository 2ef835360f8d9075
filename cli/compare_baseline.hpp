#pragma once
// The baseline side of `perfgate compare`, `report` and the store-side `gate`. A policy selector
// ("baseline:NAME") never names the candidate itself (a nightly compared right after its ingest is
// the policy's newest run), and a pooled policy is cut per series at its last change point
// (baseline_cut.hpp).
#include <string>
#include <vector>

#include "baseline_cut.hpp"
#include "perfgate/core/model.hpp"
#include "regress_sources.hpp"

namespace perfgate::cli {

struct BaselineSide {
  std::vector<Run> runs;  // without the candidate; cut series lack results outside their pool
  BaselinePools pools;    // empty unless the selector names a pooled policy
};

// `runs`: what `selector` named (every run of it). `store` may be null when they came from a
// file; `command` names the caller in messages. Throws InsufficientDataError when nothing but
// the candidate is left.
BaselineSide baseline_side(baselines::Store* store, const std::string& selector,
                           std::vector<Run> runs, const Run& candidate, const std::string& command);

// `compare`'s baseline: a file or a selector read through `sources`.
BaselineSide load_baseline(RunSources& sources, const std::string& selector, const Run& candidate);

}  // namespace perfgate::cli
