#pragma once
// CUDA-event timing of a launch body: warm-up, hot batches or cold batches (L2 flushed,
// inputs rotated), optional CUDA-graph replay, and a clock/throttle reading per sample.
// Throttled samples are discarded, counted and retaken.
#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <vector>

#include "perfgate/cuda/device_buffer.hpp"
#include "perfgate/cuda/nvml_probe.hpp"

namespace perfgate::cuda {

// Enqueues one invocation on `stream`. `rotation` counts invocations; a family that keeps
// several copies of its inputs (cold mode) reads copy `rotation % copies`, others ignore it.
using Launch = std::function<void(cudaStream_t stream, int rotation)>;

struct TimingOptions {
  int warmup = 2;  // untimed invocations before the first sample, at least...
  // ...and warm-up goes on until this much time has passed, for a GPU left idle during the
  // host's reference computations to raise its clocks again (50 ms is an assumption, not yet
  // measured: the device check's SM clock column is what will show whether it is enough).
  double min_warmup_seconds = 0.05;
  int samples = 10;  // timed samples kept (throttled ones are retaken)
  int batch = 0;     // invocations per hot sample; 0: enough for min_sample_seconds
  double min_sample_seconds = 1e-3;
  // Cold: L2 flushed before each sample, and a sample is `rotations` invocations, invocation
  // i reading input copy i, which the flush left out of L2: a small kernel is timed over many
  // cold invocations instead of one (the event timer resolves about 0.5 us).
  bool cold = false;
  int rotations = 1;
  // Capture the batch into a CUDA graph and replay it; with an automatic batch, replayed as
  // often per sample as makes the sample min_sample_seconds long again.
  bool graph = false;
};

struct TimingResult {
  std::vector<double> seconds;  // per invocation, one entry per kept sample
  int batch = 1;                // invocations per sample (under graph replay: graph size x replays)
  int discarded_throttled = 0;
  int power_capped = 0;         // kept samples taken under the power cap
  int slowed = 0;               // kept samples during which NVML counted a thermal slowdown
  bool clocks_checked = false;  // NVML answered for every sample
  unsigned min_sm_clock_mhz = 0, max_sm_clock_mhz = 0;
  double median() const;
  double coefficient_of_variation() const;
};

// Validates options; throws InputError naming the field.
void validate(const TimingOptions& options);

// A batch of invocations captured into an instantiated CUDA graph, kept so that every sample
// of a case replays the same graph: capturing again per sample costs host time in proportion
// to the batch, during which the GPU idles and its clocks may fall.
class GraphBatch {
 public:
  GraphBatch() = default;
  ~GraphBatch();
  GraphBatch(const GraphBatch&) = delete;
  GraphBatch& operator=(const GraphBatch&) = delete;

  // Holds `iterations` invocations of `launch` (rotations 0..iterations-1) on return: captured,
  // instantiated and replayed once untimed (which uploads it) unless it held that many already.
  // `launch` must be the same body on every call; only the count is compared.
  void prepare(cudaStream_t stream, const Launch& launch, std::size_t iterations);
  void replay(cudaStream_t stream) const;
  std::size_t iterations() const { return iterations_; }

 private:
  void release();
  cudaGraphExec_t exec_ = nullptr;
  std::size_t iterations_ = 0;
};

class GpuTimer {
 public:
  // `probe` may be null or unavailable: samples are then kept unchecked.
  GpuTimer(cudaStream_t stream, const NvmlProbe* probe);
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  // Throws ToolError when throttling left fewer than options.samples samples after three
  // times as many attempts: such a GPU gives no trustworthy time.
  TimingResult measure(const Launch& launch, const TimingOptions& options);
  // Elapsed seconds of `iterations` back-to-back invocations (hot), for manual-timing callers;
  // with `use_graph`, of one replay of them captured into a graph for this call alone.
  double time_batch(const Launch& launch, std::size_t iterations, bool use_graph);
  // Elapsed seconds of one replay of `graph`, prepared first for `iterations` invocations:
  // repeated calls with the same count replay the graph captured by the first.
  double time_graph(GraphBatch& graph, const Launch& launch, std::size_t iterations);
  // Summed seconds of `iterations` invocations each preceded by an L2 flush, each timed on its
  // own pair of events (the flushes are not timed): cold without copies of the inputs, for
  // manual-timing callers whose kernels are long against the events' ~0.5 us resolution.
  double time_cold(const Launch& launch, std::size_t iterations);
  void flush_l2();

 private:
  void warm_up(const Launch& launch, const TimingOptions& options);
  double elapsed(const std::function<void()>& enqueue);
  cudaStream_t stream_;
  const NvmlProbe* probe_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  std::vector<cudaEvent_t> marks_;  // time_cold's events, two per invocation, kept for reuse
  DeviceBuffer<unsigned char> scrub_;
  int flushes_ = 0;
};

}  // namespace perfgate::cuda
