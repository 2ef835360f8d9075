// reference mode: a hand-written MPI_Allreduce loop with no harness around it, to check that the
// harness adds nothing to what plain MPI achieves.
#include <chrono>
#include <climits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <mpi.h>

#include "modes.hpp"
#include "perfgate/collectives/page_aligned.hpp"
#include "perfgate/collectives/size_sweep.hpp"

namespace perfgate::collectives {

void run_reference(ModeContext& ctx) {
  const Options& o = ctx.options;
  const int n = ctx.group.size();
  const MPI_Comm peers = ctx.group.comm();  // each NCCL_TESTS_SPLIT group runs its own loop
  const MemoryShare host = host_memory_share(ctx.comm.comm());  // whatever the backend's memory
  std::string text = fmt::format(
      "# Reference: plain MPI_Allreduce loop, float sum, {} ranks{}\n", n,
      ctx.split.groups > 1 ? fmt::format(" in each of {} groups", ctx.split.groups) : "");
  text += fmt::format("# {:>10}  {:>12}  {:>7}  {:>6}  {:>6}\n", "size", "count", "time", "algbw",
                      "busbw");
  for (std::size_t size : size_sweep(o.min_bytes, o.max_bytes, o.steps)) {
    const std::size_t count = size / sizeof(float);
    if (count == 0) continue;
    const CaseShape shape{Collective::all_reduce, DataType::f32, ReduceOp::sum, 0, n, count};
    std::optional<std::string> why;
    if (count > static_cast<std::size_t>(INT_MAX))
      why = "more than INT_MAX elements";
    else
      why = buffers_do_not_fit(ctx, shape, 0, host);
    if (why) {
      text += fmt::format("# Skipped: {} B: {}\n", size, *why);
      ctx.document.add_to_list(
          "skipped",
          {{"collective", "all_reduce"}, {"dtype", "float"}, {"bytes", size}, {"reason", *why}});
      continue;
    }
    PageAlignedVector<float> send(count, 1.0f), recv(count, 0.0f);  // placed as the harness's
    const int c = static_cast<int>(count);
    for (int i = 0; i < o.warmup_iters; ++i)
      MPI_Allreduce(send.data(), recv.data(), c, MPI_FLOAT, MPI_SUM, peers);
    ReferenceMeasurement m{count * sizeof(float), n, {}};
    for (int rep = 0; rep < o.repetitions; ++rep) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      for (int i = 0; i < o.iters; ++i)
        MPI_Allreduce(send.data(), recv.data(), c, MPI_FLOAT, MPI_SUM, peers);
      const double per_op_us = (MPI_Wtime() - start) * 1e6 / o.iters;
      double sum = 0;
      MPI_Allreduce(&per_op_us, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      m.sample_us.push_back(sum / ctx.comm.size());  // average across all ranks, as nccl-tests
    }
    const double t = summarize(m.sample_us).mean;
    const double alg = algbw_gbps(m.bytes, t);
    text += fmt::format("  {:>10}  {:>12}  {}  {}  {}\n", m.bytes, count, format_time_us(t),
                        format_table_number(alg, 6),
                        format_table_number(alg * busbw_factor(Collective::all_reduce, n), 6));
    if (ctx.comm.rank() == 0) ctx.document.add(reference_results(m, ctx.document.scale()));
  }
  print_on_root(ctx.comm, text);
}

}  // namespace perfgate::collectives
