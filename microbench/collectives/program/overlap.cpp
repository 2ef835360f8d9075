// overlap mode: a GEMM and an all_reduce alone and together; how much of the shorter one hides.
#include <chrono>
#include <cmath>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "modes.hpp"
#include "perfgate/core/error.hpp"
#include "timing.hpp"

namespace perfgate::collectives {
namespace {

using Clock = std::chrono::steady_clock;

// One timed loop of all_reduces (with `repeats` GEMMs beside it when repeats > 0), started
// together after a barrier; the time is the slowest rank's.
LoopSpan comm_loop(ModeContext& ctx, int repeats) {
  const LoopSpan mine =
      measure_loop(ctx.backend, ctx.comm, ctx.watchdog, {ctx.options.iters, 1}, {}, repeats);
  const double slowest = ctx.comm.max(mine.us);
  ctx.watchdog.disarm();  // after the max, where a rank done early waits for its peers
  return {slowest, mine.launch_us, mine.operations};
}

double compute_us(Backend& backend, int repeats) {
  const Clock::time_point start = Clock::now();
  backend.launch_compute(repeats);
  backend.wait_compute();
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

}  // namespace

void run_overlap(ModeContext& ctx) {
  const Options& o = ctx.options;
  const DataType dtype = o.datatypes.front();
  CaseShape shape{Collective::all_reduce,        dtype, ReduceOp::sum, 0, ctx.group.size(),
                  o.max_bytes / type_size(dtype)};
  const double gemm_bytes = 3.0 * o.gemm_n * o.gemm_n * sizeof(float);  // A, B and C
  if (const std::optional<std::string> why = case_refused(ctx, shape, gemm_bytes))
    throw InputError(fmt::format("--maxbytes {} --gemm-n {}: {}", o.max_bytes, o.gemm_n, *why));
  CaseMeasurement current;
  current.backend = ctx.backend.name();
  current.shape = shape;
  current.bytes = shape.count * type_size(dtype);
  ctx.document.set_current(current);
  prepare_watched(ctx.backend, ctx.watchdog, shape, false);
  ctx.backend.prepare_compute(o.gemm_n);
  warm_up(ctx.backend, ctx.watchdog, o.warmup_iters);
  compute_us(ctx.backend, 1);  // warm caches and thread start-up

  const LoopSpan comm = comm_loop(ctx, 0);
  const double comm_alone = comm.us;
  const double one_gemm = ctx.comm.max(compute_us(ctx.backend, 1));
  // As many GEMMs as fill the communication time, so that either could hide the other.
  const int repeats =
      std::max(1, static_cast<int>(std::lround(comm_alone / std::max(one_gemm, 1e-3))));
  ctx.comm.barrier();
  const double compute_alone = ctx.comm.max(compute_us(ctx.backend, repeats));

  const double both = comm_loop(ctx, repeats).us;
  ctx.document.set_current(std::nullopt);

  OverlapMeasurement m{ctx.backend.name(), current.bytes, o.gemm_n,
                       compute_alone,      comm_alone,    both};
  ctx.document.add(overlap_results(m, ctx.document.scale()));
  print_on_root(
      ctx.comm,
      fmt::format(
          "# Overlap: {} x GEMM n={} | {} x all_reduce {} B {}\n"
          "# compute alone {:.1f} us, comm alone {:.1f} us, both {:.1f} us, efficiency {:.3f}\n",
          repeats, o.gemm_n, comm.operations, current.bytes, type_name(dtype), compute_alone,
          comm_alone, both, overlap_efficiency(compute_alone, comm_alone, both)));
}

}  // namespace perfgate::collectives
