// buckets mode: a fixed gradient volume all-reduced in buckets of size b, for a range of b.
#include <optional>
#include <string>

#include <fmt/format.h>

#include "modes.hpp"
#include "perfgate/collectives/size_sweep.hpp"
#include "perfgate/core/error.hpp"
#include "timing.hpp"

namespace perfgate::collectives {

void run_buckets(ModeContext& ctx) {
  const Options& o = ctx.options;
  const DataType dtype = o.datatypes.front();
  const std::size_t element = type_size(dtype);
  std::vector<BucketMeasurement> rows;
  std::string skipped, smallest_refused;
  for (std::size_t bucket : size_sweep(o.bucket_min, o.bucket_max, o.steps)) {
    if (bucket > o.bucket_total || bucket < element) continue;
    // The volume is rounded down to whole buckets (exact for the usual powers of two).
    const int buckets = static_cast<int>(o.bucket_total / bucket);
    CaseShape shape{Collective::all_reduce, dtype,           ReduceOp::sum, 0,
                    ctx.group.size(),       bucket / element};
    if (const std::optional<std::string> why = case_refused(ctx, shape)) {
      skipped += fmt::format("# Skipped: bucket {} B: {}\n", bucket, *why);
      if (smallest_refused.empty()) smallest_refused = fmt::format("{} B: {}", bucket, *why);
      ctx.document.add_to_list("skipped", {{"collective", "all_reduce"},
                                           {"dtype", type_name(dtype)},
                                           {"bucket_bytes", bucket},
                                           {"reason", *why}});
      continue;
    }
    CaseMeasurement current;
    current.backend = ctx.backend.name();
    current.shape = shape;
    current.bytes = bucket;
    ctx.document.set_current(current);
    prepare_watched(ctx.backend, ctx.watchdog, shape, false);
    warm_up(ctx.backend, ctx.watchdog, std::min(buckets, std::max(o.warmup_iters, 1)));
    BucketMeasurement m{
        ctx.backend.name(), dtype, bucket * static_cast<std::size_t>(buckets), bucket, {},
        ctx.group.size(),   false};
    for (int rep = 0; rep < o.repetitions; ++rep) {
      const RankTiming mine =
          timed_loop(ctx.backend, ctx.comm, ctx.watchdog, {buckets, 1}, {o.delay_rank, o.delay_us});
      m.sample_us.push_back(
          ctx.comm.max(mine.total_us * buckets));  // a step ends with its slowest rank
      ctx.watchdog.disarm();
    }
    rows.push_back(m);
  }
  ctx.document.set_current(std::nullopt);
  // Options check that some bucket fits the volume: none measured means none fit in memory.
  if (rows.empty())
    throw InputError("--bucket-min: no bucket can run; the smallest, " + smallest_refused);
  auto best = std::min_element(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return summarize(a.sample_us).median < summarize(b.sample_us).median;
  });
  best->best = true;
  std::string text = fmt::format("# Gradient buckets: all_reduce of {} B of {} over {} ranks\n",
                                 o.bucket_total, type_name(dtype), ctx.group.size());
  text +=
      fmt::format("# {:>12}  {:>8}  {:>12}  {:>8}\n", "bucket(B)", "buckets", "step(us)", "busbw");
  for (const BucketMeasurement& m : rows) {
    const double t = summarize(m.sample_us).median;
    const double bus = algbw_gbps(m.total_bytes, t) * busbw_factor(Collective::all_reduce, m.ranks);
    text += fmt::format("# {:12d}  {:8d}  {:>12}  {:8.2f}{}\n", m.bucket_bytes,
                        m.total_bytes / m.bucket_bytes, format_time_us(t), bus,
                        m.best ? "  <- best" : "");
    ctx.document.add(bucket_results(m, ctx.document.scale()));
  }
  text += skipped;
  text += fmt::format("# Best bucket: {} B\n", best->bucket_bytes);
  ctx.document.set_metadata("best_bucket_bytes", best->bucket_bytes);
  print_on_root(ctx.comm, text);
}

}  // namespace perfgate::collectives
