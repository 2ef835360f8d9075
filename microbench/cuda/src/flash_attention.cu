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

#include "flash_mma.cuh"
#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"
#include "shared_memory.hpp"

namespace perfgate::cuda {
namespace {

using namespace flash;

constexpr int kBr = 64, kBc = 64, kWarps = 4, kThreads = kWarps * 32, kPad = 8;

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
    load_kv_tile<T, D, kBc, kThreads, kStride, kPacked>(k_tiles + stage * kBc * kStride,
                                                        v_tiles + stage * kBc * kStride, kb, vb,
                                                        kv_stride, tile, len_kv);
  };

  float acc[D / 8][4] = {};
  float row_max[2] = {-INFINITY, -INFINITY}, row_sum[2] = {0.0f, 0.0f};
  if (tiles > 0) load_tile(0, 0);

  for (int tile = 0; tile < tiles; ++tile) {
    await_tile(tile, tiles, load_tile);
    const T* ks = k_tiles + (tile & 1) * kBc * kStride;
    const T* vs = v_tiles + (tile & 1) * kBc * kStride;

    float s[kBc / 8][4] = {};
#pragma unroll
    for (int nt = 0; nt < kBc / 8; nt += 2) {
#pragma unroll
      for (int kk = 0; kk < D / 16; ++kk) {
        std::uint32_t b[4];
        ldmatrix_x4(b, ks + k_fragment_offset(nt, kk, lane, kStride));
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
    online_softmax<kBc / 8, D>(s, row_max, row_sum, acc, scale_log2);
#pragma unroll
    for (int kk = 0; kk < kBc / 16; ++kk) {
      std::uint32_t a[4];
      probability_fragment<T>(a, s, kk);
#pragma unroll
      for (int dt = 0; dt < D / 8; dt += 2) {
        std::uint32_t b[4];
        ldmatrix_x4_trans(b, vs + v_fragment_offset(kk, dt, lane, kStride));
        mma16816<T>(acc[dt], a, b[0], b[1]);
        mma16816<T>(acc[dt + 1], a, b[2], b[3]);
      }
    }
    __syncthreads();  // the next iteration's load overwrites this stage
  }

  T* ob = o + (rows.q_begin * heads + head) * D;
  const bool keep[2] = {!kPacked || q0 + g < rows.len_q, !kPacked || q0 + g + 8 < rows.len_q};
  store_output<T, D>(ob + std::int64_t(q0 + g) * q_stride + 2 * t, q_stride, acc, row_sum, keep);
}

template <class T, int D, bool kPacked>
void launch(AttentionShape s, const void* q, const void* k, const void* v, void* o,
            const FlashPacking& packing, cudaStream_t stream) {
  const int smem = 4 * kBc * (D + kPad) * int(sizeof(T));
  auto kernel = flash_forward_kernel<T, D, kPacked>;
  reserve_shared_memory(reinterpret_cast<const void*>(kernel), smem, "flash_forward_kernel");
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
  dispatch_types(p, s.head_dim, [&](auto type, auto head_dim) {
    launch<decltype(type), decltype(head_dim)::value>(s, q, k, v, o, packing, stream);
  });
}

}  // namespace perfgate::cuda
