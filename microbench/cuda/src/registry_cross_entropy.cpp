// Cross-entropy on the GPU for the `cross_entropy` family: fp32 logits, int64 labels, one loss
// per row (the family's output).
#include "perfgate/cuda/fused_ops.hpp"
#include "perfgate/microbench/families/fused_ops.hpp"
#include "registry_device.hpp"

namespace perfgate::microbench {
namespace {

using namespace cuda_backend;

class CrossEntropyInstance final : public CudaInstance {
 public:
  CrossEntropyInstance(const CrossEntropyProblem& p, bool fused)
      : CudaInstance(pc::Precision::f32, {p.rows}),
        fused_(fused),
        rows_(std::int64_t(p.rows)),
        vocab_(std::int64_t(p.vocab)),
        logits_(p.logits),
        labels_(p.labels),
        logp_(fused ? 0 : p.rows * p.vocab) {}

 private:
  void launch(cudaStream_t s, int) override {
    auto* loss = reinterpret_cast<float*>(outputs_[0].get());
    fused_ ? pc::cross_entropy_fused(logits_.get(), labels_.get(), loss, rows_, vocab_, s)
           : pc::cross_entropy_unfused(logits_.get(), labels_.get(), logp_.get(), loss, rows_,
                                       vocab_, s);
  }
  bool fused_;
  std::int64_t rows_, vocab_;
  pc::DeviceBuffer<float> logits_;
  pc::DeviceBuffer<std::int64_t> labels_;
  pc::DeviceBuffer<float> logp_;  // the unfused form's [rows, vocab] log-softmax
};

}  // namespace

PERFGATE_IMPLEMENTATION(cross_entropy, CrossEntropyProblem, cuda, fused) {
  return make_on_device<CrossEntropyInstance>(problem, true);
}
PERFGATE_IMPLEMENTATION(cross_entropy, CrossEntropyProblem, cuda, unfused) {
  return make_on_device<CrossEntropyInstance>(problem, false);
}

}  // namespace perfgate::microbench
