#pragma once
// What every CUDA registry implementation shares: the process's device (stream, NVML probe,
// timer), uploads in the family's storage dtype, and the instance base whose time_batch() times
// back-to-back launches with CUDA events and keeps the clock record of the kept samples.
#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/clock_record.hpp"
#include "perfgate/cuda/device_buffer.hpp"
#include "perfgate/cuda/gpu_timer.hpp"
#include "perfgate/cuda/host_data.hpp"
#include "perfgate/microbench/registry.hpp"

namespace perfgate::microbench::cuda_backend {

namespace pc = perfgate::cuda;

// Whether a CUDA device is visible; empty when one is, else what is missing and why.
std::string missing_device();

pc::Precision precision(DType t);

// One stream, NVML probe and timer for the process (the timer owns the L2 scrub buffer).
struct Device {
  cudaStream_t stream = nullptr;
  std::unique_ptr<pc::NvmlProbe> probe;
  std::unique_ptr<pc::GpuTimer> timer;
  Device();
};
Device& device();

using Tensor = pc::DeviceBuffer<unsigned char>;
Tensor upload(const std::vector<float>& values, pc::Precision p);

// Launch body + outputs (stored in `precision_`); the family-specific part is launch().
class CudaInstance : public Instance {
 public:
  CudaInstance(pc::Precision p, const std::vector<std::size_t>& output_elements);
  void run() override;
  std::vector<double> output() override;
  void poison() override;
  std::optional<double> time_batch(std::size_t iterations) override;
  bool use_timing(const std::string& mode) override;
  void sampling_started() override { clocks_.reset(); }
  nlohmann::json notes() const override;

 protected:
  virtual void launch(cudaStream_t s, int rotation) = 0;
  pc::Precision precision_;
  std::vector<Tensor> outputs_;

 private:
  pc::ClockRecord clocks_;
  enum class Timing { hot, cold, graph } timing_ = Timing::hot;
  pc::GraphBatch graph_;  // graph timing: the batch captured once, replayed by every sample
};

// The factory body of every CUDA implementation: no device, or a case this GPU or library
// cannot do (perfgate::cuda::Unsupported), becomes a skip with the reason.
template <class I, class P, class... A>
std::unique_ptr<Instance> make_on_device(P& problem, A&&... args) {
  if (const auto missing = missing_device(); !missing.empty()) throw CaseUnsupported(missing);
  try {
    return std::make_unique<I>(problem, std::forward<A>(args)...);
  } catch (const pc::Unsupported& e) {
    throw CaseUnsupported(e.what());
  }
}

}  // namespace perfgate::microbench::cuda_backend
