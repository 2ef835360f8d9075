#include <algorithm>
#include <vector>

#include "perfgate/microbench/kernels/gemm.hpp"

namespace perfgate::microbench::kernels {

namespace {

// Tiles: kMb rows of A against a kKb×kNb panel of B (fits L2); the innermost loop runs along a
// row of the B panel and of C, contiguous, so the compiler vectorises it.
constexpr std::size_t kMb = 32, kNb = 256, kKb = 128;

void scale_tile(float beta, float* c, std::size_t ldc, std::size_t i0, std::size_t i1,
                std::size_t j0, std::size_t j1) {
  for (std::size_t i = i0; i < i1; ++i) {
    float* row = c + i * ldc;
    if (beta == 0.0f)
      std::fill(row + j0, row + j1, 0.0f);
    else if (beta != 1.0f)
      for (std::size_t j = j0; j < j1; ++j) row[j] *= beta;
  }
}

}  // namespace

void gemm_blocked(std::size_t m, std::size_t n, std::size_t k, float alpha, MatrixView a,
                  MatrixView b, float beta, float* c, std::size_t ldc, const TileDone& tile_done) {
  std::vector<float> panel;  // a transposed B is packed panel by panel into row-major order
  if (b.transposed) panel.resize(kKb * kNb);
  for (std::size_t j0 = 0; j0 < n; j0 += kNb) {
    const std::size_t j1 = std::min(n, j0 + kNb), nb = j1 - j0;
    for (std::size_t i0 = 0; i0 < m; i0 += kMb) {
      const std::size_t i1 = std::min(m, i0 + kMb);
      scale_tile(beta, c, ldc, i0, i1, j0, j1);
      for (std::size_t k0 = 0; k0 < k; k0 += kKb) {
        const std::size_t k1 = std::min(k, k0 + kKb);
        if (b.transposed)
          for (std::size_t kk = k0; kk < k1; ++kk)
            for (std::size_t j = j0; j < j1; ++j) panel[(kk - k0) * nb + (j - j0)] = b.at(kk, j);
        for (std::size_t i = i0; i < i1; ++i) {
          float* __restrict crow = c + i * ldc + j0;
          for (std::size_t kk = k0; kk < k1; ++kk) {
            const float aik = alpha * a.at(i, kk);
            const float* __restrict brow =
                b.transposed ? &panel[(kk - k0) * nb] : b.data + kk * b.ld + j0;
            for (std::size_t j = 0; j < nb; ++j) crow[j] += aik * brow[j];
          }
        }
      }
      if (tile_done) tile_done(i0, i1, j0, j1);
    }
  }
}

}  // namespace perfgate::microbench::kernels
