// The CUDA implementations of the row-wise fused operators and GEMM (backend "cuda"),
// registered through the harness API on the families' own problems: inputs are uploaded in
// the factory (untimed), run() launches and waits, time_batch() times n back-to-back launches
// with CUDA events, and output() downloads in the family's output layout. Without a device
// every case is skipped with the reason (registry_device.hpp).
#include <memory>
#include <vector>

#include "perfgate/cuda/fused_ops.hpp"
#include "perfgate/cuda/gemm_lt.hpp"
#include "perfgate/microbench/families/fused_ops.hpp"
#include "perfgate/microbench/families/gemm.hpp"
#include "registry_device.hpp"

namespace perfgate::microbench {
namespace {

using namespace cuda_backend;

pc::RowShape row_shape(const RowsProblem& p) {
  return {std::int64_t(p.rows), std::int64_t(p.cols)};
}

template <bool LayerNorm, class P>
class NormInstance final : public CudaInstance {
 public:
  NormInstance(const P& p, bool fused)
      : CudaInstance(precision(p.dtype), {p.rows * p.cols, p.rows * p.cols}),
        fused_(fused),
        shape_(row_shape(p)) {
    pc::validate_row_shape(shape_, precision_);
    x_ = upload(p.x, precision_);
    r_ = upload(p.residual, precision_);
    w_ = upload(p.weight, precision_);
    if constexpr (LayerNorm) b_ = upload(p.bias, precision_);
  }

 private:
  void launch(cudaStream_t s, int) override {
    const pc::NormArgs a{
        x_.get(),          r_.get(),          w_.get(), LayerNorm ? b_.get() : nullptr,
        outputs_[1].get(), outputs_[0].get(), shape_,   kNormEps};
    if (LayerNorm) {
      fused_ ? pc::layernorm_residual_fused(precision_, a, s)
             : pc::layernorm_residual_unfused(precision_, a, s);
    } else {
      fused_ ? pc::rmsnorm_residual_fused(precision_, a, s)
             : pc::rmsnorm_residual_unfused(precision_, a, s);
    }
  }
  bool fused_;
  pc::RowShape shape_;
  Tensor x_, r_, w_, b_;
};

class SoftmaxInstance final : public CudaInstance {
 public:
  SoftmaxInstance(const SoftmaxProblem& p, bool fused)
      : CudaInstance(precision(p.dtype), {p.rows * p.cols}),
        fused_(fused),
        shape_(row_shape(p)),
        x_(upload(p.x, precision_)),
        scratch_(2 * p.rows) {
    pc::validate_row_shape(shape_, precision_);
  }

 private:
  void launch(cudaStream_t s, int) override {
    fused_
        ? pc::softmax_fused(precision_, x_.get(), outputs_[0].get(), shape_, s)
        : pc::softmax_unfused(precision_, x_.get(), outputs_[0].get(), scratch_.get(), shape_, s);
  }
  bool fused_;
  pc::RowShape shape_;
  Tensor x_;
  pc::DeviceBuffer<float> scratch_;
};

class BiasGeluInstance final : public CudaInstance {
 public:
  BiasGeluInstance(const BiasGeluProblem& p, bool fused)
      : CudaInstance(precision(p.dtype), {p.rows * p.cols}),
        fused_(fused),
        shape_(row_shape(p)),
        x_(upload(p.x, precision_)),
        bias_(upload(p.bias, precision_)) {}

 private:
  void launch(cudaStream_t s, int) override {
    fused_ ? pc::bias_gelu_fused(precision_, x_.get(), bias_.get(), outputs_[0].get(), shape_, s)
           : pc::bias_gelu_unfused(precision_, x_.get(), bias_.get(), outputs_[0].get(), shape_, s);
  }
  bool fused_;
  pc::RowShape shape_;
  Tensor x_, bias_;
};

class SwigluInstance final : public CudaInstance {
 public:
  SwigluInstance(const SwigluProblem& p, bool fused)
      : CudaInstance(precision(p.dtype), {p.rows * p.cols}),
        fused_(fused),
        shape_(row_shape(p)),
        x_(upload(p.x, precision_)) {}

 private:
  void launch(cudaStream_t s, int) override {
    fused_ ? pc::swiglu_fused(precision_, x_.get(), outputs_[0].get(), shape_, s)
           : pc::swiglu_unfused(precision_, x_.get(), outputs_[0].get(), shape_, s);
  }
  bool fused_;
  pc::RowShape shape_;
  Tensor x_;
};

// C = A·B (+ bias, GeLU) through cuBLASLt; B is uploaded transposed to the [N, K] form LtGemm
// reads.
class GemmInstance final : public CudaInstance {
 public:
  GemmInstance(const GemmProblem& p, bool fused)
      : CudaInstance(precision(p.dtype), {p.s.m * p.s.n}),
        fused_(fused),
        epilogue_(p.bias_gelu),
        shape_{std::int64_t(p.s.m), std::int64_t(p.s.n), std::int64_t(p.s.k)},
        gemm_(shape_, precision_,
              fused && p.bias_gelu ? pc::Epilogue::bias_gelu : pc::Epilogue::none) {
    std::vector<float> w(p.s.n * p.s.k);
    for (std::size_t k = 0; k < p.s.k; ++k)
      for (std::size_t n = 0; n < p.s.n; ++n) w[n * p.s.k + k] = p.b[k * p.s.n + n];
    a_ = upload(p.a, precision_);
    w_ = upload(w, precision_);
    if (epilogue_) bias_ = upload(p.bias, precision_);
  }

 private:
  void launch(cudaStream_t s, int) override {
    gemm_.run(a_.get(), w_.get(), outputs_[0].get(), fused_ && epilogue_ ? bias_.get() : nullptr,
              s);
    if (!fused_ && epilogue_)
      pc::bias_gelu_fused(precision_, outputs_[0].get(), bias_.get(), outputs_[0].get(),
                          {shape_.m, shape_.n}, s);
  }
  bool fused_, epilogue_;
  pc::GemmShape shape_;
  pc::LtGemm gemm_;
  Tensor a_, w_, bias_;
};

}  // namespace

PERFGATE_IMPLEMENTATION(rmsnorm, RmsNormProblem, cuda, fused) {
  return make_on_device<NormInstance<false, RmsNormProblem>>(problem, true);
}
PERFGATE_IMPLEMENTATION(rmsnorm, RmsNormProblem, cuda, unfused) {
  return make_on_device<NormInstance<false, RmsNormProblem>>(problem, false);
}
PERFGATE_IMPLEMENTATION(layernorm, LayerNormProblem, cuda, fused) {
  return make_on_device<NormInstance<true, LayerNormProblem>>(problem, true);
}
PERFGATE_IMPLEMENTATION(layernorm, LayerNormProblem, cuda, unfused) {
  return make_on_device<NormInstance<true, LayerNormProblem>>(problem, false);
}
PERFGATE_IMPLEMENTATION(softmax, SoftmaxProblem, cuda, fused) {
  return make_on_device<SoftmaxInstance>(problem, true);
}
PERFGATE_IMPLEMENTATION(softmax, SoftmaxProblem, cuda, unfused) {
  return make_on_device<SoftmaxInstance>(problem, false);
}
PERFGATE_IMPLEMENTATION(bias_gelu, BiasGeluProblem, cuda, fused) {
  return make_on_device<BiasGeluInstance>(problem, true);
}
PERFGATE_IMPLEMENTATION(bias_gelu, BiasGeluProblem, cuda, unfused) {
  return make_on_device<BiasGeluInstance>(problem, false);
}
PERFGATE_IMPLEMENTATION(swiglu, SwigluProblem, cuda, fused) {
  return make_on_device<SwigluInstance>(problem, true);
}
PERFGATE_IMPLEMENTATION(swiglu, SwigluProblem, cuda, unfused) {
  return make_on_device<SwigluInstance>(problem, false);
}
PERFGATE_IMPLEMENTATION(gemm, GemmProblem, cuda, fused) {
  return make_on_device<GemmInstance>(problem, true);
}
PERFGATE_IMPLEMENTATION(gemm, GemmProblem, cuda, unfused) {
  return make_on_device<GemmInstance>(problem, false);
}

}  // namespace perfgate::microbench
