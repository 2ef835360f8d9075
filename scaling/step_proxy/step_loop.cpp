#include "step_loop.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace perfgate::step_proxy {

namespace {

// Gradients become final layer by layer, last layer first; they are all-reduced in buckets of
// `bucket_elems` taken from the top of the ready span, the rest waits for the next layer.
class GradientBuckets {
 public:
  GradientBuckets(TransformerStack& model, CommThread& comm, long long per_layer, long long bucket_elems)
      : model_(model), comm_(comm), per_layer_(per_layer), bucket_(std::max(1LL, bucket_elems)) {}

  void layer_ready(int layer) {
    const double start = ComputeClock::now_us();
    low_ = model_.grads(layer);
    ready_ += per_layer_;
    while (ready_ >= bucket_) {
      ready_ -= bucket_;
      comm_.enqueue(low_ + ready_, static_cast<int>(bucket_));
    }
    handoff_us += ComputeClock::now_us() - start;
  }
  void flush() {
    const double start = ComputeClock::now_us();
    if (ready_ > 0) comm_.enqueue(low_, static_cast<int>(ready_));
    ready_ = 0;
    handoff_us += ComputeClock::now_us() - start;
  }
  // Time the compute thread spent handing buckets over (waking the communication thread often
  // costs it the CPU): communication on the critical path, like a blocked kernel launch.
  double handoff_us = 0;

 private:
  TransformerStack& model_;
  CommThread& comm_;
  long long per_layer_, bucket_;
  float* low_ = nullptr;
  long long ready_ = 0;
};

}  // namespace

StepTimes run_step(TransformerStack& model, CommThread& comm, const Shape& shape, const StepConfig& config) {
  ComputeClock clock;
  const double start = ComputeClock::now_us();
  model.forward(clock);
  if (config.delay_us > 0)
    clock.timed([&] { std::this_thread::sleep_for(std::chrono::duration<double, std::micro>(config.delay_us)); });
  GradientBuckets buckets(model, comm, shape.params_per_layer(), config.bucket_bytes / static_cast<long long>(sizeof(float)));
  model.backward(clock, [&](int layer) { buckets.layer_ready(layer); });
  buckets.flush();
  StepTimes t;
  t.exposed_us = comm.drain() + buckets.handoff_us;
  t.step_us = ComputeClock::now_us() - start;
  t.compute_us = clock.compute_us;
  t.comm_us = comm.take_comm_us();
  return t;
}

}  // namespace perfgate::step_proxy
