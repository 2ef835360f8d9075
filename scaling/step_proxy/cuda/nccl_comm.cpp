#include "nccl_comm.hpp"

#include <thread>

#include "perfgate/core/error.hpp"
#include "perfgate/cuda/check.hpp"

namespace perfgate::step_proxy::gpu {
namespace {

void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess && r != ncclInProgress)
    throw ToolError(std::string(what) + ": " + ncclGetErrorString(r));
}

}  // namespace

NcclComm::NcclComm(MPI_Comm bootstrap, int rank, int size) {
  ncclUniqueId id{};
  if (rank == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, bootstrap);
  check(ncclCommInitRank(&comm_, size, id, rank), "ncclCommInitRank");
}

NcclComm::~NcclComm() {
  if (comm_ && !aborted_) ncclCommDestroy(comm_);
}

void NcclComm::all_reduce_sum(Bf16Bits* data, std::size_t count, cudaStream_t s) {
  check(ncclAllReduce(data, data, count, ncclBfloat16, ncclSum, comm_, s), "ncclAllReduce");
}

void NcclComm::wait(cudaEvent_t done) const {
  for (;;) {
    const cudaError_t state = cudaEventQuery(done);
    if (state == cudaSuccess) return;
    if (state != cudaErrorNotReady) PERFGATE_CUDA_CHECK(state);
    if (aborted_) throw ToolError("NCCL communicator aborted by the watchdog");
    ncclResult_t async = ncclSuccess;
    ncclCommGetAsyncError(comm_, &async);
    check(async, "ncclCommGetAsyncError");
    std::this_thread::yield();
  }
}

void NcclComm::abort() noexcept {
  aborted_ = true;
  ncclCommAbort(comm_);
}

std::string NcclComm::version() {
  int v = 0;
  ncclGetVersion(&v);
  return std::to_string(v);
}

}  // namespace perfgate::step_proxy::gpu
