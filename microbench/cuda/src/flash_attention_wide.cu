// The flash forward with FlashAttention-2's tile for head_dim 128 on sm_80/sm_90: 128 queries
// per block of 4 warps, 32 per warp as two m16 tiles, so every K and V fragment loaded from
// shared memory feeds two mma instead of one (half the shared-memory traffic of the PV product,
// a quarter less for QK^T). Q is staged once in shared memory and its fragments reloaded with
// ldmatrix (32 query rows in registers would not fit beside 128 accumulators). Uniform batches
// only (sequences multiple of 128 and 64); the 64-query kernel stays the default until a GPU run
// shows which is faster.
#include <cmath>

#include "flash_mma.cuh"
#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"
#include "shared_memory.hpp"

namespace perfgate::cuda {
namespace {

using namespace flash;

constexpr int kRows = 128, kBc = 64, kWarps = 4, kThreads = kWarps * 32, kPad = 8;
constexpr int kTiles = 2;   // m16 tiles per warp
constexpr int kChunk = 32;  // keys per softmax step

template <class T, int D>
__global__ void __launch_bounds__(kThreads)
    flash_forward_wide_kernel(const T* __restrict__ q, const T* __restrict__ k,
                              const T* __restrict__ v, T* __restrict__ o, int seq_q, int seq_kv,
                              int heads, int kv_heads, float scale_log2, bool causal) {
  constexpr int kStride = D + kPad;  // padded rows: conflict-free ldmatrix
  constexpr int chunks_per_row = D * int(sizeof(T)) / 16;
  extern __shared__ uint4 smem_words[];
  T* q_tile = reinterpret_cast<T*>(smem_words);  // [kRows][kStride]
  T* k_tiles = q_tile + kRows * kStride;         // [2][kBc][kStride]
  T* v_tiles = k_tiles + 2 * kBc * kStride;      // [2][kBc][kStride]

  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
  const int head = blockIdx.y, batch = blockIdx.z, kv_head = head / (heads / kv_heads);
  const std::int64_t q_stride = std::int64_t(heads) * D, kv_stride = std::int64_t(kv_heads) * D;
  const T* qb = q + (std::int64_t(batch) * seq_q * heads + head) * D;
  const T* kb = k + (std::int64_t(batch) * seq_kv * kv_heads + kv_head) * D;
  const T* vb = v + (std::int64_t(batch) * seq_kv * kv_heads + kv_head) * D;
  const int block_q0 = blockIdx.x * kRows, warp_row0 = warp * 16 * kTiles;
  const int offset = seq_kv - seq_q;  // causal alignment of the last query with the last key

  // The block's Q rows, in the first cp.async group with K/V tile 0.
#pragma unroll
  for (int c = threadIdx.x; c < kRows * chunks_per_row; c += kThreads) {
    const int row = c / chunks_per_row, col = (c % chunks_per_row) * (16 / int(sizeof(T)));
    cp_async16(q_tile + row * kStride + col, qb + std::int64_t(block_q0 + row) * q_stride + col);
  }

  int tiles = seq_kv / kBc;
  if (causal) tiles = min(tiles, max(0, (block_q0 + kRows - 1 + offset) / kBc + 1));

  auto load_tile = [&](int stage, int tile) {
    load_kv_tile<T, D, kBc, kThreads, kStride, false>(k_tiles + stage * kBc * kStride,
                                                      v_tiles + stage * kBc * kStride, kb, vb,
                                                      kv_stride, tile, seq_kv);
  };

  float acc[kTiles][D / 8][4] = {};
  float row_max[kTiles][2], row_sum[kTiles][2];
#pragma unroll
  for (int m = 0; m < kTiles; ++m)
    for (int r = 0; r < 2; ++r) row_max[m][r] = -INFINITY, row_sum[m][r] = 0.0f;
  if (tiles > 0)
    load_tile(0, 0);
  else
    cp_async_commit();

  for (int tile = 0; tile < tiles; ++tile) {
    await_tile(tile, tiles, load_tile);
    const T* ks = k_tiles + (tile & 1) * kBc * kStride;
    const T* vs = v_tiles + (tile & 1) * kBc * kStride;

    // The tile in two 32-key chunks: 32 score registers per m16 tile instead of 64 leave room
    // for the 128 accumulators of 32 query rows.
#pragma unroll 1
    for (int chunk = 0; chunk < kBc / kChunk; ++chunk) {
      const int key0 = tile * kBc + chunk * kChunk;
      float s[kTiles][kChunk / 8][4] = {};
#pragma unroll
      for (int kk = 0; kk < D / 16; ++kk) {
        std::uint32_t qa[kTiles][4];
#pragma unroll
        for (int m = 0; m < kTiles; ++m)
          ldmatrix_x4(qa[m], q_tile + a_fragment_offset(warp_row0 + m * 16, kk, lane, kStride));
#pragma unroll
        for (int nt = 0; nt < kChunk / 8; nt += 2) {
          std::uint32_t b[4];
          ldmatrix_x4(b, ks + k_fragment_offset(chunk * kChunk / 8 + nt, kk, lane, kStride));
          mma_pairs<T>(s, qa, b, nt);
        }
      }
      if (causal && key0 + kChunk - 1 > block_q0 + offset) {
#pragma unroll
        for (int m = 0; m < kTiles; ++m)
#pragma unroll
          for (int nt = 0; nt < kChunk / 8; ++nt)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
              const int key = key0 + nt * 8 + 2 * t + (e & 1),
                        query = block_q0 + warp_row0 + m * 16 + g + (e >> 1) * 8;
              if (key > query + offset) s[m][nt][e] = -INFINITY;
            }
      }
#pragma unroll
      for (int m = 0; m < kTiles; ++m)
        online_softmax<kChunk / 8, D>(s[m], row_max[m], row_sum[m], acc[m], scale_log2);
#pragma unroll
      for (int kk = 0; kk < kChunk / 16; ++kk) {
        std::uint32_t a[kTiles][4];
#pragma unroll
        for (int m = 0; m < kTiles; ++m) probability_fragment<T>(a[m], s[m], kk);
#pragma unroll
        for (int dt = 0; dt < D / 8; dt += 2) {
          std::uint32_t b[4];
          ldmatrix_x4_trans(b, vs + v_fragment_offset(chunk * kChunk / 16 + kk, dt, lane, kStride));
          mma_pairs<T>(acc, a, b, dt);
        }
      }
    }
    __syncthreads();  // the next iteration's load overwrites this stage
  }

  T* ob = o + (std::int64_t(batch) * seq_q * heads + head) * D;
  const bool keep[2] = {true, true};
#pragma unroll
  for (int m = 0; m < kTiles; ++m) {
    const int row = block_q0 + warp_row0 + m * 16 + g;
    store_output<T, D>(ob + std::int64_t(row) * q_stride + 2 * t, q_stride, acc[m], row_sum[m],
                       keep);
  }
}

template <class T, int D>
void launch(AttentionShape s, const void* q, const void* k, const void* v, void* o,
            cudaStream_t stream) {
  const int smem = (kRows + 4 * kBc) * (D + kPad) * int(sizeof(T));
  auto kernel = flash_forward_wide_kernel<T, D>;
  reserve_shared_memory(reinterpret_cast<const void*>(kernel), smem, "flash_forward_wide_kernel");
  const dim3 grid(unsigned(s.seq_q / kRows), unsigned(s.heads), unsigned(s.batch));
  const float scale_log2 = float(1.4426950408889634 / std::sqrt(double(D)));
  kernel<<<grid, kThreads, smem, stream>>>(static_cast<const T*>(q), static_cast<const T*>(k),
                                           static_cast<const T*>(v), static_cast<T*>(o),
                                           int(s.seq_q), int(s.seq_kv), int(s.heads),
                                           int(s.kv_heads), scale_log2, s.causal);
  PERFGATE_CHECK_LAUNCH("flash_forward_wide_kernel");
}

}  // namespace

bool flash_wide_supported(AttentionShape s, Precision p, std::string* why) {
  if (!flash_supported(s, p, why)) return false;
  if (s.seq_q % kRows == 0) return true;
  if (why) *why = "flash forward (128-query tile) needs query sequences that are multiples of 128";
  return false;
}

void flash_attention_forward_wide(Precision p, AttentionShape s, const void* q, const void* k,
                                  const void* v, void* o, cudaStream_t stream) {
  std::string why;
  if (!flash_wide_supported(s, p, &why)) throw InputError("cuda flash attention: " + why);
  dispatch_types(p, s.head_dim, [&](auto type, auto head_dim) {
    launch<decltype(type), decltype(head_dim)::value>(s, q, k, v, o, stream);
  });
}

}  // namespace perfgate::cuda
