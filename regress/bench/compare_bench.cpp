// Compare speed: 10,000 series × 30 samples per side, one core (target: < 1 s per comparison).
#include <random>
#include <string>

#include <benchmark/benchmark.h>

#include "perfgate/regress/compare.hpp"

namespace {

perfgate::Run make_run(const std::string& uuid, std::size_t series, std::size_t samples,
                       double slowdown, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> noise(0.0, 0.02);
  perfgate::Run run;
  run.uuid = uuid;
  for (std::size_t i = 0; i < series; ++i) {
    perfgate::Result r;
    r.key.family = "bench/" + std::to_string(i);
    r.key.params["size"] = std::to_string(1024 * (i % 7 + 1));
    const double level =
        1000.0 * (1 + static_cast<double>(i % 13)) * (i % 10 == 0 ? 1 + slowdown : 1.0);
    for (std::size_t s = 0; s < samples; ++s) r.samples.push_back(level * noise(rng));
    r.summary = perfgate::summarize(r.samples);
    run.results.push_back(std::move(r));
  }
  return run;
}

void BM_CompareRuns(benchmark::State& state) {
  const auto series = static_cast<std::size_t>(state.range(0));
  const auto samples = static_cast<std::size_t>(state.range(1));
  const std::vector<perfgate::Run> base{make_run("base", series, samples, 0.0, 1)};
  const perfgate::Run cand = make_run("cand", series, samples, 0.05, 2);
  perfgate::regress::CompareConfig config;
  config.now = "2026-01-01T00:00:00Z";
  for (auto _ : state) {
    auto c = perfgate::regress::compare_runs(base, cand, config, {}, {});
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(series));
}
BENCHMARK(BM_CompareRuns)
    ->Args({10000, 30})
    ->Args({10000, 10})
    ->Args({1000, 30})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
