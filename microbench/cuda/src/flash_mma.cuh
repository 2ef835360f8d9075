#pragma once
// The warp-level building blocks of the flash attention kernels: mma.sync m16n8k16 with fp32
// accumulators, bf16/f16 packing, cp.async (optionally zero-filling) and ldmatrix fragment loads.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "fast_math.cuh"
#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::cuda::flash {

template <class T>
__device__ __forceinline__ void mma16816(float (&d)[4], const std::uint32_t (&a)[4],
                                         std::uint32_t b0, std::uint32_t b1) {
  if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, "
        "{%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  } else {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
}

template <class T>
__device__ __forceinline__ std::uint32_t pack(float lo, float hi) {
  if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<std::uint32_t*>(&v);
  } else {
    __half2 v = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<std::uint32_t*>(&v);
  }
}

__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
  const unsigned addr = unsigned(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(addr), "l"(gmem));
}
// As cp_async16, but the 16 shared bytes are zero-filled when `valid` is false (nothing is read).
__device__ __forceinline__ void cp_async16_or_zero(void* smem, const void* gmem, bool valid) {
  const unsigned addr = unsigned(__cvta_generic_to_shared(smem));
  const unsigned bytes = valid ? 16u : 0u;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(addr), "l"(gmem),
               "r"(bytes));
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::);
}
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

// Two B-fragments (n-tiles n0 and n0+8, k16) of a row-major [n][k] tile: K for S = QK^T. One
// instruction per two mma instead of two 32-bit shared loads per mma, which kept the issue slots
// of the S product busy with loads.
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], const void* smem) {
  const unsigned addr = unsigned(__cvta_generic_to_shared(smem));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

// Two B-fragments (n-tiles n0 and n0+8) of a row-major [k][n] tile, transposed on load: V for
// O += PV.
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], const void* smem) {
  const unsigned addr = unsigned(__cvta_generic_to_shared(smem));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

// Copies K/V tile `tile` (kBc rows of D elements, row stride kv_stride in global memory) into
// one stage's shared tiles (row stride kStride) with cp.async and commits the group. kPacked:
// rows at or past len_kv are zero-filled, and their addresses not read.
template <class T, int D, int kBc, int kThreads, int kStride, bool kPacked>
__device__ __forceinline__ void load_kv_tile(T* ks, T* vs, const T* kb, const T* vb,
                                             std::int64_t kv_stride, int tile, int len_kv) {
  constexpr int chunks_per_row = D * int(sizeof(T)) / 16;
#pragma unroll
  for (int c = threadIdx.x; c < kBc * chunks_per_row; c += kThreads) {
    const int row = c / chunks_per_row, col = (c % chunks_per_row) * (16 / int(sizeof(T)));
    const std::int64_t src = std::int64_t(tile * kBc + row) * kv_stride + col;
    if constexpr (kPacked) {
      const bool valid = tile * kBc + row < len_kv;
      cp_async16_or_zero(ks + row * kStride + col, valid ? kb + src : kb, valid);
      cp_async16_or_zero(vs + row * kStride + col, valid ? vb + src : vb, valid);
    } else {
      cp_async16(ks + row * kStride + col, kb + src);
      cp_async16(vs + row * kStride + col, vb + src);
    }
  }
  cp_async_commit();
}

// The double-buffer step at the top of a K/V tile: start copying the next tile (if any) into the
// other stage, wait for this one, and make it visible to the block.
template <class LoadTile>
__device__ __forceinline__ void await_tile(int tile, int tiles, LoadTile&& load_tile) {
  if (tile + 1 < tiles) {
    load_tile((tile + 1) & 1, tile + 1);
    cp_async_wait<1>();
  } else {
    cp_async_wait<0>();
  }
  __syncthreads();
}

// d[m][n0] += a[m] * (b[0], b[1]) and d[m][n0 + 1] += a[m] * (b[2], b[3]) for each of kM m16
// tiles: one ldmatrix.x4's two B-fragments against every A-fragment of the warp.
template <class T, int kM, int kN>
__device__ __forceinline__ void mma_pairs(float (&d)[kM][kN][4], const std::uint32_t (&a)[kM][4],
                                          const std::uint32_t (&b)[4], int n0) {
#pragma unroll
  for (int m = 0; m < kM; ++m) {
    mma16816<T>(d[m][n0], a[m], b[0], b[1]);
    mma16816<T>(d[m][n0 + 1], a[m], b[2], b[3]);
  }
}

// Shared-memory element offsets of the ldmatrix.x4 fragments, per lane, in a tile with row
// stride `stride`. A of S = QK^T (rows row0.., dims kk*16..): lanes 0-15 address rows, 16-31
// the same rows 8 dims on.
__device__ __forceinline__ int a_fragment_offset(int row0, int kk, int lane, int stride) {
  return (row0 + (lane & 15)) * stride + kk * 16 + (lane >> 4) * 8;
}
// K for S: lanes 0-7 address keys nt*8.., dims kk*16..; 8-15 dims +8; 16-23 keys +8; 24-31 both.
__device__ __forceinline__ int k_fragment_offset(int nt, int kk, int lane, int stride) {
  return (nt * 8 + (lane & 7) + ((lane >> 4) & 1) * 8) * stride + kk * 16 + ((lane >> 3) & 1) * 8;
}
// V for O += PV (transposed on load): keys kk*16.., dims dt*8.. and dt*8 + 8...
__device__ __forceinline__ int v_fragment_offset(int kk, int dt, int lane, int stride) {
  return (kk * 16 + (lane & 7) + ((lane >> 3) & 1) * 8) * stride + dt * 8 + (lane >> 4) * 8;
}

// One m16 tile's online-softmax step over a tile of kN/8 key groups: scores s (this thread's
// entries of rows g and g + 8) become exp2(s * scale_log2 - running max), the running max and
// this thread's share of the running sum are updated, and acc (those rows of O) rescaled. The
// exponentials flush subnormal results (a probability below 2^-126 of the row's largest, 1, adds
// nothing): the IEEE form spends several instructions per exponential on them.
template <int kN, int D>
__device__ __forceinline__ void online_softmax(float (&s)[kN][4], float (&row_max)[2],
                                               float (&row_sum)[2], float (&acc)[D / 8][4],
                                               float scale_log2) {
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    float mx = -INFINITY;
#pragma unroll
    for (int nt = 0; nt < kN; ++nt) mx = fmaxf(mx, fmaxf(s[nt][2 * r], s[nt][2 * r + 1]));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
    const float m_new = fmaxf(row_max[r], mx * scale_log2);
    const float m_use = m_new == -INFINITY ? 0.0f : m_new;  // a fully masked row so far
    float sum = 0;
#pragma unroll
    for (int nt = 0; nt < kN; ++nt) {
      s[nt][2 * r] = kernels::exp2_ftz(s[nt][2 * r] * scale_log2 - m_use);
      s[nt][2 * r + 1] = kernels::exp2_ftz(s[nt][2 * r + 1] * scale_log2 - m_use);
      sum += s[nt][2 * r] + s[nt][2 * r + 1];
    }
    // Past the first tiles a row's running max rarely grows: the rescale factor would be exactly
    // 1 and its D/4 multiplies of the accumulators are skipped (the quad agrees on the max).
    // row_sum is this thread's share; the quad is summed at the end.
    if (m_new != row_max[r]) {
      const float alpha = kernels::exp2_ftz(row_max[r] - m_use);
      row_max[r] = m_new;
      row_sum[r] = fmaf(row_sum[r], alpha, sum);  // one rounding, as before the skip
#pragma unroll
      for (int dt = 0; dt < D / 8; ++dt) {
        acc[dt][2 * r] *= alpha;
        acc[dt][2 * r + 1] *= alpha;
      }
    } else {
      row_sum[r] += sum;
    }
  }
}

// The A-fragment of P for keys kk*16 .. kk*16 + 15, packed from the probabilities' registers.
template <class T, int kN>
__device__ __forceinline__ void probability_fragment(std::uint32_t (&a)[4], const float (&s)[kN][4],
                                                     int kk) {
  a[0] = pack<T>(s[2 * kk][0], s[2 * kk][1]);
  a[1] = pack<T>(s[2 * kk][2], s[2 * kk][3]);
  a[2] = pack<T>(s[2 * kk + 1][0], s[2 * kk + 1][1]);
  a[3] = pack<T>(s[2 * kk + 1][2], s[2 * kk + 1][3]);
}

// O rows g and g + 8 of an m16 tile (orow: row g's first element for this thread, 2t), divided
// by the quad's summed row sums; a row whose `keep` is false is not stored.
template <class T, int D>
__device__ __forceinline__ void store_output(T* orow, std::int64_t q_stride,
                                             const float (&acc)[D / 8][4],
                                             const float (&row_sum)[2], const bool (&keep)[2]) {
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    float sum = row_sum[r];
    sum += __shfl_xor_sync(0xffffffffu, sum, 1);
    sum += __shfl_xor_sync(0xffffffffu, sum, 2);
    const float inv = sum > 0 ? 1.0f / sum : 0.0f;
    if (!keep[r]) continue;
    T* row = orow + r * 8 * q_stride;
#pragma unroll
    for (int dt = 0; dt < D / 8; ++dt)
      *reinterpret_cast<std::uint32_t*>(row + dt * 8) =
          pack<T>(acc[dt][2 * r] * inv, acc[dt][2 * r + 1] * inv);
  }
}

// Host side: calls f(T{}, std::integral_constant<int, D>{}) with the storage type of `p` (bf16,
// else f16) and head_dim D (128, else 64): the launchers' supported() checks come first.
template <class F>
void dispatch_types(Precision p, std::int64_t head_dim, F&& f) {
  const auto with_type = [&](auto type) {
    if (head_dim == 128)
      f(type, std::integral_constant<int, 128>{});
    else
      f(type, std::integral_constant<int, 64>{});
  };
  if (p == Precision::bf16)
    with_type(__nv_bfloat16{});
  else
    with_type(__half{});
}

}  // namespace perfgate::cuda::flash
