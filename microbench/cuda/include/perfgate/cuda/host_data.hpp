#pragma once
// Host-side storage conversions and seeded inputs for the CUDA correctness checks: values are
// rounded to the storage precision before the double-precision reference sees them, so the
// reference and the kernel start from the same numbers.
#include <cstdint>
#include <vector>

#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::cuda {

// Uniform in ±[lo, hi] (never zero, so a kernel that writes nothing cannot pass), rounded to p.
std::vector<float> seeded_values(std::size_t n, std::uint64_t seed, Precision p, float lo = 0.25f,
                                 float hi = 1.0f);
float round_to(Precision p, float value);
std::vector<unsigned char> to_storage(const std::vector<float>& values, Precision p);
std::vector<float> from_storage(const std::vector<unsigned char>& bytes, Precision p);

// max |out - ref| / max |ref|; NaN in `out` gives infinity.
double relative_error(const std::vector<float>& out, const std::vector<double>& ref);
// The bound a correct kernel stays under for outputs stored in p.
double error_bound(Precision p);

}  // namespace perfgate::cuda
