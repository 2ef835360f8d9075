#include "step_loop.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>
#include <vector>

#include "bucket_plan.hpp"

namespace perfgate::step_proxy {

namespace {

// Launches the all-reduces of the bucket plan as the layers' gradients become final.
class GradientBuckets {
 public:
  GradientBuckets(TransformerStack& model, CommThread& comm, std::vector<Bucket> plan,
                  int skip_bucket, GradientSums* sums)
      : model_(model), comm_(comm), plan_(std::move(plan)), skip_(skip_bucket), sums_(sums) {
    if (sums_) sums_->local.assign(plan_.size(), 0), sums_->reduced.assign(plan_.size(), 0);
  }

  void layer_ready(int layer) {
    const double start = ComputeClock::now_us();
    for (; next_ < plan_.size() && plan_[next_].after_layer == layer; ++next_) {
      if (sums_) sums_->local[next_] = sum_abs(data(next_), plan_[next_].count);
      if (static_cast<int>(next_) != skip_)
        comm_.enqueue(data(next_), static_cast<int>(plan_[next_].count));
    }
    handoff_us += ComputeClock::now_us() - start;
  }
  // After the drain: every bucket's all-reduced sum.
  void take_reduced_sums() {
    if (sums_)
      for (std::size_t b = 0; b < plan_.size(); ++b)
        sums_->reduced[b] = sum_abs(data(b), plan_[b].count);
  }
  // Time the compute thread spent handing buckets over (waking the communication thread often
  // costs it the CPU): communication on the critical path, like a blocked kernel launch.
  double handoff_us = 0;

 private:
  float* data(std::size_t bucket) { return model_.grads(0) + plan_[bucket].offset; }

  TransformerStack& model_;
  CommThread& comm_;
  std::vector<Bucket> plan_;
  int skip_;
  GradientSums* sums_;
  std::size_t next_ = 0;
};

}  // namespace

long long bucket_gradients(long long bucket_bytes, std::size_t gradient_bytes) {
  return std::max(1LL, bucket_bytes / static_cast<long long>(gradient_bytes));
}

std::vector<Bucket> step_buckets(const Shape& shape, long long bucket_bytes,
                                 std::size_t gradient_bytes) {
  return plan_buckets(shape.layers, shape.params_per_layer(),
                      bucket_gradients(bucket_bytes, gradient_bytes));
}

std::vector<long long> run_exact_pass(TransformerStack& model, CommThread& comm, const Shape& shape,
                                      const StepConfig& config, int rank, int ranks) {
  const std::vector<Bucket> plan = step_buckets(shape, config.bucket_bytes, sizeof(float));
  float* grads = model.grads(0);
  const long long total = static_cast<long long>(shape.layers) * shape.params_per_layer();
  for (long long i = 0; i < total; ++i)
    grads[i] = static_cast<float>(exact_pass_input(ranks, rank, i));
  for (std::size_t b = 0; b < plan.size(); ++b)
    if (static_cast<int>(b) != config.skip_exact_bucket)
      comm.enqueue(grads + plan[b].offset, static_cast<int>(plan[b].count));
  comm.drain();
  comm.take_comm_us();  // not a step's communication
  std::vector<long long> wrong;
  for (const Bucket& bucket : plan)
    wrong.push_back(exact_pass_wrong(bucket, ranks, [&](long long i) { return double(grads[i]); }));
  return wrong;
}

StepTimes run_step(TransformerStack& model, CommThread& comm, const Shape& shape,
                   const StepConfig& config, GradientSums* sums) {
  ComputeClock clock;
  const double start = ComputeClock::now_us();
  model.forward(clock);
  if (config.delay_us > 0)
    clock.timed([&] {
      std::this_thread::sleep_for(std::chrono::duration<double, std::micro>(config.delay_us));
    });
  GradientBuckets buckets(model, comm, step_buckets(shape, config.bucket_bytes, sizeof(float)),
                          config.skip_bucket, sums);
  model.backward(clock, [&](int layer) { buckets.layer_ready(layer); });
  StepTimes t;
  t.exposed_us = comm.drain() + buckets.handoff_us;
  buckets.take_reduced_sums();
  t.step_us = ComputeClock::now_us() - start;
  t.compute_us = clock.compute_us;
  t.comm_us = comm.take_comm_us();
  return t;
}

}  // namespace perfgate::step_proxy
