#include "gpu_step.hpp"

#include <algorithm>

#include "perfgate/cuda/check.hpp"

namespace perfgate::step_proxy::gpu {
namespace {

double elapsed_us(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0;
  PERFGATE_CUDA_CHECK(cudaEventElapsedTime(&ms, from, to));
  return 1e3 * static_cast<double>(ms);
}

}  // namespace

cudaEvent_t GpuStep::new_event() {
  cudaEvent_t e = nullptr;
  PERFGATE_CUDA_CHECK(cudaEventCreate(&e));
  return e;
}

GpuStep::GpuStep(GpuTransformer& model, NcclComm& comm, const Shape& shape,
                 const StepConfig& config, cudaStream_t compute)
    : model_(model),
      comm_(comm),
      per_layer_(shape.params_per_layer()),
      // The CPU proxy's bucket rule, counted in bf16 gradients.
      bucket_(std::max(1LL, config.bucket_bytes / static_cast<long long>(sizeof(Bf16Bits)))),
      delay_us_(config.delay_us),
      compute_(compute),
      start_(new_event()),
      compute_end_(new_event()),
      comm_done_(new_event()),
      end_(new_event()) {
  PERFGATE_CUDA_CHECK(cudaStreamCreateWithFlags(&comm_stream_, cudaStreamNonBlocking));
  for (int l = 0; l < shape.layers; ++l) layer_ready_.push_back(new_event());
}

GpuStep::~GpuStep() {
  for (cudaEvent_t e : {start_, compute_end_, comm_done_, end_}) cudaEventDestroy(e);
  for (cudaEvent_t e : layer_ready_) cudaEventDestroy(e);
  for (auto& [a, b] : comm_events_) {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  if (comm_stream_) cudaStreamDestroy(comm_stream_);
}

void GpuStep::all_reduce(Bf16Bits* data, long long count) {
  if (buckets_ == comm_events_.size()) comm_events_.emplace_back(new_event(), new_event());
  const auto& [before, after] = comm_events_[buckets_++];
  PERFGATE_CUDA_CHECK(cudaEventRecord(before, comm_stream_));
  comm_.all_reduce_sum(data, static_cast<std::size_t>(count), comm_stream_);
  PERFGATE_CUDA_CHECK(cudaEventRecord(after, comm_stream_));
}

// Gradients become final layer by layer, last layer first; buckets are taken from the top of
// the ready span and the rest waits for the next layer (the CPU proxy's GradientBuckets rule).
void GpuStep::layer_ready(int layer) {
  PERFGATE_CUDA_CHECK(cudaEventRecord(layer_ready_[layer], compute_));
  PERFGATE_CUDA_CHECK(cudaStreamWaitEvent(comm_stream_, layer_ready_[layer], 0));
  low_ = model_.grads(layer);
  ready_ += per_layer_;
  while (ready_ >= bucket_) {
    ready_ -= bucket_;
    all_reduce(low_ + ready_, bucket_);
  }
}

StepTimes GpuStep::run() {
  buckets_ = 0;
  ready_ = 0;
  PERFGATE_CUDA_CHECK(cudaEventRecord(start_, compute_));
  model_.forward();
  spin(delay_us_, compute_);
  model_.backward([&](int layer) { layer_ready(layer); });
  if (ready_ > 0) all_reduce(low_, ready_);
  PERFGATE_CUDA_CHECK(cudaEventRecord(compute_end_, compute_));
  PERFGATE_CUDA_CHECK(cudaEventRecord(comm_done_, comm_stream_));
  PERFGATE_CUDA_CHECK(cudaStreamWaitEvent(compute_, comm_done_, 0));
  PERFGATE_CUDA_CHECK(cudaEventRecord(end_, compute_));
  comm_.wait(end_);

  StepTimes t;
  t.step_us = elapsed_us(start_, end_);
  t.compute_us = elapsed_us(start_, compute_end_);
  for (std::size_t i = 0; i < buckets_; ++i)
    t.comm_us += elapsed_us(comm_events_[i].first, comm_events_[i].second);
  t.exposed_us = std::max(0.0, t.step_us - t.compute_us);
  return t;
}

}  // namespace perfgate::step_proxy::gpu
