#pragma once
// The exact pass's pattern (gradient_check.hpp): one formula for the host, which fills and checks
// the CPU backend's gradients and is unit-tested, and the device, which does the same for the
// GPU's. Element i gets 1, 2 or 4 from ranks i mod n and i + 1 mod n, 0 from the others, so no
// partial sum of it passes 8 and every sum is exact in bf16.
#ifdef __CUDACC__
#define PERFGATE_HOST_DEVICE __host__ __device__
#else
#define PERFGATE_HOST_DEVICE
#endif

namespace perfgate::step_proxy {

// Rank `rank`'s term of element `index` when it contributes.
PERFGATE_HOST_DEVICE inline double exact_term(int rank, long long index) {
  return static_cast<double>(1 << static_cast<int>((index + rank) % 3));
}

PERFGATE_HOST_DEVICE inline double exact_pass_input(int ranks, int rank, long long index) {
  const bool contributes = rank == index % ranks || rank == (index + 1) % ranks;
  return contributes ? exact_term(rank, index) : 0.0;
}

// What every rank must hold after the pass (one rank alone adds its term once).
PERFGATE_HOST_DEVICE inline double exact_pass_sum(int ranks, long long index) {
  const auto first = static_cast<int>(index % ranks),
             second = static_cast<int>((index + 1) % ranks);
  const double one = exact_term(first, index);
  return first == second ? one : one + exact_term(second, index);
}

}  // namespace perfgate::step_proxy
