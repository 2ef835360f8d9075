#include "gpu_step.hpp"

#include <algorithm>
#include <numeric>

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
      delay_us_(config.delay_us),
      skip_bucket_(config.skip_bucket),
      skip_exact_bucket_(config.skip_exact_bucket),
      compute_(compute),
      start_(new_event()),
      compute_end_(new_event()),
      comm_done_(new_event()),
      end_(new_event()),
      buckets_(step_buckets(shape, config.bucket_bytes, sizeof(Bf16Bits))),
      partials_(2 * buckets_.size() * kSumAbsBlocks) {
  PERFGATE_CUDA_CHECK(cudaStreamCreateWithFlags(&comm_stream_, cudaStreamNonBlocking));
  for (int l = 0; l < shape.layers; ++l) layer_ready_.push_back(new_event());
  for (std::size_t i = 0; i < buckets_.size(); ++i)
    comm_events_.emplace_back(new_event(), new_event());
}

GpuStep::~GpuStep() {
  for (cudaEvent_t e : {start_, compute_end_, comm_done_, end_}) cudaEventDestroy(e);
  for (cudaEvent_t e : layer_ready_) cudaEventDestroy(e);
  for (auto& [before, after] : comm_events_) {
    cudaEventDestroy(before);
    cudaEventDestroy(after);
  }
  if (comm_stream_) cudaStreamDestroy(comm_stream_);
}

void GpuStep::layer_ready(int layer, GradientSums* sums) {
  Bf16Bits* base = model_.grads(0);
  std::size_t end = next_bucket_;
  while (end < buckets_.size() && buckets_[end].after_layer == layer) ++end;
  // The local sums run in the compute stream's order, before the event the all-reduces wait
  // for: an all-reduce that did not wait for its gradients would change its bucket's sum.
  if (sums)
    for (std::size_t b = next_bucket_; b < end; ++b)
      sum_abs_partials(base + buckets_[b].offset, static_cast<std::size_t>(buckets_[b].count),
                       partials(b, 0), compute_);
  PERFGATE_CUDA_CHECK(cudaEventRecord(layer_ready_[layer], compute_));
  PERFGATE_CUDA_CHECK(cudaStreamWaitEvent(comm_stream_, layer_ready_[layer], 0));
  for (; next_bucket_ < end; ++next_bucket_) {
    const Bucket& b = buckets_[next_bucket_];
    const auto& [before, after] = comm_events_[next_bucket_];
    PERFGATE_CUDA_CHECK(cudaEventRecord(before, comm_stream_));
    if (static_cast<int>(next_bucket_) != skip_bucket_)
      comm_.all_reduce_sum(base + b.offset, static_cast<std::size_t>(b.count), comm_stream_);
    PERFGATE_CUDA_CHECK(cudaEventRecord(after, comm_stream_));
  }
}

// Called once the step has ended (every all-reduce done).
void GpuStep::take_reduced_sums(GradientSums& sums) {
  const Bf16Bits* base = model_.grads(0);
  for (std::size_t b = 0; b < buckets_.size(); ++b)
    sum_abs_partials(base + buckets_[b].offset, static_cast<std::size_t>(buckets_[b].count),
                     partials(b, 1), compute_);
  // download() runs on the legacy stream, which does not wait for the compute stream.
  PERFGATE_CUDA_CHECK(cudaStreamSynchronize(compute_));
  const std::vector<double> host = partials_.download();
  const auto total = [&](std::size_t b, int which) {  // the same layout as partials()
    const auto first = host.begin() + std::ptrdiff_t((2 * b + std::size_t(which)) * kSumAbsBlocks);
    return std::accumulate(first, first + kSumAbsBlocks, 0.0);
  };
  sums.local.clear();
  sums.reduced.clear();
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    sums.local.push_back(total(b, 0));
    sums.reduced.push_back(total(b, 1));
  }
}

std::vector<long long> GpuStep::exact_pass(int rank, int ranks) {
  Bf16Bits* base = model_.grads(0);
  // Written and checked on the device: on the host it costs about 22 ns a gradient (computed: 17 s
  // for the device check's 805 M-gradient model; docs/scaling.md).
  exact_pass_fill(base, model_.gradient_count(), ranks, rank, compute_);
  PERFGATE_CUDA_CHECK(cudaEventRecord(compute_end_, compute_));
  PERFGATE_CUDA_CHECK(cudaStreamWaitEvent(comm_stream_, compute_end_, 0));
  for (std::size_t b = 0; b < buckets_.size(); ++b)
    if (static_cast<int>(b) != skip_exact_bucket_)
      comm_.all_reduce_sum(base + buckets_[b].offset, static_cast<std::size_t>(buckets_[b].count),
                           comm_stream_);
  PERFGATE_CUDA_CHECK(cudaEventRecord(comm_done_, comm_stream_));
  comm_.wait(comm_done_);
  cuda::DeviceBuffer<unsigned long long> wrong(buckets_.size());
  PERFGATE_CUDA_CHECK(
      cudaMemsetAsync(wrong.get(), 0, wrong.size() * sizeof(unsigned long long), compute_));
  for (std::size_t b = 0; b < buckets_.size(); ++b)
    exact_pass_count_wrong(base, static_cast<std::size_t>(buckets_[b].offset),
                           static_cast<std::size_t>(buckets_[b].count), ranks, wrong.get() + b,
                           compute_);
  // download() runs on the legacy stream, which does not wait for the compute stream.
  PERFGATE_CUDA_CHECK(cudaStreamSynchronize(compute_));
  const std::vector<unsigned long long> counts = wrong.download();
  return {counts.begin(), counts.end()};
}

StepTimes GpuStep::run(GradientSums* sums) {
  next_bucket_ = 0;
  PERFGATE_CUDA_CHECK(cudaEventRecord(start_, compute_));
  model_.forward();
  spin(delay_us_, compute_);
  model_.backward([&](int layer) { layer_ready(layer, sums); });
  PERFGATE_CUDA_CHECK(cudaEventRecord(compute_end_, compute_));
  PERFGATE_CUDA_CHECK(cudaEventRecord(comm_done_, comm_stream_));
  PERFGATE_CUDA_CHECK(cudaStreamWaitEvent(compute_, comm_done_, 0));
  PERFGATE_CUDA_CHECK(cudaEventRecord(end_, compute_));
  comm_.wait(end_);
  if (sums) take_reduced_sums(*sums);

  StepTimes t;
  t.step_us = elapsed_us(start_, end_);
  t.compute_us = elapsed_us(start_, compute_end_);
  for (const auto& [before, after] : comm_events_) t.comm_us += elapsed_us(before, after);
  t.exposed_us = std::max(0.0, t.step_us - t.compute_us);
  return t;
}

}  // namespace perfgate::step_proxy::gpu
