// Needs a GPU: without one each test says so and passes (the CPU suite still runs).
#include <cuda_runtime.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

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

// A stream of its own: CUDA refuses to capture a graph on the legacy default stream (null).
struct OwnStream {
  cudaStream_t stream = nullptr;
  OwnStream() { REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess); }
  ~OwnStream() { cudaStreamDestroy(stream); }
  OwnStream(const OwnStream&) = delete;
  OwnStream& operator=(const OwnStream&) = delete;
};
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
  const OwnStream own;
  GpuTimer timer(own.stream, nullptr);
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

TEST_CASE("cold timing launches once per invocation, in order, and returns a positive time") {
  if (!have_gpu()) return;
  DeviceBuffer<unsigned char> a(1 << 20), b(1 << 20);
  GpuTimer timer(nullptr, nullptr);
  std::vector<int> rotations;
  const auto copy = [&](cudaStream_t s, int rotation) {
    rotations.push_back(rotation);
    copy_kernel(a.get(), b.get(), a.bytes(), s);
  };
  const double seconds = timer.time_cold(copy, 5);
  CHECK(rotations == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(seconds > 0);
  // The events grow with the batch and are reused: a longer then a shorter batch both work.
  CHECK(timer.time_cold(copy, 9) > 0);
  CHECK(timer.time_cold(copy, 2) > 0);
  CHECK(rotations.size() == 16);
}

TEST_CASE("graph timing captures a batch once and replays it until the batch size changes") {
  if (!have_gpu()) return;
  DeviceBuffer<unsigned char> a(1 << 20), b(1 << 20);
  const OwnStream own;
  GpuTimer timer(own.stream, nullptr);
  std::vector<int> captured;  // the body runs only while a graph is captured
  const auto copy = [&](cudaStream_t s, int rotation) {
    captured.push_back(rotation);
    copy_kernel(a.get(), b.get(), a.bytes(), s);
  };
  GraphBatch graph;
  CHECK(timer.time_graph(graph, copy, 3) > 0);
  CHECK(captured == std::vector<int>{0, 1, 2});
  CHECK(timer.time_graph(graph, copy, 3) > 0);
  CHECK(timer.time_graph(graph, copy, 3) > 0);
  CHECK(captured.size() == 3);  // replayed, not captured again
  CHECK(timer.time_graph(graph, copy, 2) > 0);
  CHECK(captured == std::vector<int>{0, 1, 2, 0, 1});
  CHECK(graph.iterations() == 2);
  // The copy the graph replays still writes: new input, poisoned output, replay, compare.
  a.fill(0x5a);
  b.fill(0xff);
  timer.time_graph(graph, copy, 2);
  CHECK(b.download() == a.download());
}

TEST_CASE("cross-entropy: a label outside the vocabulary gives NaN, -inf logits add nothing") {
  if (!have_gpu()) return;
  const std::int64_t rows = 3, vocab = 1000;
  auto logits = seeded_values(std::size_t(rows * vocab), 7, Precision::f32);
  // Row 0: threads 0..99 of the 512-thread block see -inf first (column t), then a finite
  // logit (column t + 512): the running sum must not turn NaN at the first.
  for (std::int64_t c = 0; c < 100; ++c) logits[std::size_t(c)] = -INFINITY;
  const std::vector<std::int64_t> labels{200, -1, vocab};
  DeviceBuffer<float> x(logits), logp(static_cast<std::size_t>(rows * vocab)),
      loss(static_cast<std::size_t>(rows));
  DeviceBuffer<std::int64_t> y(labels);
  double lse = 0;
  for (std::int64_t c = 0; c < vocab; ++c) lse += std::exp(double(logits[std::size_t(c)]));
  const double expected = std::log(lse) - logits[200];
  for (bool fused : {true, false}) {
    loss.fill(0);
    if (fused) {
      cross_entropy_fused(x.get(), y.get(), loss.get(), rows, vocab, nullptr);
    } else {
      cross_entropy_unfused(x.get(), y.get(), logp.get(), loss.get(), rows, vocab, nullptr);
    }
    const auto out = loss.download();
    CHECK(out[0] == Approx(expected).epsilon(1e-5));
    CHECK(std::isnan(out[1]));
    CHECK(std::isnan(out[2]));
  }
}

TEST_CASE("multi-tensor AdamW updates a tensor that is not 16-byte aligned") {
  if (!have_gpu()) return;
  const std::size_t n = 1001;
  std::vector<std::vector<float>> host;  // p, g, m, v
  for (std::uint64_t k = 0; k < 4; ++k) {
    host.push_back(seeded_values(n + 1, 20 + k, Precision::f32, k == 3 ? 0.01f : 0.25f));
    if (k == 3)
      for (float& x : host.back()) x = std::abs(x);
  }
  std::vector<DeviceBuffer<float>> d;
  for (const auto& h : host) d.emplace_back(h);
  TensorList list;  // every array one float into its allocation: 4-byte aligned only
  list.params = {d[0].get() + 1};
  list.grads = {d[1].get() + 1};
  list.m = {d[2].get() + 1};
  list.v = {d[3].get() + 1};
  list.sizes = {std::int64_t(n)};
  const AdamWHyper h;
  AdamWMultiTensor multi(list);
  multi.launch(h, nullptr);
  const auto p = d[0].download();
  const AdamWReference reference(h);
  std::vector<float> step;
  std::vector<double> ref;
  for (std::size_t i = 1; i <= n; ++i) {
    step.push_back(p[i] - host[0][i]);
    ref.push_back(reference(host[0][i], host[1][i], host[2][i], host[3][i]).update);
  }
  CHECK(relative_error(step, ref) < 1e-4);
  CHECK(p[0] == host[0][0]);  // the float before the tensor is left alone
}

TEST_CASE("gather_rows copies the listed rows in the listed order") {
  if (!have_gpu()) return;
  const std::size_t row_bytes = 6;
  std::vector<unsigned char> src(10 * row_bytes);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i);
  const std::vector<std::int64_t> rows{9, 0, 4, 4};
  const DeviceBuffer<unsigned char> d_src(src);
  const DeviceBuffer<std::int64_t> d_rows(rows);
  DeviceBuffer<unsigned char> d_dst(rows.size() * row_bytes);
  gather_rows(d_src.get(), row_bytes, d_rows.get(), rows.size(), d_dst.get(), nullptr);
  PERFGATE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  const auto dst = d_dst.download();
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t b = 0; b < row_bytes; ++b)
      CHECK(dst[r * row_bytes + b] == src[std::size_t(rows[r]) * row_bytes + b]);
}
