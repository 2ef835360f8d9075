#include "registry_device.hpp"

#include "perfgate/cuda/clock_notes.hpp"

namespace perfgate::microbench::cuda_backend {

std::string missing_device() {
  static const std::string missing = [] {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess)
      return std::string("no CUDA device (") + cudaGetErrorString(status) + ")";
    return count > 0 ? std::string() : std::string("no CUDA device (none visible)");
  }();
  return missing;
}

// `perfgate run --backend auto` uses cuda where a device is visible. cudaGetDeviceCount
// initialises the driver but creates no context, so the parent process may call it.
static const detail::Registrar cuda_probe{[] {
  Registry::instance().backend_probe(
      "cuda", [] { return missing_device().empty(); }, "no CUDA device");
  Registry::instance().timing_mode("cuda", "cold");
  Registry::instance().timing_mode("cuda", "graph");
}};

pc::Precision precision(DType t) {
  switch (t) {
    case DType::f32:
      return pc::Precision::f32;
    case DType::bf16:
      return pc::Precision::bf16;
    case DType::f16:
      return pc::Precision::f16;
  }
  return pc::Precision::f32;
}

namespace {
std::string pci_bus_id() {
  int ordinal = 0;
  PERFGATE_CUDA_CHECK(cudaGetDevice(&ordinal));
  char id[32] = {};
  PERFGATE_CUDA_CHECK(cudaDeviceGetPCIBusId(id, int(sizeof id), ordinal));
  return id;
}
}  // namespace

Device::Device() {
  PERFGATE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  probe = std::make_unique<pc::NvmlProbe>(pci_bus_id());
  timer = std::make_unique<pc::GpuTimer>(stream, probe.get());
}

Device& device() {
  static Device d;
  return d;
}

Tensor upload(const std::vector<float>& values, pc::Precision p) {
  return Tensor(pc::to_storage(values, p));
}

CudaInstance::CudaInstance(pc::Precision p, const std::vector<std::size_t>& output_elements)
    : precision_(p) {
  for (std::size_t n : output_elements) outputs_.emplace_back(n * pc::element_bytes(p));
}

void CudaInstance::run() {
  launch(device().stream, 0);
  PERFGATE_CUDA_CHECK(cudaStreamSynchronize(device().stream));
}

std::vector<double> CudaInstance::output() {
  std::vector<double> all;
  for (const Tensor& t : outputs_) {
    const auto part = pc::from_storage(t.download(), precision_);
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

void CudaInstance::poison() {
  for (Tensor& t : outputs_) t.fill(0xff);  // NaN in every dtype
}

// A launch that cannot be captured into a graph (one that waits on the host) makes a graph
// case skipped with the reason, tried once here rather than failing in the first sample.
bool CudaInstance::use_timing(const std::string& mode) {
  if (mode == "cold") {
    timing_ = Timing::cold;
    return true;
  }
  if (mode != "graph") return false;
  try {
    device().timer->time_graph(
        graph_, [this](cudaStream_t s, int r) { launch(s, r); }, 1);
  } catch (const std::exception& e) {
    (void)cudaGetLastError();  // the failed capture's error is not the next call's
    throw CaseUnsupported(std::string("cannot be captured into a CUDA graph: ") + e.what());
  }
  timing_ = Timing::graph;
  return true;
}

// Hot: back-to-back launches. Cold: each launch after an L2 flush and timed alone, the flush
// outside the time; the flush evicts what the previous launch left, so no input copies. Graph:
// the batch captured into a CUDA graph and replayed, without the host's launch cost between
// kernels (the replay's own start falls inside the sample); captured again only when the
// harness changes the batch size, so samples of one size replay one graph.
// A sample the NVML reading disqualifies (thermal or hardware slowdown) is retaken; a GPU that
// stays throttled gives no trustworthy time, and the case fails saying so.
std::optional<double> CudaInstance::time_batch(std::size_t iterations) {
  constexpr int kRetakes = 3;
  Device& d = device();
  const pc::RetakeRule rule{
      .wanted = 1, .max_attempts = kRetakes + 1, .reread_slowdown = true, .consecutive = true};
  return pc::take_unthrottled(
             clocks_, rule, [&] { return d.probe->slowdown_ns(); },
             [&] {
               const pc::Launch body = [this](cudaStream_t s, int r) { launch(s, r); };
               const double t = timing_ == Timing::cold ? d.timer->time_cold(body, iterations)
                                : timing_ == Timing::graph
                                    ? d.timer->time_graph(graph_, body, iterations)
                                    : d.timer->time_batch(body, iterations, false);
               return pc::TimedSample{t, d.probe->sample()};
             })
      .front();
}

nlohmann::json CudaInstance::notes() const {
  const auto& probe = *device().probe;
  return {{"clocks", pc::clock_notes(clocks_, probe.available() ? std::string() : probe.why())}};
}

}  // namespace perfgate::microbench::cuda_backend
