#include "gemm.hpp"

#include <algorithm>
#include <vector>

namespace perfgate::step_proxy {

void gemm(int m, int n, int k, float alpha, Matrix a, Matrix b, float beta, float* c, int ldc) {
  constexpr int kBlock = 64;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) c[i * ldc + j] *= beta;
  // Pack op(B) row-major once so the inner loop streams contiguous memory whatever the layout.
  std::vector<float> bp(static_cast<std::size_t>(k) * n);
  for (int p = 0; p < k; ++p)
    for (int j = 0; j < n; ++j) bp[static_cast<std::size_t>(p) * n + j] = b.at(p, j);
  for (int i0 = 0; i0 < m; i0 += kBlock)
    for (int p0 = 0; p0 < k; p0 += kBlock)
      for (int i = i0; i < std::min(m, i0 + kBlock); ++i)
        for (int p = p0; p < std::min(k, p0 + kBlock); ++p) {
          const float aip = alpha * a.at(i, p);
          const float* brow = &bp[static_cast<std::size_t>(p) * n];
          float* crow = c + i * ldc;
          for (int j = 0; j < n; ++j) crow[j] += aip * brow[j];
        }
}

}  // namespace perfgate::step_proxy
