#pragma once
// nccl-tests stdout logs (all_reduce_perf, all_gather_perf, ...) → one perfgate run.
// family "collectives.<op>", params {bytes, dtype, inplace, redop, root} — the names
// perfgate-collectives uses (docs/collectives.md) time (us), algbw and busbw (GB/s); one sample per
// row (nccl-tests prints one averaged number). The "# Rank N Group G Pid P on HOST device D [BUS]
// MODEL" lines give the fingerprint and scale (all ranks). A run split into groups
// (NCCL_TESTS_SPLIT, NCCL_TESTS_SPLIT_MASK; several distinct G) adds params "groups" (their
// number) to every series and metadata nccl_tests.split {groups, group_ranks[, unequal_groups]};
// a busbw derived from a 0.00 uses the bus factor of rank 0's group's rank count, as nccl-tests.
#include <string>

#include <nlohmann/json.hpp>

#include "perfgate/core/model.hpp"

namespace perfgate::baselines {

// True when `text` holds an nccl-tests result table header.
bool looks_like_nccl_tests(const std::string& text);

// The run has no uuid yet. Throws InputError naming `source` and the line.
Run from_nccl_tests_log(const std::string& text, const std::string& source);

// nccl-tests' JSON output (`-J FILE.json`, `--output_file`): an object with "config", "results" and
// "nccl_version".
bool looks_like_nccl_tests_json(const nlohmann::json& doc);
// The same run as the log of that test would give. Throws InputError naming `source` and the
// JSON path of a missing or mistyped value.
Run from_nccl_tests_json(const nlohmann::json& doc, const std::string& source);

}  // namespace perfgate::baselines
