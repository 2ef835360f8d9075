#include "nccl_communicator.hpp"

#include <fmt/format.h>

#include "nccl_version.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::collectives {
namespace {

void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw ToolError(fmt::format("{}: {}", what, ncclGetErrorString(r)));
}

}  // namespace

std::optional<std::string> cta_policy_unavailable(int policy) {
  if (policy == kCtaPolicyUnset) return std::nullopt;
  // ncclConfig_t.CTAPolicy came with 2.27; NCCL_CTA_POLICY_ZERO with 2.28.
  return nccl_too_old(policy == 2 ? NCCL_VERSION(2, 28, 0) : NCCL_VERSION(2, 27, 0));
}

ncclComm_t make_communicator(int ranks, const ncclUniqueId& id, int rank, int policy) {
  ncclComm_t comm = nullptr;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0)
  if (policy != kCtaPolicyUnset) {
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.CTAPolicy = policy;
    check(ncclCommInitRankConfig(&comm, ranks, id, rank, &config), "ncclCommInitRankConfig");
    return comm;
  }
#else
  (void)policy;  // refused before this by cta_policy_unavailable
#endif
  check(ncclCommInitRank(&comm, ranks, id, rank), "ncclCommInitRank");
  return comm;
}

}  // namespace perfgate::collectives
