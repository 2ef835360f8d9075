#include "phase_range.hpp"

#if PERFGATE_HAVE_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

namespace perfgate::microbench {

#if PERFGATE_HAVE_NVTX
namespace {
nvtxDomainHandle_t domain() {
  static const nvtxDomainHandle_t handle = nvtxDomainCreateA("perfgate");
  return handle;
}
}  // namespace

PhaseRange::PhaseRange(const char* name) {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = name;
  nvtxDomainRangePushEx(domain(), &attributes);
}

PhaseRange::~PhaseRange() {
  nvtxDomainRangePop(domain());
}
#else
PhaseRange::PhaseRange(const char*) {}
PhaseRange::~PhaseRange() = default;
#endif

}  // namespace perfgate::microbench
