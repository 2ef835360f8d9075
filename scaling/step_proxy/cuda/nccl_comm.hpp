#pragma once
// The gradient communicator: NCCL over this rank's GPU, bootstrapped through MPI like
// perfgate-collectives' NCCL backend (rank 0's unique id broadcast to all ranks).
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <atomic>
#include <cstddef>
#include <mutex>
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
  // asynchronous NCCL error (a peer gone) ends the wait with a ToolError. After such an error
  // the communicator is aborted first: its kernels would otherwise wait for the peer forever,
  // and with them every later device synchronisation (cudaFree among them).
  void wait(cudaEvent_t done);
  void abort() noexcept;  // safe from another thread; once
  static std::string version();

 private:
  ncclComm_t comm_ = nullptr;
  std::atomic<bool> aborted_{false};
  // NCCL forbids using a communicator from two threads at once: the step thread's enqueues and
  // polls and the watchdog's ncclCommAbort take this lock (the abort for a bounded time).
  std::timed_mutex mutex_;
};

}  // namespace perfgate::step_proxy::gpu
