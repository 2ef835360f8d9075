#pragma once
// The step proxy's CUDA backend: one GPU per rank (chosen by local rank), compute on one CUDA
// stream, gradient all-reduce through NCCL on a second stream, decomposition from CUDA events.
#include <functional>
#include <string>
#include <vector>

#include "../host_memory.hpp"  // ModelTooLarge
#include "../step_loop.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::step_proxy {

// Some rank has no usable CUDA device; every rank throws it together (no rank is left waiting).
// perfgate-step-proxy exits with exit_code::no_device for it.
class NoCudaDevice : public NoDeviceError {
 public:
  using NoDeviceError::NoDeviceError;
};

struct CudaProxyConfig {
  Shape shape;
  StepConfig step;  // delay_us already resolved for this rank
  int warmup = 2, iters = 5, repetitions = 3;
  double timeout_s = 300;  // watchdog: seconds one step may take (0: off)
  // Runs on the watchdog thread after the NCCL communicator has been aborted; expected not to
  // return.
  std::function<void(const std::string& what)> on_timeout;
};

struct CudaProxyResult {
  std::vector<StepTimes> per_repetition;  // this rank's mean step times per repetition
  double ceiling_flops_per_s = 0;         // this rank's large bf16 GEMM rate
  std::string device;                     // "NVIDIA H200 (sm_90)"
  std::string nccl_version;
  std::string attention_backward;  // "cuDNN SDPA", or the unfused path and why it was chosen
  GradientCheckResult gradient_check;
  ModelCheckResult model_check;
};

// Throws InputError naming the option when cuBLASLt's and cuDNN's bf16 paths cannot take the shape,
// or naming PERFGATE_PROXY_ATTENTION when its value is not one run_cuda_proxy knows.
void validate_cuda_shape(const Shape& s);

// Collective over MPI_COMM_WORLD (MPI initialised by the caller). Throws NoCudaDevice,
// ModelTooLarge, GradientCheckFailed, InputError
// (a shape the GPU path cannot take, a bad PERFGATE_PROXY_ATTENTION) or ToolError (CUDA,
// cuBLAS(Lt), cuDNN or NCCL failures). PERFGATE_PROXY_ATTENTION picks the attention backward:
// unset or "auto" (cuDNN SDPA, unfused where cuDNN refuses it), "cudnn" (no fallback), "unfused".
CudaProxyResult run_cuda_proxy(const CudaProxyConfig& config, int rank, int size);

}  // namespace perfgate::step_proxy
