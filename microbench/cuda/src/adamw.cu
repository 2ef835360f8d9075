// AdamW: one multi-tensor launch over a chunk table (each block takes one chunk of one
// tensor, float4 accesses), and the unfused baseline of three kernels per tensor.
#include <cmath>
#include <cstdint>
#include <vector>

#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/fused_ops.hpp"

namespace perfgate::cuda {
namespace {

constexpr std::int64_t kChunk = 64 * 1024;  // elements per block
constexpr int kThreads = 512;

struct Chunk {
  float* p;
  const float* g;
  float* m;
  float* v;
  std::int64_t count;
};

struct Coefficients {
  float lr, beta1, beta2, eps, decay, correction1, correction2;
};

Coefficients coefficients(const AdamWHyper& h) {
  if (h.step < 1) throw InputError("cuda adamw: step must be >= 1");
  return {h.lr,
          h.beta1,
          h.beta2,
          h.eps,
          h.weight_decay,
          1.0f / (1.0f - std::pow(h.beta1, float(h.step))),
          1.0f / (1.0f - std::pow(h.beta2, float(h.step)))};
}

__device__ __forceinline__ void adamw_element(float& p, float g, float& m, float& v,
                                              const Coefficients& c) {
  m = c.beta1 * m + (1.0f - c.beta1) * g;
  v = c.beta2 * v + (1.0f - c.beta2) * g * g;
  const float update = (m * c.correction1) / (sqrtf(v * c.correction2) + c.eps);
  p -= c.lr * (update + c.decay * p);
}

__global__ void __launch_bounds__(kThreads)
    adamw_multi_tensor_kernel(const Chunk* chunks, Coefficients c) {
  const Chunk k = chunks[blockIdx.x];
  // float4 only where all four arrays are 16-byte aligned (chunks start at multiples of kChunk,
  // so a chunk is aligned as its tensor is); elsewhere the scalar loop below takes the chunk.
  const bool aligned =
      ((reinterpret_cast<std::uintptr_t>(k.p) | reinterpret_cast<std::uintptr_t>(k.g) |
        reinterpret_cast<std::uintptr_t>(k.m) | reinterpret_cast<std::uintptr_t>(k.v)) &
       15) == 0;
  const std::int64_t vecs = aligned ? k.count / 4 : 0;
  for (std::int64_t i = threadIdx.x; i < vecs; i += blockDim.x) {
    float4 p = reinterpret_cast<float4*>(k.p)[i], m = reinterpret_cast<float4*>(k.m)[i],
           v = reinterpret_cast<float4*>(k.v)[i];
    const float4 g = __ldg(reinterpret_cast<const float4*>(k.g) + i);
    adamw_element(p.x, g.x, m.x, v.x, c);
    adamw_element(p.y, g.y, m.y, v.y, c);
    adamw_element(p.z, g.z, m.z, v.z, c);
    adamw_element(p.w, g.w, m.w, v.w, c);
    reinterpret_cast<float4*>(k.p)[i] = p;
    reinterpret_cast<float4*>(k.m)[i] = m;
    reinterpret_cast<float4*>(k.v)[i] = v;
  }
  for (std::int64_t i = vecs * 4 + threadIdx.x; i < k.count; i += blockDim.x)
    adamw_element(k.p[i], k.g[i], k.m[i], k.v[i], c);
}

enum class Step { first_moment, second_moment, update };

__global__ void adamw_stage_kernel(float* p, const float* g, float* m, float* v, std::int64_t n,
                                   Coefficients c, Step step) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    if (step == Step::first_moment) {
      m[i] = c.beta1 * m[i] + (1.0f - c.beta1) * g[i];
    } else if (step == Step::second_moment) {
      v[i] = c.beta2 * v[i] + (1.0f - c.beta2) * g[i] * g[i];
    } else {
      const float update = (m[i] * c.correction1) / (sqrtf(v[i] * c.correction2) + c.eps);
      p[i] -= c.lr * (update + c.decay * p[i]);
    }
  }
}

void validate(const TensorList& list) {
  const std::size_t n = list.sizes.size();
  if (n == 0) throw InputError("cuda adamw: the tensor list is empty");
  if (list.params.size() != n || list.grads.size() != n || list.m.size() != n || list.v.size() != n)
    throw InputError("cuda adamw: params, grads, m, v and sizes must have the same length");
  for (std::size_t i = 0; i < n; ++i)
    if (list.sizes[i] <= 0)
      throw InputError("cuda adamw: tensor " + std::to_string(i) + " has no elements");
}

}  // namespace

AdamWMultiTensor::AdamWMultiTensor(const TensorList& list) {
  validate(list);
  std::vector<Chunk> chunks;
  for (std::size_t t = 0; t < list.sizes.size(); ++t)
    for (std::int64_t start = 0; start < list.sizes[t]; start += kChunk)
      chunks.push_back({list.params[t] + start, list.grads[t] + start, list.m[t] + start,
                        list.v[t] + start, std::min(kChunk, list.sizes[t] - start)});
  chunks_ = int(chunks.size());
  PERFGATE_CUDA_CHECK(cudaMalloc(&table_, chunks.size() * sizeof(Chunk)));
  PERFGATE_CUDA_CHECK(
      cudaMemcpy(table_, chunks.data(), chunks.size() * sizeof(Chunk), cudaMemcpyHostToDevice));
  // A pageable copy may return before it lands; launches go to non-blocking streams.
  PERFGATE_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
}

AdamWMultiTensor::~AdamWMultiTensor() {
  cudaFree(table_);
}

void AdamWMultiTensor::launch(const AdamWHyper& h, cudaStream_t s) const {
  adamw_multi_tensor_kernel<<<unsigned(chunks_), kThreads, 0, s>>>(
      static_cast<const Chunk*>(table_), coefficients(h));
  PERFGATE_CHECK_LAUNCH("adamw_multi_tensor_kernel");
}

void adamw_unfused(const TensorList& list, const AdamWHyper& h, cudaStream_t s) {
  validate(list);
  const Coefficients c = coefficients(h);
  for (std::size_t t = 0; t < list.sizes.size(); ++t) {
    const std::int64_t n = list.sizes[t];
    const unsigned blocks = unsigned(std::min<std::int64_t>((n + 255) / 256, 132 * 16));
    for (Step step : {Step::first_moment, Step::second_moment, Step::update}) {
      adamw_stage_kernel<<<blocks, 256, 0, s>>>(list.params[t], list.grads[t], list.m[t], list.v[t],
                                                n, c, step);
      PERFGATE_CHECK_LAUNCH("adamw_stage_kernel");
    }
  }
}

AdamWReference::AdamWReference(const AdamWHyper& h)
    : lr_(h.lr),
      beta1_(h.beta1),
      beta2_(h.beta2),
      eps_(h.eps),
      decay_(h.weight_decay),
      correction1_(1.0 / (1.0 - std::pow(beta1_, double(h.step)))),
      correction2_(1.0 / (1.0 - std::pow(beta2_, double(h.step)))) {
  if (h.step < 1) throw InputError("cuda adamw: step must be >= 1");
}

AdamWReference::Element AdamWReference::operator()(float p, float g, float m, float v) const {
  const double m1 = beta1_ * m + (1 - beta1_) * g, v1 = beta2_ * v + (1 - beta2_) * double(g) * g;
  return {-lr_ * ((m1 * correction1_) / (std::sqrt(v1 * correction2_) + eps_) + decay_ * p), m1,
          v1};
}

}  // namespace perfgate::cuda
