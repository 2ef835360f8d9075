#include "gpu_transformer.hpp"

#include <cmath>
#include <string>

#include "model_memory.hpp"
#include "perfgate/cuda/check.hpp"

namespace perfgate::step_proxy::gpu {
namespace {

// Weight offsets inside one layer's 12h² parameters: Wq, Wk, Wv, Wo [h,h], W1 [4h,h], W2 [h,4h],
// each stored [out, in] like a linear layer.
struct Offsets {
  std::size_t q, k, v, o, w1, w2;
  explicit Offsets(std::size_t h)
      : q(0), k(h * h), v(2 * h * h), o(3 * h * h), w1(4 * h * h), w2(8 * h * h) {}
};

// Y[t,out] = X[t,in]·W[out,in]ᵀ; dX[t,in] = dY[t,out]·W; dW[out,in] = dY[t,out]ᵀ·X[t,in].
GemmDims linear(long long t, long long out, long long in) {
  return {t, out, in, false, true};
}
GemmDims data_grad(long long t, long long out, long long in) {
  return {t, in, out, false, false};
}
GemmDims weight_grad(long long t, long long out, long long in) {
  return {out, in, t, true, false};
}

// The buffer's bf16 values as doubles, once `stream`'s work is done (download() runs on the legacy
// stream, which the compute stream does not wait for).
std::vector<double> widen(const cuda::DeviceBuffer<Bf16Bits>& buffer, cudaStream_t stream) {
  PERFGATE_CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::vector<Bf16Bits> bits = buffer.download();
  std::vector<double> out(bits.size());
  for (std::size_t i = 0; i < bits.size(); ++i) out[i] = bf16_to_double(bits[i]);
  return out;
}

}  // namespace

GpuTransformer::GpuTransformer(const Shape& s, cudaStream_t stream, AttentionBackward attention)
    : shape_(s),
      stream_(stream),
      weights_(static_cast<std::size_t>(s.layers) * s.params_per_layer()),
      grads_(weights_.size()) {
  // Attention: cuDNN's fused SDPA forward (keeping the softmax statistics) and backward, the
  // families' only GPU attention with a backward pass; no causal mask, like the CPU model. The
  // unfused backward recomputes the softmax instead of reading the statistics.
  const cuda::AttentionShape a{s.batch, s.heads, s.heads, s.seq, s.seq, s.head_dim(), false};
  attention_forward_ = std::make_unique<cuda::CudnnSdpa>(a, cuda::Precision::bf16,
                                                         cuda::CudnnSdpa::Direction::forward);
  if (attention == AttentionBackward::unfused) {
    attention_backward_path_ = "unfused (cuBLAS GEMMs + softmax kernels; requested)";
  } else {
    try {
      attention_backward_ = std::make_unique<cuda::CudnnSdpa>(a, cuda::Precision::bf16,
                                                              cuda::CudnnSdpa::Direction::backward);
      attention_backward_path_ = "cuDNN SDPA";
    } catch (const ToolError& e) {
      // e.g. neither the SDPA_BWD operation (used from 9.27) nor a composite plan
      if (attention == AttentionBackward::cudnn) throw;
      attention_backward_path_ =
          std::string("unfused (cuBLAS GEMMs + softmax kernels; ") + e.what() + ")";
    }
  }
  if (!attention_backward_) unfused_backward_ = std::make_unique<UnfusedAttentionBackward>(a);
  const std::size_t t = s.tokens(), h = s.hidden;
  // Weights ~ 1/sqrt(fan-in): each GEMM keeps its input's scale; the residual keeps the stack's.
  fill_uniform(weights_.get(), weights_.size(), 1.0f / std::sqrt(float(h)), 1, stream_);
  for (int l = 0; l <= s.layers; ++l) x_.emplace_back(t * h);
  fill_uniform(x_[0].get(), t * h, 1.0f, 2, stream_);
  for (int l = 0; l < s.layers; ++l)
    acts_.push_back(
        {Buffer(t * h), Buffer(t * h), Buffer(t * h), Buffer(t * h), Buffer(t * h),
         Buffer(t * 4 * h), Buffer(t * 4 * h),
         cuda::DeviceBuffer<float>(static_cast<std::size_t>(s.batch) * s.heads * s.seq)});
  for (Buffer* b : {&loss_grad_, &d_a_, &d_b_, &d_y1_, &d_attn_, &d_q_, &d_k_, &d_v_})
    *b = Buffer(t * h);
  d_pre_ = Buffer(t * 4 * h);
  fill_uniform(loss_grad_.get(), t * h, 1e-3f, 3, stream_);
  PERFGATE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  // The count run_cuda_proxy checked against free memory must be what was allocated here.
  if (allocated_bytes() != model_buffer_bytes(s))
    throw ToolError("step proxy: model_buffer_bytes counts " +
                    std::to_string(model_buffer_bytes(s)) + " bytes, the model allocated " +
                    std::to_string(allocated_bytes()));
}

std::size_t GpuTransformer::allocated_bytes() const {
  std::size_t bytes = weights_.bytes() + grads_.bytes();
  for (const Buffer& x : x_) bytes += x.bytes();
  for (const Acts& a : acts_) {
    bytes += a.stats.bytes();
    for (const Buffer* b : {&a.q, &a.k, &a.v, &a.attn, &a.y1, &a.pre, &a.h}) bytes += b->bytes();
  }
  for (const Buffer* b :
       {&loss_grad_, &d_a_, &d_b_, &d_pre_, &d_y1_, &d_attn_, &d_q_, &d_k_, &d_v_})
    bytes += b->bytes();
  return bytes;
}

ModelInputs GpuTransformer::host_inputs() const {
  return {widen(weights_, stream_), widen(x_[0], stream_), widen(loss_grad_, stream_)};
}

std::vector<double> GpuTransformer::host_gradients() const {
  return widen(grads_, stream_);
}

void GpuTransformer::forward() {
  const long long t = shape_.tokens(), h = shape_.hidden;
  const Offsets off(static_cast<std::size_t>(h));
  for (int l = 0; l < shape_.layers; ++l) {
    const Bf16Bits* w = weights(l);
    const Bf16Bits* x = x_[l].get();
    Acts& a = acts_[l];
    // Q, K and V as three GEMMs: cuDNN's SDPA reads each as its own [B, S, H, D] tensor.
    gemm_.run(linear(t, h, h), x, w + off.q, a.q.get(), stream_);
    gemm_.run(linear(t, h, h), x, w + off.k, a.k.get(), stream_);
    gemm_.run(linear(t, h, h), x, w + off.v, a.v.get(), stream_);
    attention_forward_->forward(a.q.get(), a.k.get(), a.v.get(), a.attn.get(), a.stats.get(),
                                stream_);
    gemm_.run(linear(t, h, h), a.attn.get(), w + off.o, a.y1.get(), stream_);
    gemm_.run(linear(t, 4 * h, h), a.y1.get(), w + off.w1, a.pre.get(), stream_);
    gelu_forward(a.pre.get(), a.h.get(), a.pre.size(), stream_);
    // Residual: x[l+1] = x[l] + MLP(...), the GEMM's beta = 1 on x[l]. Without it the signal
    // would shrink by an estimated 200-fold per layer (attention averages V over the keys; not
    // measured), reaching zeros in a 24-layer stack; kernels on zeros draw less power.
    gemm_.run(linear(t, h, 4 * h), a.h.get(), w + off.w2, x_[l + 1].get(), stream_, 1.0f, x);
  }
}

void GpuTransformer::backward_layer(int l, const Bf16Bits* dy, Bf16Bits* dx,
                                    const std::function<void(int)>& layer_done) {
  const long long t = shape_.tokens(), h = shape_.hidden;
  const Offsets off(static_cast<std::size_t>(h));
  const Bf16Bits* w = weights(l);
  Bf16Bits* g = grads(l);
  const Acts& a = acts_[l];
  const Bf16Bits* x = x_[l].get();
  gemm_.run(weight_grad(t, h, 4 * h), dy, a.h.get(), g + off.w2, stream_);
  gemm_.run(data_grad(t, h, 4 * h), dy, w + off.w2, d_pre_.get(), stream_);
  gelu_backward(a.pre.get(), d_pre_.get(), d_pre_.size(), stream_);
  gemm_.run(weight_grad(t, 4 * h, h), d_pre_.get(), a.y1.get(), g + off.w1, stream_);
  gemm_.run(data_grad(t, 4 * h, h), d_pre_.get(), w + off.w1, d_y1_.get(), stream_);
  gemm_.run(weight_grad(t, h, h), d_y1_.get(), a.attn.get(), g + off.o, stream_);
  gemm_.run(data_grad(t, h, h), d_y1_.get(), w + off.o, d_attn_.get(), stream_);
  if (attention_backward_)
    attention_backward_->backward(a.q.get(), a.k.get(), a.v.get(), a.attn.get(), d_attn_.get(),
                                  a.stats.get(), d_q_.get(), d_k_.get(), d_v_.get(), stream_);
  else
    unfused_backward_->run(a.q.get(), a.k.get(), a.v.get(), a.attn.get(), d_attn_.get(), d_q_.get(),
                           d_k_.get(), d_v_.get(), stream_);
  const Bf16Bits* d_qkv[] = {d_q_.get(), d_k_.get(), d_v_.get()};
  const std::size_t w_qkv[] = {off.q, off.k, off.v};
  for (int i = 0; i < 3; ++i) gemm_.run(weight_grad(t, h, h), d_qkv[i], x, g + w_qkv[i], stream_);
  layer_done(
      l);  // every weight gradient of the layer is enqueued; dX is not needed by the all-reduce
  // dX = dY (the residual) + dQ·Wq + dK·Wk + dV·Wv: beta = 1 on dY, then on dX.
  for (int i = 0; i < 3; ++i)
    gemm_.run(data_grad(t, h, h), d_qkv[i], w + w_qkv[i], dx, stream_, 1.0f, i == 0 ? dy : dx);
}

void GpuTransformer::backward(const std::function<void(int)>& layer_done) {
  const Bf16Bits* dy = loss_grad_.get();
  Bf16Bits* dx = d_a_.get();
  for (int l = shape_.layers - 1; l >= 0; --l) {
    backward_layer(l, dy, dx, layer_done);
    dy = dx;
    dx = dx == d_a_.get() ? d_b_.get() : d_a_.get();
  }
}

}  // namespace perfgate::step_proxy::gpu
