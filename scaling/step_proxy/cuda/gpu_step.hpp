#pragma once
// One data-parallel step on the GPU: forward and backward on the compute stream; each layer's
// gradients, once their kernels are enqueued, are all-reduced in buckets on a second stream that
// waits on an event of the compute stream; the step ends when the compute stream has joined the
// communication stream back. The decomposition comes from CUDA events:
//   step     start (compute stream) → end, after the join
//   compute  start → the last backward kernel (the compute stream runs nothing else, except the
//            gradient check's sums on its untimed step)
//   comm     the sum of the intervals around each all-reduce on the communication stream
//   exposed  step − compute, at least 0
#include <cuda_runtime.h>

#include <utility>
#include <vector>

#include "../bucket_plan.hpp"
#include "../gradient_check.hpp"
#include "../step_loop.hpp"
#include "gpu_transformer.hpp"
#include "nccl_comm.hpp"
#include "perfgate/cuda/device_buffer.hpp"

namespace perfgate::step_proxy::gpu {

class GpuStep {
 public:
  GpuStep(GpuTransformer& model, NcclComm& comm, const Shape& shape, const StepConfig& config,
          cudaStream_t compute);
  ~GpuStep();
  GpuStep(const GpuStep&) = delete;
  GpuStep& operator=(const GpuStep&) = delete;

  // Enqueues one step, waits for it and reads its events. With `sums`, also takes every bucket's
  // Σ|g| on the compute stream before its all-reduce is released and after the step (the
  // gradient check's step; the sums' kernels lengthen it, so it is not timed).
  StepTimes run(GradientSums* sums = nullptr);
  // The exact pass (gradient_check.hpp): the pattern written to the gradients and checked by
  // kernels, every bucket all-reduced on the communication stream as a step does; per bucket,
  // this rank's wrong elements.
  std::vector<long long> exact_pass(int rank, int ranks);
  const std::vector<Bucket>& buckets() const { return buckets_; }

 private:
  void layer_ready(int layer, GradientSums* sums);
  void take_reduced_sums(GradientSums& sums);
  double* partials(std::size_t bucket, int which) const {  // which: 0 local, 1 reduced
    return partials_.get() + (2 * bucket + which) * kSumAbsBlocks;
  }
  static cudaEvent_t new_event();

  GpuTransformer& model_;
  NcclComm& comm_;
  double delay_us_;
  int skip_bucket_, skip_exact_bucket_;
  cudaStream_t compute_, comm_stream_ = nullptr;
  cudaEvent_t start_, compute_end_, comm_done_, end_;
  std::vector<cudaEvent_t> layer_ready_;
  std::vector<Bucket> buckets_;                                   // in launch order
  std::vector<std::pair<cudaEvent_t, cudaEvent_t>> comm_events_;  // around each bucket's all-reduce
  std::size_t next_bucket_ = 0;
  cuda::DeviceBuffer<double> partials_;  // the gradient check's per-block sums, 2 per bucket
};

}  // namespace perfgate::step_proxy::gpu
