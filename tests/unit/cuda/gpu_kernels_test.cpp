// Needs a GPU: without one each test says so and passes (the CPU suite still runs).
#include <cuda_runtime.h>

#include <catch2/catch.hpp>
#include <cmath>

#include "perfgate/cuda/fused_ops.hpp"
#include "perfgate/cuda/gpu_timer.hpp"
#include "perfgate/cuda/host_data.hpp"

using namespace perfgate::cuda;

namespace {
bool have_gpu() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    WARN("skipped: no CUDA device ("
         << (status != cudaSuccess ? cudaGetErrorString(status) : "0 devices") << ")");
    return false;
  }
  return true;
}
}  // namespace

TEST_CASE("fused softmax matches the host reference on the GPU") {
  if (!have_gpu()) return;
  const RowShape s{8, 1024};
  const auto x = seeded_values(std::size_t(s.rows * s.hidden), 3, Precision::bf16);
  DeviceBuffer<unsigned char> in(to_storage(x, Precision::bf16)), out(in.bytes());
  softmax_fused(Precision::bf16, in.get(), out.get(), s, nullptr);
  const auto y = from_storage(out.download(), Precision::bf16);
  std::vector<double> ref(y.size());
  for (std::int64_t r = 0; r < s.rows; ++r) {
    double m = -INFINITY, sum = 0;
    for (std::int64_t c = 0; c < s.hidden; ++c)
      m = std::max(m, double(x[std::size_t(r * s.hidden + c)]));
    for (std::int64_t c = 0; c < s.hidden; ++c)
      sum += std::exp(x[std::size_t(r * s.hidden + c)] - m);
    for (std::int64_t c = 0; c < s.hidden; ++c)
      ref[std::size_t(r * s.hidden + c)] = std::exp(x[std::size_t(r * s.hidden + c)] - m) / sum;
  }
  CHECK(relative_error(y, ref) < error_bound(Precision::bf16));
}

TEST_CASE("the GPU timer returns one positive time per kept sample") {
  if (!have_gpu()) return;
  DeviceBuffer<unsigned char> a(1 << 20), b(1 << 20);
  GpuTimer timer(nullptr, nullptr);
  TimingOptions o;
  o.samples = 4;
  for (bool graph : {false, true}) {
    o.graph = graph;
    const TimingResult r =
        timer.measure([&](cudaStream_t s, int) { copy_kernel(a.get(), b.get(), a.bytes(), s); }, o);
    CHECK(r.seconds.size() == 4);
    for (double t : r.seconds) CHECK(t > 0);
  }
}
