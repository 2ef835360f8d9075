#pragma once
// The gradient communicator: NCCL over this rank's GPU, bootstrapped through MPI like
// perfgate-collectives' NCCL backend (rank 0's unique id broadcast to all ranks).
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <atomic>
#include <cstddef>
#include <string>

#include "gpu_kernels.hpp"

namespace perfgate::step_proxy::gpu {

class NcclComm {
 public:
  // The device must already be selected (cudaSetDevice) on this thread.
  NcclComm(MPI_Comm bootstrap, int rank, int size);
  ~NcclComm();
  NcclComm(const NcclComm&) = delete;
  NcclComm& operator=(const NcclComm&) = delete;

  void all_reduce_sum(Bf16Bits* data, std::size_t count, cudaStream_t s);  // in place
  // Blocks until `done` has completed; polls, so an abort() from the watchdog thread or an
  // asynchronous NCCL error (a peer gone) ends the wait with a ToolError.
  void wait(cudaEvent_t done) const;
  void abort() noexcept;  // safe from another thread
  static std::string version();

 private:
  ncclComm_t comm_ = nullptr;
  std::atomic<bool> aborted_{false};
};

}  // namespace perfgate::step_proxy::gpu
