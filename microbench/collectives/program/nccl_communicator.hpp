#pragma once
// The NCCL communicator as nccl-tests makes it: ncclCommInitRank, or ncclCommInitRankConfig
// when -x (cta_policy) asks NCCL for a CTA policy (NCCL_CTA_POLICY_DEFAULT 0, EFFICIENCY 1,
// ZERO 2), which decides how many SMs NCCL's kernels take from the compute they overlap.
#include <nccl.h>

#include <optional>
#include <string>

namespace perfgate::collectives {

// -x's value when not given: NCCL's own choice (its config left undefined).
constexpr int kCtaPolicyUnset = -1;

// Why the NCCL built against or loaded cannot set `policy` (0 and 1 need 2.27, 2 needs 2.28);
// nullopt when it can or when `policy` is unset.
std::optional<std::string> cta_policy_unavailable(int policy);

// This rank's communicator of `ranks`, with `policy` set unless unset; throws ToolError naming
// NCCL's answer.
ncclComm_t make_communicator(int ranks, const ncclUniqueId& id, int rank, int policy);

}  // namespace perfgate::collectives
