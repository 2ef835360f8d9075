#pragma once
// The CPU GEMM kernel shared by the gemm family, the step proxy and the overlap benchmark:
// C = alpha·op(A)·op(B) + beta·C, row-major, fp32, cache-blocked.
#include <cstddef>
#include <functional>

namespace perfgate::microbench::kernels {

// A row-major matrix in memory, read as itself or as its transpose. `ld` is the row stride of
// the stored matrix, so a head's slice inside a packed [tokens, 3·hidden] buffer is addressable.
struct MatrixView {
  const float* data = nullptr;
  std::size_t ld = 0;
  bool transposed = false;
  float at(std::size_t r, std::size_t c) const {
    return transposed ? data[c * ld + r] : data[r * ld + c];
  }
};

// Called when the tile C[i0:i1, j0:j1] is final (still in cache): where an epilogue fuses.
using TileDone =
    std::function<void(std::size_t i0, std::size_t i1, std::size_t j0, std::size_t j1)>;

// op(A) is m×k, op(B) is k×n, C is m×n with row stride ldc. beta == 0 ignores C's old contents.
void gemm_blocked(std::size_t m, std::size_t n, std::size_t k, float alpha, MatrixView a,
                  MatrixView b, float beta, float* c, std::size_t ldc,
                  const TileDone& tile_done = {});

inline double gemm_flops(std::size_t m, std::size_t n, std::size_t k) {
  return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
}

}  // namespace perfgate::microbench::kernels
