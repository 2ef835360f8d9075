#include "gpu_kernels.hpp"

#include <cuda_bf16.h>

#include "../exact_pattern.hpp"
#include "perfgate/cuda/check.hpp"

namespace perfgate::step_proxy::gpu {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::size_t count) {
  const std::size_t b = (count + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 65535u * 8u ? b
                                               : 65535u * 8u);  // grid-stride loops cover the rest
}

__device__ float gelu_tanh(float x) {
  const float u = 0.7978845608f * (x + 0.044715f * x * x * x);
  return 0.5f * x * (1.0f + tanhf(u));
}

__device__ float gelu_tanh_grad(float x) {
  const float u = 0.7978845608f * (x + 0.044715f * x * x * x);
  const float t = tanhf(u);
  const float du = 0.7978845608f * (1.0f + 3.0f * 0.044715f * x * x);
  return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * du;
}

__global__ void gelu_forward_kernel(const __nv_bfloat16* pre, __nv_bfloat16* out,
                                    std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = __float2bfloat16(gelu_tanh(__bfloat162float(pre[i])));
}

__global__ void gelu_backward_kernel(const __nv_bfloat16* pre, __nv_bfloat16* grad,
                                     std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    grad[i] =
        __float2bfloat16(__bfloat162float(grad[i]) * gelu_tanh_grad(__bfloat162float(pre[i])));
}

__global__ void fill_uniform_kernel(__nv_bfloat16* data, std::size_t count, float scale,
                                    std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x) {
    std::uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;  // splitmix64 finaliser
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
    const float magnitude = 0.25f + 0.75f * float(h >> 40) / float(1u << 24);
    data[i] = __float2bfloat16((h & 1u ? -magnitude : magnitude) * scale);
  }
}

// One partial per block; the block's threads reduce in shared memory in a fixed order.
__global__ void sum_abs_kernel(const __nv_bfloat16* data, std::size_t count, double* partials) {
  __shared__ double lanes[kThreads];
  double sum = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    sum += fabs(static_cast<double>(__bfloat162float(data[i])));
  lanes[threadIdx.x] = sum;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (int(threadIdx.x) < half) lanes[threadIdx.x] += lanes[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = lanes[0];
}

__global__ void exact_fill_kernel(__nv_bfloat16* data, std::size_t count, int ranks, int rank) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    data[i] = __float2bfloat16(static_cast<float>(exact_pass_input(ranks, rank, (long long)i)));
}

__global__ void exact_wrong_kernel(const __nv_bfloat16* data, std::size_t first, std::size_t count,
                                   int ranks, unsigned long long* wrong) {
  unsigned long long mine = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const long long index = (long long)(first + i);
    if (static_cast<double>(__bfloat162float(data[first + i])) != exact_pass_sum(ranks, index))
      ++mine;
  }
  if (mine) atomicAdd(wrong, mine);
}

__global__ void spin_kernel(unsigned long long nanoseconds) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}

}  // namespace

void gelu_forward(const Bf16Bits* pre, Bf16Bits* out, std::size_t count, cudaStream_t s) {
  gelu_forward_kernel<<<blocks_for(count), kThreads, 0, s>>>(
      reinterpret_cast<const __nv_bfloat16*>(pre), reinterpret_cast<__nv_bfloat16*>(out), count);
  PERFGATE_CHECK_LAUNCH("gelu_forward_kernel");
}

void gelu_backward(const Bf16Bits* pre, Bf16Bits* grad, std::size_t count, cudaStream_t s) {
  gelu_backward_kernel<<<blocks_for(count), kThreads, 0, s>>>(
      reinterpret_cast<const __nv_bfloat16*>(pre), reinterpret_cast<__nv_bfloat16*>(grad), count);
  PERFGATE_CHECK_LAUNCH("gelu_backward_kernel");
}

void fill_uniform(Bf16Bits* data, std::size_t count, float scale, std::uint64_t seed,
                  cudaStream_t s) {
  fill_uniform_kernel<<<blocks_for(count), kThreads, 0, s>>>(reinterpret_cast<__nv_bfloat16*>(data),
                                                             count, scale, seed);
  PERFGATE_CHECK_LAUNCH("fill_uniform_kernel");
}

void sum_abs_partials(const Bf16Bits* data, std::size_t count, double* partials, cudaStream_t s) {
  sum_abs_kernel<<<kSumAbsBlocks, kThreads, 0, s>>>(reinterpret_cast<const __nv_bfloat16*>(data),
                                                    count, partials);
  PERFGATE_CHECK_LAUNCH("sum_abs_kernel");
}

void exact_pass_fill(Bf16Bits* data, std::size_t count, int ranks, int rank, cudaStream_t s) {
  exact_fill_kernel<<<blocks_for(count), kThreads, 0, s>>>(reinterpret_cast<__nv_bfloat16*>(data),
                                                           count, ranks, rank);
  PERFGATE_CHECK_LAUNCH("exact_fill_kernel");
}

void exact_pass_count_wrong(const Bf16Bits* data, std::size_t first, std::size_t count, int ranks,
                            unsigned long long* wrong, cudaStream_t s) {
  exact_wrong_kernel<<<blocks_for(count), kThreads, 0, s>>>(
      reinterpret_cast<const __nv_bfloat16*>(data), first, count, ranks, wrong);
  PERFGATE_CHECK_LAUNCH("exact_wrong_kernel");
}

void spin(double microseconds, cudaStream_t s) {
  if (microseconds <= 0) return;
  spin_kernel<<<1, 1, 0, s>>>(static_cast<unsigned long long>(microseconds * 1e3));
  PERFGATE_CHECK_LAUNCH("spin_kernel");
}

}  // namespace perfgate::step_proxy::gpu
