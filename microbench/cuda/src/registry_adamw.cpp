// AdamW on the GPU for the `adamw` family: the multi-tensor kernel ("fused") and the three-
// kernels-per-tensor baseline ("unfused") update param, m and v in place; output() reports them
// in the family's layout [param' | m' | v'] over all tensors in order.
#include "perfgate/cuda/fused_ops.hpp"
#include "perfgate/microbench/families/fused_ops.hpp"
#include "registry_device.hpp"

namespace perfgate::microbench {
namespace {

using namespace cuda_backend;

using Floats = pc::DeviceBuffer<float>;

// One buffer per tensor (each cudaMalloc'd, so aligned for the kernels' float4 accesses).
std::vector<Floats> upload_all(const std::vector<std::vector<float>>& tensors) {
  std::vector<Floats> out;
  for (const auto& t : tensors) out.emplace_back(t);
  return out;
}

class AdamwInstance final : public CudaInstance {
 public:
  AdamwInstance(const AdamwProblem& p, bool fused)
      : CudaInstance(pc::Precision::f32, {}),
        fused_(fused),
        hyper_{p.hyper.lr,  p.hyper.beta1,        p.hyper.beta2,
               p.hyper.eps, p.hyper.weight_decay, p.hyper.step},
        param_(upload_all(p.param)),
        grad_(upload_all(p.grad)),
        m_(upload_all(p.m)),
        v_(upload_all(p.v)),
        param0_(upload_all(p.param)),
        m0_(upload_all(p.m)),
        v0_(upload_all(p.v)) {
    for (std::size_t t = 0; t < p.param.size(); ++t) {
      list_.params.push_back(param_[t].get());
      list_.grads.push_back(grad_[t].get());
      list_.m.push_back(m_[t].get());
      list_.v.push_back(v_[t].get());
      list_.sizes.push_back(std::int64_t(p.param[t].size()));
    }
    if (fused_) multi_ = std::make_unique<pc::AdamWMultiTensor>(list_);
  }

  std::vector<double> output() override {
    std::vector<double> all;
    for (const auto* state : {&param_, &m_, &v_})
      for (const Floats& t : *state) {
        const auto part = t.download();
        all.insert(all.end(), part.begin(), part.end());
      }
    return all;
  }

  // The step is in place, so the checked run must start from the problem's state: restore it.
  // A kernel that wrote nothing cannot pass, since m' and v' differ from m and v.
  void poison() override {
    for (std::size_t t = 0; t < param_.size(); ++t) {
      param_[t].copy_from(param0_[t]);
      m_[t].copy_from(m0_[t]);
      v_[t].copy_from(v0_[t]);
    }
  }

 private:
  void launch(cudaStream_t s, int) override {
    fused_ ? multi_->launch(hyper_, s) : pc::adamw_unfused(list_, hyper_, s);
  }
  bool fused_;
  pc::AdamWHyper hyper_;
  std::vector<Floats> param_, grad_, m_, v_, param0_, m0_, v0_;
  pc::TensorList list_;
  std::unique_ptr<pc::AdamWMultiTensor> multi_;
};

}  // namespace

PERFGATE_IMPLEMENTATION(adamw, AdamwProblem, cuda, fused) {
  return make_on_device<AdamwInstance>(problem, true);
}
PERFGATE_IMPLEMENTATION(adamw, AdamwProblem, cuda, unfused) {
  return make_on_device<AdamwInstance>(problem, false);
}

}  // namespace perfgate::microbench
