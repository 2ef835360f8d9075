// The data check's host cost per element: writing a rank's inputs (encode_input) and counting
// wrong elements of its output (count_wrong_encoded), as perfgate-collectives does around every
// case with -c 1, on 16 Mi elements at 8 ranks.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <vector>

#include "perfgate/collectives/data_pattern.hpp"

namespace {

using namespace perfgate::collectives;

constexpr std::size_t kElements = std::size_t{1} << 24;

CaseShape shape(const benchmark::State& state) {
  return {static_cast<Collective>(state.range(0)),
          static_cast<DataType>(state.range(1)),
          ReduceOp::sum,
          0,
          8,
          kElements};
}

void label(benchmark::State& state, const CaseShape& s) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kElements));
  state.SetLabel(std::string(info(s.collective).name) + " " + std::string(type_name(s.dtype)));
}

void BM_fill(benchmark::State& state) {
  const CaseShape s = shape(state);
  std::vector<std::byte> buffer(kElements * type_size(s.dtype));
  for (auto _ : state) {
    encode_input(s, 3, 0, buffer);
    benchmark::ClobberMemory();
  }
  label(state, s);
}

// The receive buffer holds the right result, so every element is compared in full.
void BM_check(benchmark::State& state) {
  const CaseShape s = shape(state);
  std::vector<double> expected(kElements);
  for (std::size_t i = 0; i < kElements; ++i) expected[i] = expected_value(s, 3, i);
  std::vector<std::byte> buffer(kElements * type_size(s.dtype));
  encode_array(s.dtype, expected, buffer);
  for (auto _ : state) {
    const std::size_t wrong = count_wrong_encoded(s, 3, 0, buffer);
    if (wrong != 0) state.SkipWithError("the correct result was counted wrong");
    benchmark::DoNotOptimize(wrong);
  }
  label(state, s);
}

void cases(benchmark::internal::Benchmark* b) {
  for (const Collective c : {Collective::all_reduce, Collective::all_gather})
    for (const DataType t : {DataType::f32, DataType::bf16, DataType::f8e4m3})
      b->Args({static_cast<int>(c), static_cast<int>(t)});
  b->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_fill)->Apply(cases);
BENCHMARK(BM_check)->Apply(cases);

}  // namespace

BENCHMARK_MAIN();
