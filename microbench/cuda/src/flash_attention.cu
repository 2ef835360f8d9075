// FlashAttention-2-style forward: a block of 4 warps owns 64 queries (16 per warp, Q held in
// registers as mma A-fragments); 64-key K/V tiles stream through shared memory in two
// cp.async stages; S = QK^T and O += PV run on mma.sync m16n8k16 with fp32 accumulators, and
// the softmax is the online (running max, rescaled sum) form, P reused from S's registers.
// Packed variable-length batches are a second instantiation (kPacked): each block reads its
// sequence's offsets, rows past the sequence are zero-filled on load, masked keys and unstored
// queries; the uniform instantiation compiles without any of those guards.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>

#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"

namespace perfgate::cuda {
namespace {

constexpr int kBr = 64, kBc = 64, kWarps = 4, kThreads = kWarps * 32, kPad = 8;

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

// Where a block's sequence starts (in rows) and how long it is.
struct SequenceRows {
  std::int64_t q_begin, kv_begin;
  int len_q, len_kv;
};

template <bool kPacked>
__device__ __forceinline__ SequenceRows sequence_rows(int batch, int seq_q, int seq_kv,
                                                      const int* cu_q, const int* cu_kv) {
  if constexpr (kPacked) {
    const int q0 = cu_q[batch], kv0 = cu_kv[batch];
    return {q0, kv0, cu_q[batch + 1] - q0, cu_kv[batch + 1] - kv0};
  } else {
    return {std::int64_t(batch) * seq_q, std::int64_t(batch) * seq_kv, seq_q, seq_kv};
  }
}

template <class T, int D, bool kPacked>
__global__ void __launch_bounds__(kThreads)
    flash_forward_kernel(const T* __restrict__ q, const T* __restrict__ k, const T* __restrict__ v,
                         T* __restrict__ o, int seq_q, int seq_kv, int heads, int kv_heads,
                         float scale_log2, bool causal, const int* __restrict__ cu_q,
                         const int* __restrict__ cu_kv) {
  constexpr int kStride = D + kPad;  // padded rows: conflict-free fragment loads and ldmatrix
  extern __shared__ uint4 smem_words[];
  T* k_tiles = reinterpret_cast<T*>(smem_words);  // [2][kBc][kStride]
  T* v_tiles = k_tiles + 2 * kBc * kStride;       // [2][kBc][kStride]

  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
  const int head = blockIdx.y, batch = blockIdx.z, kv_head = head / (heads / kv_heads);
  const std::int64_t q_stride = std::int64_t(heads) * D, kv_stride = std::int64_t(kv_heads) * D;
  const SequenceRows rows = sequence_rows<kPacked>(batch, seq_q, seq_kv, cu_q, cu_kv);
  const int block_q0 = blockIdx.x * kBr, q0 = block_q0 + warp * 16;
  if (kPacked && block_q0 >= rows.len_q) return;  // the grid covers the longest sequence
  const T* qb = q + (rows.q_begin * heads + head) * D;
  const T* kb = k + (rows.kv_begin * kv_heads + kv_head) * D;
  const T* vb = v + (rows.kv_begin * kv_heads + kv_head) * D;
  const int len_kv = rows.len_kv;
  const int offset = len_kv - rows.len_q;  // causal alignment of the last query with the last key

  std::uint32_t qf[D / 16][4];
  // Rows past a packed sequence hold zeros (they are computed, never stored).
  auto q_word = [&](int row, const T* p) {
    return (!kPacked || row < rows.len_q) ? *reinterpret_cast<const std::uint32_t*>(p) : 0u;
  };
#pragma unroll
  for (int kk = 0; kk < D / 16; ++kk) {
    const T* r0 = qb + std::int64_t(q0 + g) * q_stride + kk * 16 + 2 * t;
    const T* r1 = r0 + 8 * q_stride;
    qf[kk][0] = q_word(q0 + g, r0);
    qf[kk][1] = q_word(q0 + g + 8, r1);
    qf[kk][2] = q_word(q0 + g, r0 + 8);
    qf[kk][3] = q_word(q0 + g + 8, r1 + 8);
  }

  int tiles = kPacked ? (len_kv + kBc - 1) / kBc : len_kv / kBc;
  if (causal) tiles = min(tiles, max(0, (block_q0 + kBr - 1 + offset) / kBc + 1));

  auto load_tile = [&](int stage, int tile) {
    constexpr int chunks_per_row = D * int(sizeof(T)) / 16;
    T* ks = k_tiles + stage * kBc * kStride;
    T* vs = v_tiles + stage * kBc * kStride;
#pragma unroll
    for (int c = threadIdx.x; c < kBc * chunks_per_row; c += kThreads) {
      const int row = c / chunks_per_row, col = (c % chunks_per_row) * (16 / int(sizeof(T)));
      const std::int64_t src = std::int64_t(tile * kBc + row) * kv_stride + col;
      if constexpr (kPacked) {  // keys past the sequence: zeros, and their address is not read
        const bool valid = tile * kBc + row < len_kv;
        cp_async16_or_zero(ks + row * kStride + col, valid ? kb + src : kb, valid);
        cp_async16_or_zero(vs + row * kStride + col, valid ? vb + src : vb, valid);
      } else {
        cp_async16(ks + row * kStride + col, kb + src);
        cp_async16(vs + row * kStride + col, vb + src);
      }
    }
    cp_async_commit();
  };

  float acc[D / 8][4] = {};
  float row_max[2] = {-INFINITY, -INFINITY}, row_sum[2] = {0.0f, 0.0f};
  if (tiles > 0) load_tile(0, 0);

  for (int tile = 0; tile < tiles; ++tile) {
    if (tile + 1 < tiles) {
      load_tile((tile + 1) & 1, tile + 1);
      cp_async_wait<1>();
    } else {
      cp_async_wait<0>();
    }
    __syncthreads();
    const T* ks = k_tiles + (tile & 1) * kBc * kStride;
    const T* vs = v_tiles + (tile & 1) * kBc * kStride;

    float s[kBc / 8][4] = {};
#pragma unroll
    for (int nt = 0; nt < kBc / 8; nt += 2) {
#pragma unroll
      for (int kk = 0; kk < D / 16; ++kk) {
        // Lanes 0-7 address keys nt*8.., dims kk*16..; 8-15 dims +8; 16-23 keys +8; 24-31 both.
        std::uint32_t b[4];
        const int row = nt * 8 + (lane & 7) + ((lane >> 4) & 1) * 8,
                  col = kk * 16 + ((lane >> 3) & 1) * 8;
        ldmatrix_x4(b, ks + row * kStride + col);
        mma16816<T>(s[nt], qf[kk], b[0], b[1]);
        mma16816<T>(s[nt + 1], qf[kk], b[2], b[3]);
      }
    }
    const bool past_end = kPacked && tile * kBc + kBc > len_kv;  // a packed sequence's tail
    if ((causal && tile * kBc + kBc - 1 > block_q0 + offset) || past_end) {
#pragma unroll
      for (int nt = 0; nt < kBc / 8; ++nt)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int key = tile * kBc + nt * 8 + 2 * t + (e & 1), query = q0 + g + (e >> 1) * 8;
          if ((causal && key > query + offset) || (past_end && key >= len_kv)) s[nt][e] = -INFINITY;
        }
    }
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      float mx = -INFINITY;
#pragma unroll
      for (int nt = 0; nt < kBc / 8; ++nt) mx = fmaxf(mx, fmaxf(s[nt][2 * r], s[nt][2 * r + 1]));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      const float m_new = fmaxf(row_max[r], mx * scale_log2);
      const float m_use = m_new == -INFINITY ? 0.0f : m_new;  // a fully masked row so far
      const float alpha = exp2f(row_max[r] - m_use);
      row_max[r] = m_new;
      float sum = 0;
#pragma unroll
      for (int nt = 0; nt < kBc / 8; ++nt) {
        s[nt][2 * r] = exp2f(s[nt][2 * r] * scale_log2 - m_use);
        s[nt][2 * r + 1] = exp2f(s[nt][2 * r + 1] * scale_log2 - m_use);
        sum += s[nt][2 * r] + s[nt][2 * r + 1];
      }
      row_sum[r] = row_sum[r] * alpha + sum;  // this thread's share; the quad is summed at the end
#pragma unroll
      for (int dt = 0; dt < D / 8; ++dt) {
        acc[dt][2 * r] *= alpha;
        acc[dt][2 * r + 1] *= alpha;
      }
    }
#pragma unroll
    for (int kk = 0; kk < kBc / 16; ++kk) {
      const std::uint32_t a[4] = {
          pack<T>(s[2 * kk][0], s[2 * kk][1]), pack<T>(s[2 * kk][2], s[2 * kk][3]),
          pack<T>(s[2 * kk + 1][0], s[2 * kk + 1][1]), pack<T>(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
      for (int dt = 0; dt < D / 8; dt += 2) {
        std::uint32_t b[4];
        const int row = kk * 16 + (lane & 7) + ((lane >> 3) & 1) * 8,
                  col = dt * 8 + (lane >> 4) * 8;
        ldmatrix_x4_trans(b, vs + row * kStride + col);
        mma16816<T>(acc[dt], a, b[0], b[1]);
        mma16816<T>(acc[dt + 1], a, b[2], b[3]);
      }
    }
    __syncthreads();  // the next iteration's load overwrites this stage
  }

  T* ob = o + (rows.q_begin * heads + head) * D;
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    float sum = row_sum[r];
    sum += __shfl_xor_sync(0xffffffffu, sum, 1);
    sum += __shfl_xor_sync(0xffffffffu, sum, 2);
    const float inv = sum > 0 ? 1.0f / sum : 0.0f;
    if (kPacked && q0 + g + 8 * r >= rows.len_q) continue;  // past the sequence: not stored
    T* orow = ob + std::int64_t(q0 + g + 8 * r) * q_stride + 2 * t;
#pragma unroll
    for (int dt = 0; dt < D / 8; ++dt)
      *reinterpret_cast<std::uint32_t*>(orow + dt * 8) =
          pack<T>(acc[dt][2 * r] * inv, acc[dt][2 * r + 1] * inv);
  }
}

template <class T, int D, bool kPacked>
void launch(AttentionShape s, const void* q, const void* k, const void* v, void* o,
            const FlashPacking& packing, cudaStream_t stream) {
  const int smem = 4 * kBc * (D + kPad) * int(sizeof(T));
  auto kernel = flash_forward_kernel<T, D, kPacked>;
  PERFGATE_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const dim3 grid(unsigned((s.seq_q + kBr - 1) / kBr), unsigned(s.heads), unsigned(s.batch));
  const float scale_log2 = float(1.4426950408889634 / std::sqrt(double(D)));
  kernel<<<grid, kThreads, smem, stream>>>(
      static_cast<const T*>(q), static_cast<const T*>(k), static_cast<const T*>(v),
      static_cast<T*>(o), int(s.seq_q), int(s.seq_kv), int(s.heads), int(s.kv_heads), scale_log2,
      s.causal, packing.cu_q, packing.cu_kv);
  PERFGATE_CHECK_LAUNCH("flash_forward_kernel");
}

template <class T, int D>
void launch(AttentionShape s, const void* q, const void* k, const void* v, void* o,
            const FlashPacking& packing, cudaStream_t stream) {
  packing.packed() ? launch<T, D, true>(s, q, k, v, o, packing, stream)
                   : launch<T, D, false>(s, q, k, v, o, packing, stream);
}

}  // namespace

bool flash_supported(AttentionShape s, Precision p, std::string* why, bool packed) {
  validate(s);
  auto no = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (p != Precision::bf16 && p != Precision::f16)
    return no("flash forward supports bf16 and f16 only");
  if (s.head_dim != 64 && s.head_dim != 128)
    return no("flash forward supports head_dim 64 and 128 only");
  if (!packed && (s.seq_q % kBr != 0 || s.seq_kv % kBc != 0))
    return no("flash forward needs sequences that are multiples of 64 (or a packed batch)");
  if (s.causal && s.seq_q > s.seq_kv)
    return no("flash forward: a causal mask with more queries than keys leaves rows empty");
  if (s.seq_q > 65535 * kBr || s.heads > 65535 || s.batch > 65535)
    return no("flash forward grid too large");
  return true;
}

void flash_attention_forward(Precision p, AttentionShape s, const void* q, const void* k,
                             const void* v, void* o, cudaStream_t stream,
                             const FlashPacking& packing) {
  std::string why;
  if (!flash_supported(s, p, &why, packing.packed()))
    throw InputError("cuda flash attention: " + why);
  const bool bf16 = p == Precision::bf16;
  if (s.head_dim == 128) {
    bf16 ? launch<__nv_bfloat16, 128>(s, q, k, v, o, packing, stream)
         : launch<__half, 128>(s, q, k, v, o, packing, stream);
  } else {
    bf16 ? launch<__nv_bfloat16, 64>(s, q, k, v, o, packing, stream)
         : launch<__half, 64>(s, q, k, v, o, packing, stream);
  }
}

}  // namespace perfgate::cuda
