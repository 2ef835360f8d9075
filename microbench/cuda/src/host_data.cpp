#include "perfgate/cuda/host_data.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace perfgate::cuda {

float round_to(Precision p, float value) {
  switch (p) {
    case Precision::f32:
      return value;
    case Precision::bf16:
      return __bfloat162float(__float2bfloat16_rn(value));
    case Precision::f16:
      return __half2float(__float2half_rn(value));
    case Precision::fp8:
      return float(__nv_fp8_e4m3(value));
  }
  return value;
}

std::vector<float> seeded_values(std::size_t n, std::uint64_t seed, Precision p, float lo,
                                 float hi) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<float> magnitude(lo, hi);
  std::bernoulli_distribution negative(0.5);
  std::vector<float> values(n);
  for (float& v : values)
    v = round_to(p, negative(engine) ? -magnitude(engine) : magnitude(engine));
  return values;
}

std::vector<unsigned char> to_storage(const std::vector<float>& values, Precision p) {
  const std::size_t e = element_bytes(p);
  std::vector<unsigned char> bytes(values.size() * e);
  for (std::size_t i = 0; i < values.size(); ++i) {
    unsigned char* dst = bytes.data() + i * e;
    switch (p) {
      case Precision::f32:
        std::memcpy(dst, &values[i], 4);
        break;
      case Precision::bf16: {
        const __nv_bfloat16 v = __float2bfloat16_rn(values[i]);
        std::memcpy(dst, &v, 2);
        break;
      }
      case Precision::f16: {
        const __half v = __float2half_rn(values[i]);
        std::memcpy(dst, &v, 2);
        break;
      }
      case Precision::fp8: {
        const __nv_fp8_e4m3 v(values[i]);
        std::memcpy(dst, &v, 1);
        break;
      }
    }
  }
  return bytes;
}

std::vector<float> from_storage(const std::vector<unsigned char>& bytes, Precision p) {
  const std::size_t e = element_bytes(p);
  std::vector<float> values(bytes.size() / e);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const unsigned char* src = bytes.data() + i * e;
    switch (p) {
      case Precision::f32:
        std::memcpy(&values[i], src, 4);
        break;
      case Precision::bf16: {
        __nv_bfloat16 v;
        std::memcpy(&v, src, 2);
        values[i] = __bfloat162float(v);
        break;
      }
      case Precision::f16: {
        __half v;
        std::memcpy(&v, src, 2);
        values[i] = __half2float(v);
        break;
      }
      case Precision::fp8: {
        __nv_fp8_e4m3 v;
        std::memcpy(&v, src, 1);
        values[i] = float(v);
        break;
      }
    }
  }
  return values;
}

double relative_error(const std::vector<float>& out, const std::vector<double>& ref) {
  if (out.size() != ref.size()) return std::numeric_limits<double>::infinity();
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!std::isfinite(out[i])) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, std::abs(double(out[i]) - ref[i]));
    scale = std::max(scale, std::abs(ref[i]));
  }
  return scale > 0 ? worst / scale : worst;
}

double error_bound(Precision p) {
  switch (p) {
    case Precision::f32:
      return 1e-4;
    case Precision::bf16:
      return 2e-2;
    case Precision::f16:
      return 4e-3;
    case Precision::fp8:
      return 1e-1;
  }
  return 0;
}

}  // namespace perfgate::cuda
