#include "nccl_comm.hpp"

#include <thread>

#include "perfgate/collectives/watchdog.hpp"
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

// Destroying waits for issued operations: run_cuda_proxy aborts instead after an error in the
// steps, the only place operations can be left in flight.
NcclComm::~NcclComm() {
  if (comm_ != nullptr && !aborted_) ncclCommDestroy(comm_);
}

void NcclComm::all_reduce_sum(Bf16Bits* data, std::size_t count, cudaStream_t s) {
  const std::lock_guard lock(mutex_);
  if (aborted_) throw ToolError("NCCL communicator aborted by the watchdog");
  check(ncclAllReduce(data, data, count, ncclBfloat16, ncclSum, comm_, s), "ncclAllReduce");
}

void NcclComm::wait(cudaEvent_t done) {
  for (;;) {
    const cudaError_t state = cudaEventQuery(done);
    if (state == cudaSuccess) return;
    if (state != cudaErrorNotReady) PERFGATE_CUDA_CHECK(state);
    ncclResult_t async = ncclSuccess;
    {
      const std::lock_guard lock(mutex_);
      if (aborted_) throw ToolError("NCCL communicator aborted by the watchdog");
      const ncclResult_t queried = ncclCommGetAsyncError(comm_, &async);
      if (queried != ncclSuccess) async = queried;
    }
    if (async != ncclSuccess && async != ncclInProgress) {
      abort();
      check(async, "ncclCommGetAsyncError");
    }
    std::this_thread::yield();
  }
}

void NcclComm::abort() noexcept {
  if (aborted_.exchange(true)) return;
  collectives::abort_when_free(mutex_, [this] { ncclCommAbort(comm_); });
}

std::string NcclComm::version() {
  int v = 0;
  check(ncclGetVersion(&v), "ncclGetVersion");
  return std::to_string(v);
}

}  // namespace perfgate::step_proxy::gpu
