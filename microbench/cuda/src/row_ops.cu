// Row-wise operators (RMSNorm, LayerNorm with residual, softmax): one block per row, the row
// held in registers between the reduction and the write, 128-bit accesses throughout.
#include <algorithm>

#include "dispatch.cuh"
#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/fused_ops.hpp"
#include "vec.cuh"

namespace perfgate::cuda {
namespace kernels {
namespace {

constexpr int kMaxThreads = 1024;
constexpr int kMaxVecs = 4;  // per thread: a row of up to 4096 vectors in one block's registers

// Just enough warps to hold the row in registers at `per_thread` vectors per thread.
unsigned row_threads(std::int64_t vecs, int per_thread = kMaxVecs) {
  const std::int64_t threads = (vecs + per_thread - 1) / per_thread;
  return unsigned(std::max<std::int64_t>(32, (threads + 31) / 32 * 32));
}

// Vectors per thread of a norm's block: kMaxVecs (fewest threads), or one where the row has at
// most 1024 vectors (most threads: fewer registers per thread, so more resident warps).
int norm_vectors_per_thread(std::int64_t vecs, RowBlock block) {
  return block == RowBlock::most_threads && vecs <= kMaxThreads ? 1 : kMaxVecs;
}

// The row stays in registers as stored 128-bit words (x + r is rounded to T anyway, because the
// stored residual is what the next layer reads and what is normalised): with fp32 values a
// 1024-thread block spilled at its 64-register limit.
template <class T, int kVecs>
__global__ void __launch_bounds__(kMaxThreads) norm_residual_kernel(NormArgs a, bool layernorm) {
  using V = Vec<T>;
  const std::int64_t row = blockIdx.x;
  const int vecs = int(a.shape.hidden / V::width);
  const T* x = static_cast<const T*>(a.x) + row * a.shape.hidden;
  const T* r = a.residual ? static_cast<const T*>(a.residual) + row * a.shape.hidden : nullptr;
  T* h_out = a.residual_out ? static_cast<T*>(a.residual_out) + row * a.shape.hidden : nullptr;
  uint4 h[kVecs], rw[kVecs];
  // Every load issued before the first use: several 128-bit requests in flight per thread.
#pragma unroll
  for (int i = 0; i < kVecs; ++i) {
    const int vi = threadIdx.x + i * int(blockDim.x);
    if (vi < vecs) {
      h[i] = V::load_word(x + vi * V::width);
      if (r) rw[i] = V::load_word(r + vi * V::width);
    }
  }
  float sum = 0, sq = 0;
#pragma unroll
  for (int i = 0; i < kVecs; ++i) {
    const int vi = threadIdx.x + i * int(blockDim.x);
    if (vi >= vecs) break;
    V hv;
    hv.unpack(h[i]);
    if (r) {
      V rv;
      rv.unpack(rw[i]);
#pragma unroll
      for (int j = 0; j < V::width; ++j) hv.v[j] += rv.v[j];
      h[i] = hv.pack();
      hv.unpack(h[i]);  // the rounded sum
    }
    if (h_out) *reinterpret_cast<uint4*>(h_out + vi * V::width) = h[i];
#pragma unroll
    for (int j = 0; j < V::width; ++j) {
      sum += hv.v[j];
      sq += hv.v[j] * hv.v[j];
    }
  }
  const float n = float(a.shape.hidden);
  float mean = 0, inv = 0;
  if (layernorm) {
    mean = block_reduce<false>(sum) / n;
    float centred = 0;
#pragma unroll
    for (int i = 0; i < kVecs; ++i) {
      const int vi = threadIdx.x + i * int(blockDim.x);
      if (vi >= vecs) break;
      V hv;
      hv.unpack(h[i]);
#pragma unroll
      for (int j = 0; j < V::width; ++j) centred += (hv.v[j] - mean) * (hv.v[j] - mean);
    }
    inv = rsqrtf(block_reduce<false>(centred) / n + a.eps);
  } else {
    inv = rsqrtf(block_reduce<false>(sq) / n + a.eps);
  }
  T* y = static_cast<T*>(a.y) + row * a.shape.hidden;
#pragma unroll
  for (int i = 0; i < kVecs; ++i) {
    const int vi = threadIdx.x + i * int(blockDim.x);
    if (vi >= vecs) break;
    V hv, w, b;
    hv.unpack(h[i]);
    w.load(static_cast<const T*>(a.weight) + vi * V::width);
    if (layernorm) b.load(static_cast<const T*>(a.bias) + vi * V::width);
#pragma unroll
    for (int j = 0; j < V::width; ++j)
      hv.v[j] = (hv.v[j] - mean) * inv * w.v[j] + (layernorm ? b.v[j] : 0.0f);
    hv.store(y + vi * V::width);
  }
}

template <class T>
__global__ void add_kernel(const T* x, const T* r, T* out, std::int64_t vecs) {
  using V = Vec<T>;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < vecs;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    V a, b;
    a.load(x + i * V::width);
    b.load(r + i * V::width);
#pragma unroll
    for (int j = 0; j < V::width; ++j) a.v[j] += b.v[j];
    a.store(out + i * V::width);
  }
}

template <class T>
__global__ void __launch_bounds__(kMaxThreads) softmax_kernel(const T* x, T* y, std::int64_t cols) {
  using V = Vec<T>;
  const int vecs = int(cols / V::width);
  x += blockIdx.x * cols;
  y += blockIdx.x * cols;
  V v[kMaxVecs];
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < kMaxVecs; ++i) {
    const int vi = threadIdx.x + i * int(blockDim.x);
    if (vi < vecs) v[i].load(x + vi * V::width);
  }
#pragma unroll
  for (int i = 0; i < kMaxVecs; ++i) {
    const int vi = threadIdx.x + i * int(blockDim.x);
    if (vi >= vecs) break;
#pragma unroll
    for (int j = 0; j < V::width; ++j) m = fmaxf(m, v[i].v[j]);
  }
  m = block_reduce<true>(m);
  float s = 0;
#pragma unroll
  for (int i = 0; i < kMaxVecs; ++i) {
    const int vi = threadIdx.x + i * int(blockDim.x);
    if (vi >= vecs) break;
#pragma unroll
    for (int j = 0; j < V::width; ++j) {
      v[i].v[j] = __expf(v[i].v[j] - m);
      s += v[i].v[j];
    }
  }
  const float inv = 1.0f / block_reduce<false>(s);
#pragma unroll
  for (int i = 0; i < kMaxVecs; ++i) {
    const int vi = threadIdx.x + i * int(blockDim.x);
    if (vi >= vecs) break;
#pragma unroll
    for (int j = 0; j < V::width; ++j) v[i].v[j] *= inv;
    v[i].store(y + vi * V::width);
  }
}

// Unfused softmax, pass 1: row max. Pass 2: row sum of exp. Pass 3: normalise.
template <class T>
__global__ void row_max_kernel(const T* x, float* out, std::int64_t cols) {
  using V = Vec<T>;
  x += blockIdx.x * cols;
  float m = -INFINITY;
  for (std::int64_t vi = threadIdx.x; vi < cols / V::width; vi += blockDim.x) {
    V v;
    v.load(x + vi * V::width);
#pragma unroll
    for (int j = 0; j < V::width; ++j) m = fmaxf(m, v.v[j]);
  }
  m = block_reduce<true>(m);
  if (threadIdx.x == 0) out[blockIdx.x] = m;
}
template <class T>
__global__ void row_expsum_kernel(const T* x, const float* row_max, float* out, std::int64_t cols) {
  using V = Vec<T>;
  x += blockIdx.x * cols;
  const float m = row_max[blockIdx.x];
  float s = 0;
  for (std::int64_t vi = threadIdx.x; vi < cols / V::width; vi += blockDim.x) {
    V v;
    v.load(x + vi * V::width);
#pragma unroll
    for (int j = 0; j < V::width; ++j) s += __expf(v.v[j] - m);
  }
  s = block_reduce<false>(s);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
template <class T>
__global__ void row_normalise_kernel(const T* x, const float* row_max, const float* row_sum, T* y,
                                     std::int64_t cols) {
  using V = Vec<T>;
  x += blockIdx.x * cols;
  y += blockIdx.x * cols;
  const float m = row_max[blockIdx.x], inv = 1.0f / row_sum[blockIdx.x];
  for (std::int64_t vi = threadIdx.x; vi < cols / V::width; vi += blockDim.x) {
    V v;
    v.load(x + vi * V::width);
#pragma unroll
    for (int j = 0; j < V::width; ++j) v.v[j] = __expf(v.v[j] - m) * inv;
    v.store(y + vi * V::width);
  }
}

// Scores in fp32 (from a GEMM), any length: scale, causal mask, softmax, store T.
template <class T>
__global__ void masked_softmax_kernel(const float* x, T* y, std::int64_t rows, std::int64_t cols,
                                      bool causal, float scale) {
  const std::int64_t row = blockIdx.x;
  const std::int64_t in_matrix = row % rows;
  const std::int64_t last = causal ? in_matrix + cols - rows : cols - 1;  // last visible column
  x += row * cols;
  y += row * cols;
  float m = -INFINITY;
  for (std::int64_t c = threadIdx.x; c <= last && c < cols; c += blockDim.x)
    m = fmaxf(m, x[c] * scale);
  m = block_reduce<true>(m);
  float s = 0;
  for (std::int64_t c = threadIdx.x; c <= last && c < cols; c += blockDim.x)
    s += __expf(x[c] * scale - m);
  const float inv = 1.0f / block_reduce<false>(s);
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x)
    y[c] = Vec<T>::from_float(c <= last ? __expf(x[c] * scale - m) * inv : 0.0f);
}

template <class T>
void launch_add(const void* x, const void* r, void* out, std::int64_t elements, cudaStream_t s) {
  const std::int64_t vecs = elements / Vec<T>::width;
  const unsigned blocks = unsigned(std::min<std::int64_t>(blocks_for(vecs, 256), 65535 * 8));
  add_kernel<T><<<blocks, 256, 0, s>>>(static_cast<const T*>(x), static_cast<const T*>(r),
                                       static_cast<T*>(out), vecs);
  PERFGATE_CHECK_LAUNCH("add_kernel");
}

void norm(Precision p, const NormArgs& a, bool layernorm, bool fused, cudaStream_t s,
          RowBlock block = RowBlock::fewest_threads) {
  validate_row_shape(a.shape, p);
  dispatch_storage(p, [&](auto tag) {
    using T = decltype(tag);
    NormArgs k = a;
    if (!fused) {
      // Baseline: the residual add is its own kernel; the norm then re-reads its output.
      launch_add<T>(a.x, a.residual, a.residual_out, a.shape.rows * a.shape.hidden, s);
      k.x = a.residual_out;
      k.residual = nullptr;
      k.residual_out = nullptr;
    }
    const std::int64_t vecs = a.shape.hidden / Vec<T>::width;
    const int per_thread = norm_vectors_per_thread(vecs, block);
    auto kernel = per_thread == 1 ? norm_residual_kernel<T, 1> : norm_residual_kernel<T, kMaxVecs>;
    kernel<<<unsigned(a.shape.rows), row_threads(vecs, per_thread), 0, s>>>(k, layernorm);
    PERFGATE_CHECK_LAUNCH("norm_residual_kernel");
  });
}

}  // namespace
}  // namespace kernels

void validate_row_shape(RowShape s, Precision p) {
  if (s.rows <= 0 || s.hidden <= 0)
    throw InputError("cuda row operator: rows and hidden must be positive");
  if (s.rows > 2147483647) throw InputError("cuda row operator: rows must fit a grid dimension");
  const std::int64_t width = 16 / std::int64_t(element_bytes(p));
  if (s.hidden % width != 0)
    throw InputError("cuda row operator: hidden (" + std::to_string(s.hidden) +
                     ") must be a multiple of " + std::to_string(width) +
                     " for 128-bit access in " + to_string(p));
  if (s.hidden / width > kernels::kMaxThreads * kernels::kMaxVecs)
    throw InputError("cuda row operator: hidden (" + std::to_string(s.hidden) + ") exceeds " +
                     std::to_string(kernels::kMaxThreads * kernels::kMaxVecs * width) +
                     " elements in " + to_string(p));
}

void rmsnorm_residual_fused(Precision p, const NormArgs& a, cudaStream_t s, RowBlock block) {
  kernels::norm(p, a, false, true, s, block);
}
void rmsnorm_residual_unfused(Precision p, const NormArgs& a, cudaStream_t s) {
  kernels::norm(p, a, false, false, s);
}
void layernorm_residual_fused(Precision p, const NormArgs& a, cudaStream_t s, RowBlock block) {
  kernels::norm(p, a, true, true, s, block);
}
void layernorm_residual_unfused(Precision p, const NormArgs& a, cudaStream_t s) {
  kernels::norm(p, a, true, false, s);
}

void softmax_fused(Precision p, const void* x, void* y, RowShape shape, cudaStream_t s) {
  validate_row_shape(shape, p);
  kernels::dispatch_storage(p, [&](auto tag) {
    using T = decltype(tag);
    kernels::softmax_kernel<T>
        <<<unsigned(shape.rows), kernels::row_threads(shape.hidden / kernels::Vec<T>::width), 0,
           s>>>(static_cast<const T*>(x), static_cast<T*>(y), shape.hidden);
    PERFGATE_CHECK_LAUNCH("softmax_kernel");
  });
}

void softmax_unfused(Precision p, const void* x, void* y, float* scratch, RowShape shape,
                     cudaStream_t s) {
  validate_row_shape(shape, p);
  kernels::dispatch_storage(p, [&](auto tag) {
    using T = decltype(tag);
    const unsigned rows = unsigned(shape.rows);
    const T* in = static_cast<const T*>(x);
    kernels::row_max_kernel<T><<<rows, 256, 0, s>>>(in, scratch, shape.hidden);
    PERFGATE_CHECK_LAUNCH("row_max_kernel");
    kernels::row_expsum_kernel<T><<<rows, 256, 0, s>>>(in, scratch, scratch + rows, shape.hidden);
    PERFGATE_CHECK_LAUNCH("row_expsum_kernel");
    kernels::row_normalise_kernel<T>
        <<<rows, 256, 0, s>>>(in, scratch, scratch + rows, static_cast<T*>(y), shape.hidden);
    PERFGATE_CHECK_LAUNCH("row_normalise_kernel");
  });
}

void masked_softmax_f32_in(Precision out, const float* x, void* y, RowShape shape,
                           std::int64_t matrices, bool causal, float scale, cudaStream_t s) {
  if (out == Precision::f32 || out == Precision::fp8)
    throw InputError("cuda masked softmax: output must be bf16 or f16");
  if (shape.rows <= 0 || shape.hidden <= 0 || matrices <= 0)
    throw InputError("cuda masked softmax: rows, columns and matrices must be positive");
  // One block per row of every matrix.
  if (shape.rows > 2147483647 / matrices)
    throw InputError("cuda masked softmax: rows (" + std::to_string(shape.rows) + ") x matrices (" +
                     std::to_string(matrices) + ") must fit a grid dimension (2^31 - 1)");
  kernels::dispatch_storage(out, [&](auto tag) {
    using T = decltype(tag);
    kernels::masked_softmax_kernel<T><<<unsigned(shape.rows * matrices), 256, 0, s>>>(
        x, static_cast<T*>(y), shape.rows, shape.hidden, causal, scale);
    PERFGATE_CHECK_LAUNCH("masked_softmax_kernel");
  });
}

}  // namespace perfgate::cuda
