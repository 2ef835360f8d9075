// Per-sample overhead of the harness: the timing loop around a body that does nothing, so
// all that is measured is clock reads, the virtual call, bookkeeping and the stop rule.
#include <benchmark/benchmark.h>

#include "perfgate/microbench/registry.hpp"
#include "perfgate/microbench/sampling.hpp"

namespace {

using namespace perfgate::microbench;

class EmptyBody final : public HostInstance {
 public:
  EmptyBody() : HostInstance(1) {}
  void run() override { benchmark::ClobberMemory(); }
};

// One iteration = one full measure() of `samples` samples of batch 1; the reported
// "per_sample" counter is the harness's cost per sample.
void BM_measure_overhead(benchmark::State& state) {
  SamplingPolicy policy;
  policy.warmup_s = 0;
  policy.min_sample_s = 0;  // batch of one invocation: overhead as a fraction is at its worst
  policy.min_samples = policy.max_samples = static_cast<std::size_t>(state.range(0));
  policy.min_time_s = 0;
  policy.max_time_s = 1e9;
  policy.target_rel_ci = 0;  // never converge: the stop rule runs its full schedule
  EmptyBody body;
  for (auto _ : state) benchmark::DoNotOptimize(measure(body, policy));
  state.counters["per_sample"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(state.range(0)),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_measure_overhead)->Arg(100)->Arg(1000)->Arg(10000);

}  // namespace

BENCHMARK_MAIN();
