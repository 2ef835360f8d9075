#pragma once
// The transformer stack of the CPU proxy (attention + GeLU MLP per layer, no norms) with a
// residual connection around each layer, on one CUDA stream in bf16: cuBLASLt GEMMs and cuDNN's
// fused attention forward; attention backward through cuDNN's fused SDPA or, where that cuDNN
// refuses it, the unfused cuBLAS path.
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../transformer.hpp"
#include "gpu_kernels.hpp"
#include "host_reference.hpp"
#include "lt_matmul.hpp"
#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/device_buffer.hpp"
#include "unfused_attention_backward.hpp"

namespace perfgate::step_proxy::gpu {

// automatic: cuDNN SDPA backward, the unfused path when cuDNN refuses every backward plan.
enum class AttentionBackward { automatic, cudnn, unfused };

class GpuTransformer {
 public:
  GpuTransformer(const Shape& s, cudaStream_t stream, AttentionBackward attention);
  // Which attention backward runs, and why when it is not cuDNN's.
  const std::string& attention_backward_path() const { return attention_backward_path_; }
  void forward();
  // Enqueues the backward pass from the last layer to the first; `layer_done(l)` runs right after
  // layer l's weight-gradient kernels are enqueued (before its input gradient), so their
  // all-reduce can follow them.
  void backward(const std::function<void(int)>& layer_done);
  Bf16Bits* grads(int layer) const {
    return grads_.get() + static_cast<std::size_t>(layer) * shape_.params_per_layer();
  }
  std::size_t gradient_count() const { return grads_.size(); }
  // Host copies once the stream has finished, widened from bf16 (the model check): what the model
  // starts from, and the gradients the last backward left.
  ModelInputs host_inputs() const;
  std::vector<double> host_gradients() const;

 private:
  using Buffer = cuda::DeviceBuffer<Bf16Bits>;
  struct Acts {  // what one layer's forward keeps for its backward
    Buffer q, k, v, attn, y1, pre, h;
    cuda::DeviceBuffer<float> stats;
  };
  const Bf16Bits* weights(int layer) const {
    return weights_.get() + static_cast<std::size_t>(layer) * shape_.params_per_layer();
  }
  std::size_t allocated_bytes() const;  // every buffer below
  void backward_layer(int l, const Bf16Bits* dy, Bf16Bits* dx,
                      const std::function<void(int)>& layer_done);

  Shape shape_;
  cudaStream_t stream_;
  GemmPlans gemm_;
  std::unique_ptr<cuda::CudnnSdpa> attention_forward_, attention_backward_;
  // Exactly one of attention_backward_ and unfused_backward_ is set.
  std::unique_ptr<UnfusedAttentionBackward> unfused_backward_;
  std::string attention_backward_path_;
  Buffer weights_, grads_;
  std::vector<Buffer> x_;  // x_[l]: layer l's input; x_[layers]: the output
  std::vector<Acts> acts_;
  // Backward scratch.
  Buffer loss_grad_, d_a_, d_b_, d_pre_, d_y1_, d_attn_, d_q_, d_k_, d_v_;
};

}  // namespace perfgate::step_proxy::gpu
