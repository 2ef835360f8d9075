// Attention backward on the GPU for the `attention_backward` family: cuDNN ("cudnn"), its SDPA_BWD
// operation or the composite backward graph. The forward pass (O and the softmax statistics) runs
// once when the instance is made, so a timed launch is the backward plan alone, as the CPU
// `blocked` implementation times its backward kernel alone. Output: dQ | dK | dV.
#include "perfgate/cuda/attention.hpp"
#include "registry_attention_shape.hpp"
#include "registry_device.hpp"

namespace perfgate::microbench {
namespace {

using namespace cuda_backend;

class CudnnBackwardInstance final : public CudaInstance {
 public:
  CudnnBackwardInstance(const AttentionBackwardProblem& p, const CaseParams& params)
      : CudaInstance(precision(p.dtype), {p.q.size(), p.k.size(), p.k.size()}),
        shape_(attention_shape(p, "attention_backward/cudnn")),
        q_(upload(p.q, precision_)),
        k_(upload(p.k, precision_)),
        v_(upload(p.v, precision_)),
        d_o_(upload(p.dout, precision_)),
        o_(q_.bytes()),
        stats_(std::size_t(shape_.batch * shape_.heads * shape_.seq_q)),
        backward_(shape_, precision_, pc::CudnnSdpa::Direction::backward,
                  packed_sequences(p, params)) {
    pc::CudnnSdpa forward(shape_, precision_, pc::CudnnSdpa::Direction::forward,
                          packed_sequences(p, params));
    forward.forward(q_.get(), k_.get(), v_.get(), o_.get(), stats_.get(), device().stream);
    PERFGATE_CUDA_CHECK(cudaStreamSynchronize(device().stream));
  }

 private:
  void launch(cudaStream_t s, int) override {
    backward_.backward(q_.get(), k_.get(), v_.get(), o_.get(), d_o_.get(), stats_.get(),
                       outputs_[0].get(), outputs_[1].get(), outputs_[2].get(), s);
  }
  nlohmann::json notes() const override {
    nlohmann::json n = CudaInstance::notes();
    add_cudnn_notes(n, backward_);
    return n;
  }

  pc::AttentionShape shape_;
  Tensor q_, k_, v_, d_o_, o_;
  pc::DeviceBuffer<float> stats_;
  pc::CudnnSdpa backward_;
};

}  // namespace

PERFGATE_IMPLEMENTATION(attention_backward, AttentionBackwardProblem, cuda, cudnn) {
  return make_on_device<CudnnBackwardInstance>(problem, params);
}

}  // namespace perfgate::microbench
