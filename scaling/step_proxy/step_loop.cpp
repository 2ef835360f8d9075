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
  GradientBuckets(TransformerStack& model, CommThread& comm, std::vector<Bucket> plan)
      : model_(model), comm_(comm), plan_(std::move(plan)) {}

  void layer_ready(int layer) {
    const double start = ComputeClock::now_us();
    for (; next_ < plan_.size() && plan_[next_].after_layer == layer; ++next_)
      comm_.enqueue(model_.grads(0) + plan_[next_].offset, static_cast<int>(plan_[next_].count));
    handoff_us += ComputeClock::now_us() - start;
  }
  // Time the compute thread spent handing buckets over (waking the communication thread often
  // costs it the CPU): communication on the critical path, like a blocked kernel launch.
  double handoff_us = 0;

 private:
  TransformerStack& model_;
  CommThread& comm_;
  std::vector<Bucket> plan_;
  std::size_t next_ = 0;
};

}  // namespace

StepTimes run_step(TransformerStack& model, CommThread& comm, const Shape& shape,
                   const StepConfig& config) {
  ComputeClock clock;
  const double start = ComputeClock::now_us();
  model.forward(clock);
  if (config.delay_us > 0)
    clock.timed([&] {
      std::this_thread::sleep_for(std::chrono::duration<double, std::micro>(config.delay_us));
    });
  GradientBuckets buckets(
      model, comm,
      plan_buckets(shape.layers, shape.params_per_layer(),
                   std::max(1LL, config.bucket_bytes / static_cast<long long>(sizeof(float)))));
  model.backward(clock, [&](int layer) { buckets.layer_ready(layer); });
  StepTimes t;
  t.exposed_us = comm.drain() + buckets.handoff_us;
  t.step_us = ComputeClock::now_us() - start;
  t.compute_us = clock.compute_us;
  t.comm_us = comm.take_comm_us();
  return t;
}

}  // namespace perfgate::step_proxy
