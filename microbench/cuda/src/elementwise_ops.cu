// Elementwise operators (bias+GeLU, SwiGLU, RoPE in the rotate-half form) and a plain copy, 128-bit
// accesses in a grid-stride loop; the unfused baselines run one kernel per stage through device
// memory. Also the checks' helpers: seeded fills and a row gather.
#include <cuda_fp8.h>

#include <algorithm>
#include <cstdint>

#include "dispatch.cuh"
#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/fused_ops.hpp"
#include "vec.cuh"

namespace perfgate::cuda {
namespace kernels {
namespace {

constexpr int kThreads = 256;

unsigned grid_for(std::int64_t vecs) {
  // Enough resident blocks to keep every SM's memory pipeline full; the loop covers the rest.
  return unsigned(std::clamp<std::int64_t>(blocks_for(vecs, kThreads), 1, 132 * 32));
}

#define PERFGATE_GRID_STRIDE(i, n)                                                    \
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < (n); \
       i += std::int64_t(gridDim.x) * blockDim.x)

enum class Stage { bias, gelu, bias_gelu };

// InPlace: x overlaps y (the unfused GeLU pass, a GEMM epilogue applied to its output), so x is
// read with coherent loads. Each thread takes kUnroll vectors per pass and issues their loads
// before the first GeLU: with one 128-bit load in flight per thread the arithmetic between load
// and store went unhidden (bias+GeLU reached 80 % of the copy bandwidth on 2026-11-29, where
// SwiGLU, with two loads per thread, reached 96 %). The bias column is carried from vector to
// vector instead of a 64-bit remainder per vector.
template <class T, bool InPlace>
__global__ void bias_gelu_kernel(const T* x, const T* bias, T* y, std::int64_t vecs,
                                 std::int64_t cols, Stage stage) {
  using V = Vec<T>;
  constexpr int kUnroll = 2;
  const std::int64_t row_vecs = cols / V::width;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  const std::int64_t column_step = stride % row_vecs;
  auto next_column = [&](std::int64_t c) {
    c += column_step;
    return c >= row_vecs ? c - row_vecs : c;
  };
  std::int64_t first = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  std::int64_t column = first % row_vecs;
  for (; first < vecs; first += kUnroll * stride) {
    V v[kUnroll];
    std::int64_t at[kUnroll], col[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      at[u] = first + u * stride;
      col[u] = u == 0 ? column : next_column(col[u - 1]);
      if (at[u] >= vecs) continue;
      if constexpr (InPlace) {
        v[u].load_plain(x + at[u] * V::width);
      } else {
        v[u].load(x + at[u] * V::width);
      }
    }
    column = next_column(col[kUnroll - 1]);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (at[u] >= vecs) continue;
      if (stage != Stage::gelu) {
        V b;
        b.load(bias + col[u] * V::width);
#pragma unroll
        for (int j = 0; j < V::width; ++j) v[u].v[j] += b.v[j];
      }
      if (stage != Stage::bias) {
#pragma unroll
        for (int j = 0; j < V::width; ++j) v[u].v[j] = gelu_tanh(v[u].v[j]);
      }
      v[u].store(y + at[u] * V::width);
    }
  }
}

enum class Glu { fused, silu_only, multiply };

template <class T>
__global__ void swiglu_kernel(const T* gate_up, T* y, std::int64_t vecs, std::int64_t hidden,
                              Glu stage) {
  using V = Vec<T>;
  const std::int64_t row_vecs = hidden / V::width;
  PERFGATE_GRID_STRIDE(i, vecs) {
    const std::int64_t row = i / row_vecs, col = (i % row_vecs) * V::width;
    const T* gate = gate_up + row * 2 * hidden + col;
    V g, u;
    if (stage == Glu::multiply) {
      g.load_plain(y + i * V::width);  // silu(gate) from the first pass, rewritten here
    } else {
      g.load(gate);
#pragma unroll
      for (int j = 0; j < V::width; ++j) g.v[j] = silu(g.v[j]);
    }
    if (stage != Glu::silu_only) {
      u.load(gate + hidden);
#pragma unroll
      for (int j = 0; j < V::width; ++j) g.v[j] *= u.v[j];
    }
    g.store(y + i * V::width);
  }
}

__global__ void rope_table_kernel(float2* table, std::int64_t tokens, std::int64_t half,
                                  float theta) {
  PERFGATE_GRID_STRIDE(i, tokens * half) {
    const std::int64_t pos = i / half, pair = i % half;
    // Double precision: positions reach 10^4 and the angle must not lose its low bits.
    const double inv_freq = pow(double(theta), -2.0 * double(pair) / double(2 * half));
    double s, c;
    sincos(double(pos) * inv_freq, &s, &c);
    table[i] = make_float2(float(c), float(s));
  }
}

enum class Rope { fused, cos_part, sin_part };

// Rotate-half form: element i of the first half pairs with element i of the second half,
// y1 = x1·cos − x2·sin, y2 = x2·cos + x1·sin. One thread takes a vector of each half.
template <class T>
__global__ void rope_kernel(const T* x, const float2* table, const T* partial, T* y,
                            std::int64_t vecs, std::int64_t heads, std::int64_t head_dim,
                            std::int64_t positions, Rope stage) {
  using V = Vec<T>;
  const std::int64_t half = head_dim / 2, half_vecs = half / V::width;
  PERFGATE_GRID_STRIDE(i, vecs) {
    const std::int64_t row = i / half_vecs;  // token * heads + head
    const std::int64_t pair0 = (i % half_vecs) * V::width;
    const float2* cs = table + (row / heads % positions) * half + pair0;
    const std::int64_t lo = row * head_dim + pair0, hi = lo + half;
    V x1, x2, y1, y2, p1, p2;
    x1.load(x + lo);
    x2.load(x + hi);
    if (stage == Rope::sin_part) {
      p1.load(partial + lo);
      p2.load(partial + hi);
    }
#pragma unroll
    for (int j = 0; j < V::width; ++j) {
      const float2 c = __ldg(cs + j);
      const float a = x1.v[j], b = x2.v[j];
      if (stage == Rope::fused) {
        y1.v[j] = a * c.x - b * c.y;
        y2.v[j] = b * c.x + a * c.y;
      } else if (stage == Rope::cos_part) {
        y1.v[j] = a * c.x;
        y2.v[j] = b * c.x;
      } else {
        y1.v[j] = p1.v[j] - b * c.y;
        y2.v[j] = p2.v[j] + a * c.y;
      }
    }
    y1.store(y + lo);
    y2.store(y + hi);
  }
}

__global__ void copy_vec_kernel(const uint4* src, uint4* dst, std::int64_t n) {
  PERFGATE_GRID_STRIDE(i, n) dst[i] = __ldg(src + i);
}

void require_vectorisable(std::int64_t inner, Precision p, const char* what) {
  const std::int64_t width = 16 / std::int64_t(element_bytes(p));
  if (inner <= 0 || inner % width != 0)
    throw InputError(std::string("cuda ") + what + ": inner dimension " + std::to_string(inner) +
                     " must be a positive multiple of " + std::to_string(width) + " in " +
                     to_string(p));
}

template <class T>
void bias_gelu(const void* x, const void* bias, void* y, RowShape shape, Stage stage,
               cudaStream_t s) {
  const std::int64_t vecs = shape.rows * shape.hidden / Vec<T>::width;
  const auto bytes = std::uintptr_t(vecs) * 16;
  const auto in = reinterpret_cast<std::uintptr_t>(x), out = reinterpret_cast<std::uintptr_t>(y);
  auto kernel =
      in < out + bytes && out < in + bytes ? bias_gelu_kernel<T, true> : bias_gelu_kernel<T, false>;
  kernel<<<grid_for(vecs), kThreads, 0, s>>>(static_cast<const T*>(x), static_cast<const T*>(bias),
                                             static_cast<T*>(y), vecs, shape.hidden, stage);
  PERFGATE_CHECK_LAUNCH("bias_gelu_kernel");
}

}  // namespace
}  // namespace kernels

using kernels::grid_for;
using kernels::kThreads;

void bias_gelu_fused(Precision p, const void* x, const void* bias, void* y, RowShape shape,
                     cudaStream_t s) {
  kernels::require_vectorisable(shape.hidden, p, "bias_gelu");
  kernels::dispatch_storage(p, [&](auto tag) {
    kernels::bias_gelu<decltype(tag)>(x, bias, y, shape, kernels::Stage::bias_gelu, s);
  });
}

void bias_gelu_unfused(Precision p, const void* x, const void* bias, void* y, RowShape shape,
                       cudaStream_t s) {
  kernels::require_vectorisable(shape.hidden, p, "bias_gelu");
  kernels::dispatch_storage(p, [&](auto tag) {
    kernels::bias_gelu<decltype(tag)>(x, bias, y, shape, kernels::Stage::bias, s);
    kernels::bias_gelu<decltype(tag)>(y, bias, y, shape, kernels::Stage::gelu, s);
  });
}

namespace {
void swiglu(Precision p, const void* gate_up, void* y, RowShape shape, bool fused, cudaStream_t s) {
  kernels::require_vectorisable(shape.hidden, p, "swiglu");
  kernels::dispatch_storage(p, [&](auto tag) {
    using T = decltype(tag);
    const std::int64_t vecs = shape.rows * shape.hidden / kernels::Vec<T>::width;
    const T* in = static_cast<const T*>(gate_up);
    T* out = static_cast<T*>(y);
    if (fused) {
      kernels::swiglu_kernel<T>
          <<<grid_for(vecs), kThreads, 0, s>>>(in, out, vecs, shape.hidden, kernels::Glu::fused);
      PERFGATE_CHECK_LAUNCH("swiglu_kernel");
      return;
    }
    kernels::swiglu_kernel<T>
        <<<grid_for(vecs), kThreads, 0, s>>>(in, out, vecs, shape.hidden, kernels::Glu::silu_only);
    PERFGATE_CHECK_LAUNCH("swiglu_kernel(silu)");
    kernels::swiglu_kernel<T>
        <<<grid_for(vecs), kThreads, 0, s>>>(in, out, vecs, shape.hidden, kernels::Glu::multiply);
    PERFGATE_CHECK_LAUNCH("swiglu_kernel(multiply)");
  });
}
}  // namespace

void swiglu_fused(Precision p, const void* gate_up, void* y, RowShape shape, cudaStream_t s) {
  swiglu(p, gate_up, y, shape, true, s);
}
void swiglu_unfused(Precision p, const void* gate_up, void* y, RowShape shape, cudaStream_t s) {
  swiglu(p, gate_up, y, shape, false, s);
}

void rope_table(float* table, std::int64_t positions, std::int64_t head_dim, float theta,
                cudaStream_t s) {
  if (positions <= 0 || head_dim <= 0 || head_dim % 2 != 0)
    throw InputError("cuda rope: positions must be positive and head_dim positive and even");
  const std::int64_t half = head_dim / 2;
  kernels::rope_table_kernel<<<grid_for(positions * half), kThreads, 0, s>>>(
      reinterpret_cast<float2*>(table), positions, half, theta);
  PERFGATE_CHECK_LAUNCH("rope_table_kernel");
}

namespace {
void rope(Precision p, const void* x, const float* table, std::int64_t positions, void* scratch,
          void* y, std::int64_t tokens, std::int64_t heads, std::int64_t head_dim, cudaStream_t s) {
  if (head_dim % 2 != 0)
    throw InputError("cuda rope: head_dim " + std::to_string(head_dim) + " must be even");
  kernels::require_vectorisable(head_dim / 2, p, "rope (half of head_dim)");
  if (tokens <= 0 || heads <= 0 || positions <= 0)
    throw InputError("cuda rope: tokens, heads and positions must be positive");
  kernels::dispatch_storage(p, [&](auto tag) {
    using T = decltype(tag);
    const std::int64_t vecs = tokens * heads * (head_dim / 2) / kernels::Vec<T>::width;
    const T* in = static_cast<const T*>(x);
    const auto* cs = reinterpret_cast<const float2*>(table);
    T* out = static_cast<T*>(y);
    auto launch = [&](const T* partial, T* dst, kernels::Rope stage, const char* name) {
      kernels::rope_kernel<T><<<grid_for(vecs), kThreads, 0, s>>>(in, cs, partial, dst, vecs, heads,
                                                                  head_dim, positions, stage);
      PERFGATE_CHECK_LAUNCH(name);
    };
    if (scratch == nullptr) {
      launch(nullptr, out, kernels::Rope::fused, "rope_kernel");
      return;
    }
    T* part = static_cast<T*>(scratch);
    launch(nullptr, part, kernels::Rope::cos_part, "rope_kernel(cos)");
    launch(part, out, kernels::Rope::sin_part, "rope_kernel(sin)");
  });
}
}  // namespace

void rope_fused(Precision p, const void* x, const float* table, std::int64_t positions, void* y,
                std::int64_t tokens, std::int64_t heads, std::int64_t head_dim, cudaStream_t s) {
  rope(p, x, table, positions, nullptr, y, tokens, heads, head_dim, s);
}
void rope_unfused(Precision p, const void* x, const float* table, std::int64_t positions,
                  void* scratch, void* y, std::int64_t tokens, std::int64_t heads,
                  std::int64_t head_dim, cudaStream_t s) {
  if (scratch == nullptr) throw InputError("cuda rope: the unfused form needs a scratch tensor");
  rope(p, x, table, positions, scratch, y, tokens, heads, head_dim, s);
}

void copy_kernel(const void* src, void* dst, std::size_t bytes, cudaStream_t s) {
  if (bytes % 16 != 0) throw InputError("cuda copy: size must be a multiple of 16 bytes");
  const std::int64_t n = std::int64_t(bytes / 16);
  kernels::copy_vec_kernel<<<grid_for(n), kThreads, 0, s>>>(static_cast<const uint4*>(src),
                                                            static_cast<uint4*>(dst), n);
  PERFGATE_CHECK_LAUNCH("copy_vec_kernel");
}

}  // namespace perfgate::cuda

namespace perfgate::cuda {
namespace kernels {
namespace {
__device__ __forceinline__ float seeded_value(std::uint64_t seed, std::int64_t i) {
  std::uint64_t z = seed + std::uint64_t(i) * 0x9E3779B97F4A7C15ull;  // splitmix64
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  const float magnitude = 0.25f + 0.75f * float(z >> 40) * (1.0f / 16777216.0f);
  return (z & 1) ? -magnitude : magnitude;
}
template <class T>
__global__ void fill_random_kernel(T* data, std::int64_t n, std::uint64_t seed) {
  PERFGATE_GRID_STRIDE(i, n) data[i] = Vec<T>::from_float(seeded_value(seed, i));
}
__global__ void fill_random_fp8_kernel(__nv_fp8_e4m3* data, std::int64_t n, std::uint64_t seed) {
  PERFGATE_GRID_STRIDE(i, n) data[i] = __nv_fp8_e4m3(seeded_value(seed, i));
}
// One block per gathered row (grid-stride over rows), its threads over the row's bytes.
__global__ void gather_rows_kernel(const unsigned char* src, std::int64_t row_bytes,
                                   const std::int64_t* rows, std::int64_t count,
                                   unsigned char* dst) {
  for (std::int64_t r = blockIdx.x; r < count; r += gridDim.x) {
    const unsigned char* from = src + rows[r] * row_bytes;
    for (std::int64_t b = threadIdx.x; b < row_bytes; b += blockDim.x)
      dst[r * row_bytes + b] = from[b];
  }
}
}  // namespace
}  // namespace kernels

void fill_random(Precision p, void* data, std::size_t count, std::uint64_t seed, cudaStream_t s) {
  const auto n = std::int64_t(count);
  if (p == Precision::fp8) {
    kernels::fill_random_fp8_kernel<<<grid_for(n), kThreads, 0, s>>>(
        static_cast<__nv_fp8_e4m3*>(data), n, seed);
    PERFGATE_CHECK_LAUNCH("fill_random_fp8_kernel");
    return;
  }
  kernels::dispatch_storage(p, [&](auto tag) {
    using T = decltype(tag);
    kernels::fill_random_kernel<T><<<grid_for(n), kThreads, 0, s>>>(static_cast<T*>(data), n, seed);
    PERFGATE_CHECK_LAUNCH("fill_random_kernel");
  });
}

void gather_rows(const void* src, std::size_t row_bytes, const std::int64_t* rows,
                 std::size_t count, void* dst, cudaStream_t s) {
  if (count == 0 || row_bytes == 0) return;
  const auto blocks = unsigned(std::min<std::size_t>(count, 132 * 32));
  kernels::gather_rows_kernel<<<blocks, kThreads, 0, s>>>(
      static_cast<const unsigned char*>(src), std::int64_t(row_bytes), rows, std::int64_t(count),
      static_cast<unsigned char*>(dst));
  PERFGATE_CHECK_LAUNCH("gather_rows_kernel");
}

}  // namespace perfgate::cuda
