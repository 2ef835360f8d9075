#pragma once
// One data-parallel step on the GPU: forward and backward on the compute stream; each layer's
// gradients, once their kernels are enqueued, are all-reduced in buckets on a second stream that
// waits on an event of the compute stream; the step ends when the compute stream has joined the
// communication stream back. The decomposition comes from CUDA events:
//   step     start (compute stream) → end, after the join
//   compute  start → the last backward kernel (the compute stream runs nothing else)
//   comm     the sum of the intervals around each all-reduce on the communication stream
//   exposed  step − compute, at least 0
#include <cuda_runtime.h>

#include <utility>
#include <vector>

#include "../step_loop.hpp"
#include "gpu_transformer.hpp"
#include "nccl_comm.hpp"

namespace perfgate::step_proxy::gpu {

class GpuStep {
 public:
  GpuStep(GpuTransformer& model, NcclComm& comm, const Shape& shape, const StepConfig& config,
          cudaStream_t compute);
  ~GpuStep();
  GpuStep(const GpuStep&) = delete;
  GpuStep& operator=(const GpuStep&) = delete;

  StepTimes run();  // enqueues one step, waits for it and reads its events

 private:
  void layer_ready(int layer);
  void all_reduce(Bf16Bits* data, long long count);
  static cudaEvent_t new_event();

  GpuTransformer& model_;
  NcclComm& comm_;
  long long per_layer_, bucket_;
  double delay_us_;
  cudaStream_t compute_, comm_stream_ = nullptr;
  cudaEvent_t start_, compute_end_, comm_done_, end_;
  std::vector<cudaEvent_t> layer_ready_;
  std::vector<std::pair<cudaEvent_t, cudaEvent_t>>
      comm_events_;          // grows to the step's bucket count
  std::size_t buckets_ = 0;  // all-reduces enqueued in this step
  Bf16Bits* low_ = nullptr;  // the lowest final gradient
  long long ready_ = 0;      // final gradients not yet in a bucket
};

}  // namespace perfgate::step_proxy::gpu
