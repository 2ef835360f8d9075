// The narrow-type reduction of the MPI backend's user-defined ops, against the loop it replaced
// (per element: encode() and decode() re-reading the type, combine() the op), on the same
// random codes in the same run: items/s is elements reduced per second, one core.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "perfgate/collectives/datatype.hpp"
#include "perfgate/collectives/narrow_reduce.hpp"
#include "perfgate/collectives/reduce_op.hpp"

namespace {

using namespace perfgate::collectives;

constexpr std::size_t kElements = 1 << 20;  // 2 MiB of bf16 per buffer: in L2 on most hosts

// Finite codes around 1 (sums stay finite over many iterations of the benchmark loop).
std::vector<std::byte> codes(DataType t, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-2.0f, 2.0f);
  const std::size_t size = type_size(t);
  std::vector<std::byte> out(kElements * size);
  for (std::size_t i = 0; i < kElements; ++i) {
    const std::uint32_t code = encode(t, value(rng));
    std::memcpy(out.data() + i * size, &code, size);
  }
  return out;
}

void element_at_a_time(DataType t, ReduceOp op, const std::byte* in, std::byte* inout,
                       std::size_t count) {
  const std::size_t size = type_size(t);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t a = 0, b = 0;
    std::memcpy(&a, in + i * size, size);
    std::memcpy(&b, inout + i * size, size);
    const std::uint32_t code =
        encode(t, static_cast<float>(combine(op, decode(t, a), decode(t, b))));
    std::memcpy(inout + i * size, &code, size);
  }
}

template <bool Specialised>
void BM_reduce(benchmark::State& state) {
  const auto t = static_cast<DataType>(state.range(0));
  const auto op = static_cast<ReduceOp>(state.range(1));
  const std::vector<std::byte> in = codes(t, 1);
  const std::vector<std::byte> start = codes(t, 2);
  std::vector<std::byte> inout = start;
  for (auto _ : state) {
    state.PauseTiming();
    inout = start;  // the same values every iteration: max/min would otherwise saturate
    state.ResumeTiming();
    if constexpr (Specialised)
      reduce_encoded(t, op, in.data(), inout.data(), kElements);
    else
      element_at_a_time(t, op, in.data(), inout.data(), kElements);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kElements));
  state.SetLabel(std::string(type_name(t)) + " " + std::string(op_name(op)));
}

void cases(benchmark::internal::Benchmark* b) {
  for (const DataType t : {DataType::bf16, DataType::f16, DataType::f8e4m3})
    for (const ReduceOp op : {ReduceOp::sum, ReduceOp::max})
      b->Args({static_cast<int>(t), static_cast<int>(op)});
}
BENCHMARK(BM_reduce<false>)->Name("element_at_a_time")->Apply(cases);
BENCHMARK(BM_reduce<true>)->Name("reduce_encoded")->Apply(cases);

}  // namespace

BENCHMARK_MAIN();
