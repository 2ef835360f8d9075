#include "check_context.hpp"

#include <cstdio>
#include <sstream>

#include "perfgate/cuda/check.hpp"

namespace perfgate::cuda::check {

Context::Context(Options options, const cudaDeviceProp& prop, const std::string& pci_bus_id)
    : options_(std::move(options)), prop_(prop) {
  PERFGATE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  probe_ = std::make_unique<NvmlProbe>(pci_bus_id);
  timer_ = std::make_unique<GpuTimer>(stream_, probe_.get());
}

Context::~Context() {
  timer_.reset();
  cudaStreamDestroy(stream_);
}

bool Context::wants(const std::string& family) const {
  if (options_.only.empty()) return true;
  if (spread_only()) return false;
  std::stringstream list(options_.only);
  std::string item;
  while (std::getline(list, item, ','))
    if (item == family) return true;
  return false;
}

bool Context::wants_timing(const std::string& family, bool in_spread_set) const {
  return spread_only() ? in_spread_set : wants(family);
}

void Context::time_row(Row row, const Launch& launch, Traffic traffic, Bound bound,
                       TimingOptions timing) {
  timing.samples = options_.samples;
  const TimingResult r = timer_->measure(launch, timing);
  PERFGATE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  row.median_seconds = r.median();
  row.cv = r.coefficient_of_variation();
  row.samples = int(r.seconds.size());
  row.throttled = r.discarded_throttled;
  row.power_capped = r.power_capped;
  row.slowed = r.slowed;
  row.clocks_checked = r.clocks_checked;
  row.sm_clock_min_mhz = r.min_sm_clock_mhz;
  row.sm_clock_max_mhz = r.max_sm_clock_mhz;
  row.batch = r.batch;
  if (row.mode.empty()) row.mode = timing.cold ? "cold" : (timing.graph ? "hot+graph" : "hot");
  if (row.check.empty()) row.check = "-";
  if (bound == Bound::compute) {
    row.rate = row.median_seconds > 0 ? traffic.flops / row.median_seconds : 0;
    row.unit = "TFLOP/s";
    row.fraction = fraction_of(row.rate, ceilings_.gemm_flops_per_second);
  } else {
    row.rate = row.median_seconds > 0 ? traffic.bytes / row.median_seconds : 0;
    row.unit = "GB/s";
    row.fraction = fraction_of(row.rate, ceilings_.copy_bytes_per_second);
  }
  add(std::move(row));
}

void Context::check_row(Row row, double error, double bound) {
  char text[96];
  const bool ok = error <= bound;
  std::snprintf(text, sizeof text, "%s (err %.1e, bound %.0e)", ok ? "ok" : "FAIL", error, bound);
  row.check = text;
  row.failed = !ok;
  if (row.mode.empty()) row.mode = "check";
  add(std::move(row));
}

void Context::add(Row row) {
  if (!options_.quiet) {
    std::fprintf(stderr, "  %-20s %-14s %-28s %-5s %-9s %s\n", row.family.c_str(),
                 row.variant.c_str(), row.shape.c_str(), row.dtype.c_str(), row.mode.c_str(),
                 row.check.c_str());
  }
  rows_.push_back(std::move(row));
  if (on_row_) on_row_(rows_);
}

std::string shape_text(std::initializer_list<std::pair<const char*, std::int64_t>> dims) {
  std::string text;
  for (const auto& [name, value] : dims) {
    if (!text.empty()) text += ' ';
    text += name;
    text += '=';
    text += std::to_string(value);
  }
  return text;
}

}  // namespace perfgate::cuda::check
