#include "cpu_gemm.hpp"

#include <algorithm>
#include <cstddef>

namespace perfgate::collectives {

void blocked_gemm(int n, const float* a, const float* b, float* c) {
  constexpr int kBlock = 64;  // three 64×64 fp32 tiles fit in L1/L2
  const auto at = [n](int row, int col) { return static_cast<std::size_t>(row) * static_cast<std::size_t>(n) + col; };
  std::fill(c, c + at(n, 0), 0.0f);
  for (int i0 = 0; i0 < n; i0 += kBlock) {
    for (int k0 = 0; k0 < n; k0 += kBlock) {
      for (int j0 = 0; j0 < n; j0 += kBlock) {
        const int i1 = std::min(i0 + kBlock, n), k1 = std::min(k0 + kBlock, n), j1 = std::min(j0 + kBlock, n);
        for (int i = i0; i < i1; ++i) {
          for (int k = k0; k < k1; ++k) {
            const float aik = a[at(i, k)];
            for (int j = j0; j < j1; ++j) c[at(i, j)] += aik * b[at(k, j)];
          }
        }
      }
    }
  }
}

}  // namespace perfgate::collectives
