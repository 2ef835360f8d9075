#include "perfgate/cuda/gpu_timer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <string>

#include "perfgate/core/error.hpp"
#include "perfgate/cuda/clock_record.hpp"

namespace perfgate::cuda {

double TimingResult::median() const {
  if (seconds.empty()) return 0;
  std::vector<double> sorted = seconds;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t mid = sorted.size() / 2;
  return sorted.size() % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
}

double TimingResult::coefficient_of_variation() const {
  if (seconds.size() < 2) return 0;
  const double mean = std::accumulate(seconds.begin(), seconds.end(), 0.0) / double(seconds.size());
  double sq = 0;
  for (double s : seconds) sq += (s - mean) * (s - mean);
  return mean > 0 ? std::sqrt(sq / double(seconds.size() - 1)) / mean : 0;
}

void validate(const TimingOptions& o) {
  if (o.warmup < 0) throw InputError("timing options: warmup must be >= 0");
  if (o.samples < 1) throw InputError("timing options: samples must be >= 1");
  if (o.batch < 0) throw InputError("timing options: batch must be >= 0");
  if (o.batch == 0 && !(o.min_sample_seconds > 0))
    throw InputError("timing options: min_sample_seconds must be > 0 when batch is automatic");
  if (o.cold && o.graph) throw InputError("timing options: cold and graph exclude each other");
  if (o.rotations < 1) throw InputError("timing options: rotations must be >= 1");
  if (o.rotations > 1 && !o.cold) throw InputError("timing options: rotations need cold mode");
  if (!(o.min_warmup_seconds >= 0))
    throw InputError("timing options: min_warmup_seconds must be >= 0");
}

GpuTimer::GpuTimer(cudaStream_t stream, const NvmlProbe* probe) : stream_(stream), probe_(probe) {
  PERFGATE_CUDA_CHECK(cudaEventCreate(&start_));
  PERFGATE_CUDA_CHECK(cudaEventCreate(&stop_));
  int device = 0, l2 = 0;
  PERFGATE_CUDA_CHECK(cudaGetDevice(&device));
  PERFGATE_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  // Writing twice the L2 evicts everything a previous sample left there.
  scrub_ = DeviceBuffer<unsigned char>(std::size_t(std::max(l2, 1 << 20)) * 2);
}

GpuTimer::~GpuTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
  for (cudaEvent_t e : marks_) cudaEventDestroy(e);
}

void GpuTimer::flush_l2() {
  PERFGATE_CUDA_CHECK(cudaMemsetAsync(scrub_.get(), ++flushes_ & 0xff, scrub_.bytes(), stream_));
}

double GpuTimer::elapsed(const std::function<void()>& enqueue) {
  PERFGATE_CUDA_CHECK(cudaEventRecord(start_, stream_));
  enqueue();
  PERFGATE_CUDA_CHECK(cudaEventRecord(stop_, stream_));
  PERFGATE_CUDA_CHECK(cudaEventSynchronize(stop_));
  float ms = 0;
  PERFGATE_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  return double(ms) * 1e-3;
}

namespace {

// Captures `iterations` invocations into an instantiated graph (rotations 0..iterations-1).
cudaGraphExec_t capture(cudaStream_t stream, const Launch& launch, int iterations) {
  cudaGraph_t graph = nullptr;
  PERFGATE_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  try {
    for (int i = 0; i < iterations; ++i) launch(stream, i);
  } catch (...) {
    cudaStreamEndCapture(stream, &graph);
    if (graph != nullptr) cudaGraphDestroy(graph);
    throw;
  }
  PERFGATE_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  const cudaError_t status = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  PERFGATE_CUDA_CHECK(status);
  return exec;
}

}  // namespace

GraphBatch::~GraphBatch() {
  release();
}

void GraphBatch::release() {
  if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
  exec_ = nullptr;
  iterations_ = 0;
}

void GraphBatch::prepare(cudaStream_t stream, const Launch& launch, std::size_t iterations) {
  const std::size_t n = std::max<std::size_t>(iterations, 1);
  if (exec_ != nullptr && iterations_ == n) return;
  release();
  exec_ = capture(stream, launch, int(n));
  iterations_ = n;
  replay(stream);  // uploads and warms the graph
}

void GraphBatch::replay(cudaStream_t stream) const {
  PERFGATE_CUDA_CHECK(cudaGraphLaunch(exec_, stream));
}

double GpuTimer::time_batch(const Launch& launch, std::size_t iterations, bool use_graph) {
  if (use_graph) {
    GraphBatch once;
    return time_graph(once, launch, iterations);
  }
  const int n = int(std::max<std::size_t>(iterations, 1));
  return elapsed([&] {
    for (int i = 0; i < n; ++i) launch(stream_, i);
  });
}

double GpuTimer::time_graph(GraphBatch& graph, const Launch& launch, std::size_t iterations) {
  graph.prepare(stream_, launch, iterations);
  return elapsed([&] { graph.replay(stream_); });
}

double GpuTimer::time_cold(const Launch& launch, std::size_t iterations) {
  const std::size_t n = std::max<std::size_t>(iterations, 1);
  while (marks_.size() < 2 * n) {
    cudaEvent_t e = nullptr;
    PERFGATE_CUDA_CHECK(cudaEventCreate(&e));
    marks_.push_back(e);
  }
  for (std::size_t i = 0; i < n; ++i) {
    flush_l2();
    PERFGATE_CUDA_CHECK(cudaEventRecord(marks_[2 * i], stream_));
    launch(stream_, int(i));
    PERFGATE_CUDA_CHECK(cudaEventRecord(marks_[2 * i + 1], stream_));
  }
  PERFGATE_CUDA_CHECK(cudaEventSynchronize(marks_[2 * n - 1]));
  double seconds = 0;
  for (std::size_t i = 0; i < n; ++i) {
    float ms = 0;
    PERFGATE_CUDA_CHECK(cudaEventElapsedTime(&ms, marks_[2 * i], marks_[2 * i + 1]));
    seconds += double(ms) * 1e-3;
  }
  return seconds;
}

void GpuTimer::warm_up(const Launch& launch, const TimingOptions& options) {
  if (options.warmup == 0 && options.min_warmup_seconds <= 0) return;
  const auto start = std::chrono::steady_clock::now();
  const auto enough = std::chrono::duration<double>(options.min_warmup_seconds);
  int invocation = 0;
  do {
    for (int i = 0; i < std::max(options.warmup, 1); ++i) launch(stream_, invocation++);
    PERFGATE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  } while (std::chrono::steady_clock::now() - start < enough);
}

TimingResult GpuTimer::measure(const Launch& launch, const TimingOptions& options) {
  validate(options);
  warm_up(launch, options);

  TimingResult result;
  result.batch = options.cold ? options.rotations : options.batch;
  if (result.batch == 0) {
    const double one = std::max(elapsed([&] { launch(stream_, 0); }), 1e-7);
    result.batch = int(std::clamp(std::ceil(options.min_sample_seconds / one), 1.0, 10000.0));
  }
  GraphBatch graph;
  int replays = 1;  // graph launches per sample
  if (options.graph) {
    graph.prepare(stream_, launch, std::size_t(result.batch));
    PERFGATE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    // Replayed, small kernels run faster than the launches that sized the batch: replay until a
    // sample is long again, so that the one launch whose host latency falls inside the sample
    // stays a small part of it.
    if (options.batch == 0) {
      const double once = std::max(elapsed([&] { graph.replay(stream_); }), 1e-7);
      replays = int(std::clamp(std::ceil(options.min_sample_seconds / once), 1.0, 1000.0));
    }
  }
  const int per_sample = result.batch * replays;

  ClockRecord clocks;
  // Throttled samples are retaken, within reason.
  const RetakeRule rule{.wanted = options.samples, .max_attempts = options.samples * 3};
  result.seconds = take_unthrottled(
      clocks, rule, [&] { return probe_ != nullptr ? probe_->slowdown_ns() : std::nullopt; },
      [&] {
        if (options.cold) flush_l2();
        const double seconds = elapsed([&] {
          if (options.graph) {
            for (int r = 0; r < replays; ++r) graph.replay(stream_);
          } else {
            for (int i = 0; i < result.batch; ++i) launch(stream_, i);
          }
        });
        // The clock right after the sample: NVML reports the current state, not an average.
        return TimedSample{seconds / per_sample,
                           probe_ != nullptr ? probe_->sample() : std::nullopt};
      });
  result.batch = per_sample;  // invocations per sample, graph replays included
  result.discarded_throttled = clocks.discarded_throttled();
  result.power_capped = clocks.power_capped();
  result.slowed = clocks.slowed();
  result.clocks_checked = probe_ != nullptr && probe_->available() && clocks.all_checked();
  result.min_sm_clock_mhz = clocks.min_sm_clock_mhz();
  result.max_sm_clock_mhz = clocks.max_sm_clock_mhz();
  return result;
}

}  // namespace perfgate::cuda
