// The timing loop: warm-up, batch sizing, samples. The only place the harness reads a clock.
#include <chrono>

#include "perfgate/microbench/registry.hpp"
#include "perfgate/microbench/sampling.hpp"
#include "phase_range.hpp"

namespace perfgate::microbench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Times `iterations` invocations (each running the body `repeat` times): the backend's own
// clock when it has one (manual timing), else the harness's steady clock.
double time_batch(Instance& inst, std::size_t iterations, int repeat) {
  const std::size_t runs = iterations * static_cast<std::size_t>(repeat);
  if (auto t = inst.time_batch(runs)) return *t;
  const auto t0 = Clock::now();
  for (std::size_t i = 0; i < runs; ++i) inst.run();
  return seconds_since(t0);
}

// Doubles the batch until a sample is long enough (or the warm-up budget is spent), then runs
// that batch until the budget is spent, so that first-run costs stay out of the samples.
void warm_up(Instance& inst, const SamplingPolicy& policy, int repeat, Measurement& m) {
  const PhaseRange phase("warm-up");
  const auto t0 = Clock::now();
  for (;;) {
    const double t = time_batch(inst, m.batch, repeat);
    if (t >= policy.min_sample_s) break;
    if (seconds_since(t0) >= policy.warmup_s) {
      // Out of warm-up budget: scale the batch to the target from the last measurement.
      const double per = t / static_cast<double>(m.batch);
      if (per > 0) m.batch = static_cast<std::size_t>(policy.min_sample_s / per) + 1;
      break;
    }
    m.batch *= 2;
  }
  while (seconds_since(t0) < policy.warmup_s) time_batch(inst, m.batch, repeat);
  m.warmup_s = seconds_since(t0);
}

}  // namespace

Measurement measure(Instance& inst, const SamplingPolicy& policy, int repeat) {
  Measurement m;
  warm_up(inst, policy, repeat, m);
  inst.sampling_started();
  const PhaseRange samples("samples");

  StopRule rule(policy);
  const double per_batch = 1e9 / static_cast<double>(m.batch);
  m.samples_ns.reserve(std::min<std::size_t>(policy.max_samples, 4096));
  while (m.stop == StopReason::running) {
    const double t = time_batch(inst, m.batch, repeat);
    m.sampled_s += t;
    m.samples_ns.push_back(t * per_batch);
    m.stop = rule.after_sample(m.samples_ns, m.sampled_s);
  }
  m.rel_ci = rule.last_rel_width();
  return m;
}

}  // namespace perfgate::microbench
