// sweep mode: collectives × datatypes × ops × sizes, out-of-place and in-place, as nccl-tests.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <numeric>
#include <optional>

#include <unistd.h>

#include <fmt/format.h>

#include "modes.hpp"
#include "perfgate/collectives/memory_report.hpp"
#include "perfgate/collectives/min_busbw.hpp"
#include "perfgate/collectives/nccl_tests_json.hpp"
#include "perfgate/collectives/size_sweep.hpp"
#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "table_memory.hpp"
#include "timing.hpp"

namespace perfgate::collectives {
namespace {

// nccl-tests' -S 1 timestamp: the local date and time, to the second.
std::string local_time_now() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%d %H:%M:%S", &local);
  return text.data();
}

// -J's file: rank 0 writes it as the collective's table ends, so its folder is checked first,
// on every rank together (a write failing at the end would leave the other ranks waiting).
void check_json_folder(ModeContext& ctx) {
  if (ctx.options.json_output.empty()) return;
  std::optional<std::string> why;
  const std::filesystem::path path(ctx.options.json_output);
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
  if (ctx.comm.rank() == 0 && !std::filesystem::is_directory(folder))
    why = fmt::format("--output_file {}: the folder {} does not exist", path.string(),
                      folder.string());
  if (const std::optional<RankReason> reason = ctx.comm.first_reason(why))
    throw InputError(reason->reason);
}

// What every -J file of the run says besides its header and rows: the command line, NCCL's
// settings in the environment (NCCL_*, CUDA_*; not the rest, which may hold secrets) and the
// library's version code.
// NCCL_TESTS_MIN_BW as rank 0's environment has it, agreed by every rank: a launcher may pass the
// variable to some ranks only (mpirun without -x on other nodes), and a malformed value is
// refused on every rank together, before anything runs.
std::optional<double> agreed_min_busbw(ModeContext& ctx) {
  std::optional<double> floor;
  std::optional<std::string> why;
  if (ctx.comm.rank() == 0) {
    try {
      floor = parse_min_busbw(std::getenv(kMinBusbwVariable));
    } catch (const InputError& e) {
      why = e.what();
    }
  }
  if (const std::optional<RankReason> reason = ctx.comm.first_reason(why))
    throw InputError(reason->reason);
  const double agreed = ctx.comm.max(floor.value_or(-1.0));
  if (agreed < 0) return std::nullopt;
  return agreed;
}

// A table's average bus bandwidth against the floor (rank 0): into the document, and a line on
// the error stream when it falls short, for a job's log to say why the run failed. Whether it
// fell short.
bool below_min_busbw(ModeContext& ctx, Collective c, double avg_busbw,
                     std::optional<double> min_busbw) {
  const bool below = min_busbw && !meets_min_busbw(avg_busbw, *min_busbw);
  ctx.document.add_to_list(
      "average_bus_bandwidth",
      {{"collective", info(c).name},
       {"busbw_gbps", avg_busbw},
       {"min_busbw_gbps", min_busbw ? nlohmann::json(*min_busbw) : nlohmann::json()},
       {"okay", min_busbw ? nlohmann::json(!below) : nlohmann::json("unchecked")}});
  if (below)
    std::fprintf(stderr,
                 "perfgate-collectives: %s: average bus bandwidth %g GB/s is below 90%% of "
                 "%s=%g\n",
                 std::string(info(c).name).c_str(), avg_busbw, kMinBusbwVariable, *min_busbw);
  return below;
}

NcclTestsJsonRun json_run(ModeContext& ctx) {
  NcclTestsJsonRun run;
  run.args = ctx.options.command_line;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    if (entry.rfind("NCCL_", 0) == 0 || entry.rfind("CUDA_", 0) == 0) run.env.push_back(entry);
  }
  const std::map<std::string, std::string> keys = ctx.backend.fingerprint_keys();
  if (const auto v = keys.find("nccl.version"); v != keys.end())
    run.nccl_version = std::stol(v->second);
  return run;
}

double mean(const std::vector<double>& v) {
  return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// The time the table shows of one timed loop, chosen across the ranks' times by -a.
double shown_time(TimeShown shown, const std::vector<double>& times) {
  switch (shown) {
    case TimeShown::rank0:
      return times.front();
    case TimeShown::minimum:
      return *std::min_element(times.begin(), times.end());
    case TimeShown::maximum:
      return *std::max_element(times.begin(), times.end());
    case TimeShown::average:
      break;
  }
  return mean(times);
}

std::vector<double> each_rank(const std::vector<RankTiming>& ranks, double RankTiming::*field) {
  std::vector<double> values;
  for (const RankTiming& r : ranks) values.push_back(r.*field);
  return values;
}

// The table's count column as nccl-tests prints it: the per-rank count the call takes, which for
// the collectives that split a total buffer over the ranks (all_gather, reduce_scatter,
// alltoall, gather, scatter) is that total's count divided by the ranks (the size column stays
// the total's bytes).
std::size_t table_count(const CaseShape& shape) {
  return info(shape.collective).splits_by_ranks
             ? shape.count / static_cast<std::size_t>(shape.ranks)
             : shape.count;
}

// Measures one placement of one case; complete on rank 0 (others: wrong count only).
CaseMeasurement measure(ModeContext& ctx, const CaseShape& shape, std::size_t bytes,
                        int timed_iterations, bool in_place) {
  const Options& o = ctx.options;
  CaseMeasurement m;
  m.backend = ctx.backend.name();
  m.shape = shape;
  m.bytes = bytes;
  m.iterations = timed_iterations;
  m.in_place = in_place;
  ctx.document.set_current(m);
  prepare_watched(ctx.backend, ctx.watchdog, shape, in_place);
  const bool output_defined = !in_place || ctx.backend.in_place_defined(shape.collective);
  if (o.check > 0 && output_defined)
    m.wrong = check_output(ctx.backend, ctx.comm, ctx.group.rank(), ctx.watchdog, shape, o.check);
  if (o.bitwise_repeats > 0 && output_defined)
    m.bitwise = check_repeatability(ctx.backend, ctx.comm, ctx.watchdog, shape, o.bitwise_repeats);
  warm_up(ctx.backend, ctx.watchdog, o.warmup_iters);
  const auto n = static_cast<std::size_t>(ctx.comm.size());  // every group's ranks
  std::vector<double> own_sum(n, 0), avg, lo, hi;
  // -I 1, rank 0: each rank's time of each iteration, every repetition's in turn.
  std::vector<std::vector<double>> iterations;
  for (int rep = 0; rep < o.repetitions; ++rep) {
    std::vector<double> my_iterations;
    const RankTiming mine = timed_loop(ctx.backend, ctx.comm, ctx.watchdog,
                                       {timed_iterations, o.agg_iters}, {o.delay_rank, o.delay_us},
                                       o.blocking, o.per_iteration ? &my_iterations : nullptr);
    const std::vector<RankTiming> all = gather_timings(ctx.comm, mine);
    const std::vector<std::vector<double>> rank_iterations =
        o.per_iteration ? ctx.comm.gather(my_iterations) : std::vector<std::vector<double>>{};
    ctx.watchdog.disarm();
    if (ctx.comm.rank() != 0) continue;
    iterations.resize(rank_iterations.size());
    for (std::size_t r = 0; r < rank_iterations.size(); ++r)
      iterations[r].insert(iterations[r].end(), rank_iterations[r].begin(),
                           rank_iterations[r].end());
    const std::vector<double> totals = each_rank(all, &RankTiming::total_us);
    m.sample_us.push_back(shown_time(o.time_shown, totals));
    if (o.report_cputime)
      m.launch_us.push_back(shown_time(o.time_shown, each_rank(all, &RankTiming::launch_us)));
    const std::vector<double> own = own_times(all);
    for (std::size_t r = 0; r < n; ++r) own_sum[r] += own[r];
    avg.push_back(shown_time(TimeShown::average, totals));
    lo.push_back(shown_time(TimeShown::minimum, totals));
    hi.push_back(shown_time(TimeShown::maximum, totals));
  }
  ctx.document.set_current(std::nullopt);
  if (ctx.comm.rank() == 0) {
    for (double& s : own_sum) s /= o.repetitions;
    m.per_rank_us = own_sum;
    m.avg_us = mean(avg);
    m.min_us = mean(lo);
    m.max_us = mean(hi);
    // As nccl-tests: an iteration's time is its slowest rank's.
    if (!iterations.empty())
      m.per_iteration.push_back(
          iteration_times(std::move(iterations), static_cast<std::size_t>(o.per_iter_skip)));
  }
  return m;
}

// As nccl-tests: the bandwidths come from the operation's time, also when the time columns
// show the launch time (-C).
PlacementCells cells(const CaseMeasurement& m) {
  const double alg =
      algbw_gbps(m.bytes, mean(m.sample_us)) * algbw_share(m.shape.collective, m.shape.ranks);
  const double shown = m.launch_us.empty() ? mean(m.sample_us) : mean(m.launch_us);
  PlacementCells c{shown, alg, alg * busbw_factor(m.shape.collective, m.shape.ranks), m.wrong};
  c.bitwise = m.bitwise;
  if (!m.per_iteration.empty()) c.iterations = m.per_iteration.back();
  return c;
}

std::vector<std::string> straggler_lines(ModeContext& ctx, CaseMeasurement& m) {
  std::vector<std::string> lines;
  for (const Straggler& s : find_stragglers(m.per_rank_us, ctx.options.straggler_margin,
                                            ctx.options.straggler_floor_us)) {
    const std::string& host = ctx.document.places().at(static_cast<std::size_t>(s.rank)).host;
    m.stragglers.push_back(s.rank);
    const CollectiveInfo& ci = info(m.shape.collective);
    const int root = ci.has_root ? m.shape.root : -1;
    // The root is named where the collective has one: -r all runs a size at every root.
    lines.push_back(fmt::format(
        "# Straggler: rank {} ({}) {} {} {}{} {} B {}: {:.2f} us vs median {:.2f} us (+{:.1f}%)\n",
        s.rank, host, ci.name, type_name(m.shape.dtype), ci.reduces ? op_name(m.shape.op) : "none",
        ci.has_root ? fmt::format(" root {}", root) : "", m.bytes,
        m.in_place ? "in-place" : "out-of-place", s.time_us, s.median_us, s.excess * 100));
    ctx.document.add_to_list("stragglers", {{"rank", s.rank},
                                            {"host", host},
                                            {"collective", ci.name},
                                            {"dtype", type_name(m.shape.dtype)},
                                            {"root", root},
                                            {"bytes", m.bytes},
                                            {"in_place", m.in_place},
                                            {"time_us", s.time_us},
                                            {"median_us", s.median_us},
                                            {"excess", s.excess}});
  }
  return lines;
}

// One size of a sweep that this run can measure: its shape and its row's leading columns.
struct SweepCase {
  CaseShape shape;
  TableRow row;
};

// The roots a collective's rows run at, in order: every rank under -r all (nccl-tests' order),
// else -r's rank; 0 for a collective without a root.
std::vector<int> roots_of(ModeContext& ctx, Collective c) {
  if (!info(c).has_root) return {0};
  if (!ctx.options.all_roots) return {ctx.options.root};
  std::vector<int> roots(static_cast<std::size_t>(ctx.group.size()));
  std::iota(roots.begin(), roots.end(), 0);
  return roots;
}

// The sizes of one collective, dtype, op and root, in sweep order; a size the run cannot
// measure is left out and noted (table and document) once, whatever the cycles (-N) and roots
// (`note_skips` for the first root only: the buffers a case needs do not depend on its root).
std::vector<SweepCase> runnable_cases(ModeContext& ctx, Collective c, DataType dtype, ReduceOp op,
                                      int root, bool note_skips, std::vector<std::string>& notes) {
  const Options& o = ctx.options;
  std::vector<SweepCase> cases;
  for (std::size_t size : size_sweep(o.min_bytes, o.max_bytes, o.steps)) {
    CaseShape shape{c,
                    dtype,
                    op,
                    root,
                    ctx.group.size(),
                    usable_count(c, size / type_size(dtype), ctx.group.size())};
    if (shape.count == 0) continue;
    if (const std::optional<std::string> why = case_refused(ctx, shape)) {
      if (!note_skips) continue;
      notes.push_back(
          fmt::format("# Skipped: {} {} {} B: {}\n", info(c).name, type_name(dtype), size, *why));
      ctx.document.add_to_list("skipped", {{"collective", info(c).name},
                                           {"dtype", type_name(dtype)},
                                           {"op", op_name(op)},
                                           {"bytes", size},
                                           {"reason", *why}});
      continue;
    }
    TableRow row{shape.count * type_size(dtype),
                 table_count(shape),
                 dtype,
                 info(c).reduces ? std::string(op_name(op)) : "none",
                 info(c).has_root ? root : -1,
                 {},
                 {}};
    // As nccl-tests: the budget divides by the size asked for, before it is rounded to whole
    // elements.
    row.iterations = iterations_within(o.iters, o.total_bytes, size);
    cases.push_back({shape, row});
  }
  return cases;
}

TableHeader header_for(ModeContext& ctx, Collective c) {
  TableHeader h;
  h.program = std::string(info(c).perf_name);
  h.min_bytes = ctx.options.min_bytes;
  h.max_bytes = ctx.options.max_bytes;
  h.steps = ctx.options.steps;
  h.warmup_iters = ctx.options.warmup_iters;
  h.iters = ctx.options.iters;
  h.agg_iters = ctx.options.agg_iters;
  h.blocking = ctx.options.blocking;
  h.check = ctx.options.check;
  h.graph = ctx.options.cuda_graph;
  h.unalign = ctx.options.unalign;
  h.registration = ctx.options.local_register;
  h.cta_policy = ctx.options.cta_policy;
  h.cputime = ctx.options.report_cputime;
  h.per_iteration = ctx.options.per_iteration;
  h.iteration_timing = ctx.backend.iteration_timing();
  h.per_iter_skip = ctx.options.per_iter_skip;
  h.timestamps = ctx.options.report_timestamps;
  h.bitwise_repeats = ctx.options.bitwise_repeats;
  const RankDescription mine = ctx.backend.describe();
  const std::vector<std::string> lines = ctx.comm.gather(
      fmt::format("{}\t{}\t{}\t{}\t{}", mine.pid, mine.device, mine.bus_id, mine.host, mine.name));
  for (std::size_t r = 0; r < lines.size(); ++r) {
    RankDescription d;
    d.rank = static_cast<int>(r);
    d.group = ctx.split.rule ? ctx.split.rule->color(d.rank) : 0;
    std::vector<std::string> f;
    std::size_t from = 0;
    for (int k = 0; k < 4; ++k) {
      const std::size_t tab = lines[r].find('\t', from);
      f.push_back(lines[r].substr(from, tab - from));
      from = tab + 1;
    }
    d.pid = std::stoi(f[0]);
    d.device = std::stoi(f[1]);
    d.bus_id = f[2];
    d.host = f[3];
    d.name = lines[r].substr(from);
    h.ranks.push_back(d);
  }
  return h;
}

// -M 1's line after the footer, and the same parts in the document (rank 0).
std::string memory_report_line(ModeContext& ctx, Collective c, const MemoryReport& report) {
  const std::string device = ctx.backend.memory_device();
  if (ctx.comm.rank() == 0)
    ctx.document.add_to_list("memory_usage", {{"collective", info(c).name},
                                              {"device", device},
                                              {"initialization_bytes", report.initialization},
                                              {"user_allocated_bytes", report.user_allocated},
                                              {"collective_bytes", report.collective},
                                              {"total_bytes", report.total()}});
  return format_memory_line(device, report);
}

}  // namespace

void print_on_root(const Communicator& comm, const std::string& text) {
  if (comm.rank() != 0) return;
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
}

namespace {

// One table's running state: what its footer and -M line sum up, the lines printed before the
// footer, and -J's rows (rank 0).
struct TableTally {
  std::size_t wrong = 0;
  std::size_t bitwise_mismatches = 0;  // rank 0: placements whose repeats differed
  double busbw_sum = 0;
  int busbw_count = 0;
  std::vector<std::string> notes;
  std::optional<TableMemory> memory;     // -M 1
  std::optional<NcclTestsJsonRun> json;  // rank 0, with -J
};

// The rows of one collective, dtype, op and root: each size out of place and in place, -N
// times over, printed as it ends; a case enters the document as its last cycle ends.
void run_cases(ModeContext& ctx, const std::vector<SweepCase>& cases, TableTally& tally) {
  const Options& o = ctx.options;
  // Per case, out-of-place and in-place: every cycle's measurements gathered (rank 0).
  std::vector<std::array<CaseMeasurement, 2>> gathered(cases.size());
  for (int cycle = 0; cycle < o.run_cycles; ++cycle) {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      TableRow row = cases[i].row;
      row.out_of_place.measured = o.out_of_place;
      // --bitwise-repeats: printed after the row, a line for each placement that differed.
      std::string mismatch_lines;
      for (bool in_place : {false, true}) {
        if (!in_place && !o.out_of_place) continue;
        CaseMeasurement m = measure(ctx, cases[i].shape, row.bytes, row.iterations, in_place);
        if (tally.memory) tally.memory->after_case();
        tally.wrong += m.wrong.value_or(0);
        if (ctx.comm.rank() != 0) continue;
        const PlacementCells shown = cells(m);
        (in_place ? row.in_place : row.out_of_place) = shown;
        if (m.bitwise && m.bitwise->any()) {
          ++tally.bitwise_mismatches;
          mismatch_lines += bitwise_detail_line(*m.bitwise, in_place);
        }
        tally.busbw_sum += shown.busbw;
        ++tally.busbw_count;
        CaseMeasurement& all = gathered[i][in_place ? 1 : 0];
        if (cycle == 0) {
          all = std::move(m);
        } else {
          absorb_cycle(all, m);
        }
        // Into the document as soon as its last cycle ends: a watchdog's partial document
        // keeps every case that completed.
        if (cycle + 1 < o.run_cycles) continue;
        for (std::string& line : straggler_lines(ctx, all)) tally.notes.push_back(std::move(line));
        ctx.document.add(case_results(all, ctx.document.scale()));
      }
      if (o.report_timestamps) row.printed_at = local_time_now();
      print_on_root(ctx.comm,
                    format_table_row(row, o.per_iteration, o.bitwise_repeats > 0) + mismatch_lines);
      if (tally.json) tally.json->rows.push_back(row);
    }
  }
}

// The collectives of o.collectives that every group's rank count can run. One that some group's
// cannot (hypercube on 3 ranks) is refused when named, as bad input, before any table; under
// `--collective all` it is skipped, as nccl-tests' hypercube_perf skips itself, with a line and
// an entry of the document's "skipped" list.
std::vector<Collective> runnable_collectives(ModeContext& ctx) {
  std::vector<Collective> runnable;
  for (Collective c : ctx.options.collectives) {
    const std::optional<RankReason> r =
        ctx.comm.first_reason(rank_count_refusal(c, ctx.group.size()));
    if (!r) {
      runnable.push_back(c);
      continue;
    }
    if (!ctx.options.every_collective) throw InputError(fmt::format("--collective: {}", r->reason));
    print_on_root(ctx.comm, fmt::format("# {}: skipped: {}\n", info(c).perf_name, r->reason));
    ctx.document.add_to_list("skipped", {{"collective", info(c).name}, {"reason", r->reason}});
  }
  return runnable;
}

}  // namespace

SweepFailures run_sweep(ModeContext& ctx) {
  const Options& o = ctx.options;
  const std::vector<Collective> collectives = runnable_collectives(ctx);
  check_json_folder(ctx);
  const std::optional<double> min_busbw = agreed_min_busbw(ctx);
  const bool writes_json = !o.json_output.empty() && ctx.comm.rank() == 0;
  const NcclTestsJsonRun json_common = writes_json ? json_run(ctx) : NcclTestsJsonRun{};
  std::size_t wrong_everywhere = 0;
  std::size_t tables_below = 0, bitwise_mismatches = 0;  // rank 0's counts
  for (Collective c : collectives) {
    const TableHeader header = header_for(ctx, c);
    TableTally tally;
    std::filesystem::path json_path;
    if (writes_json) {
      tally.json = json_common;
      tally.json->header = header;
      tally.json->start_time = local_time_now();
      json_path = unused_json_path(o.json_output);
      print_on_root(ctx.comm, fmt::format("# Writing JSON output to {}\n", json_path.string()));
    }
    print_on_root(ctx.comm, format_table_header(header));
    if (o.memory_report) tally.memory.emplace(ctx.backend);
    const std::vector<ReduceOp> ops =
        info(c).reduces ? o.ops : std::vector<ReduceOp>{ReduceOp::sum};
    const std::vector<int> roots = roots_of(ctx, c);
    // nccl-tests' order: a type's ops, an op's roots, a root's sizes.
    for (DataType dtype : o.datatypes)
      for (ReduceOp op : ops)
        for (int root : roots)
          run_cases(ctx,
                    runnable_cases(ctx, c, dtype, op, root, root == roots.front(), tally.notes),
                    tally);
    std::string tail;
    for (const std::string& note : tally.notes) tail += note;
    const double avg_busbw = tally.busbw_count ? tally.busbw_sum / tally.busbw_count : 0;
    const std::optional<std::size_t> mismatches =
        o.bitwise_repeats > 0 ? std::optional(tally.bitwise_mismatches) : std::nullopt;
    tail += format_table_footer(tally.wrong, avg_busbw, info(c).perf_name, min_busbw, mismatches);
    if (tally.memory) tail += memory_report_line(ctx, c, tally.memory->report(ctx.comm));
    print_on_root(ctx.comm, tail);
    if (ctx.comm.rank() == 0 && below_min_busbw(ctx, c, avg_busbw, min_busbw)) ++tables_below;
    if (tally.json) {
      tally.json->wrong_total = tally.wrong;
      tally.json->avg_busbw = avg_busbw;
      tally.json->min_busbw = min_busbw;
      tally.json->bitwise_mismatches = tally.bitwise_mismatches;
      tally.json->end_time = local_time_now();
      write_text_file_atomic(json_path, nccl_tests_json(*tally.json).dump(2) + "\n");
    }
    wrong_everywhere += tally.wrong;
    bitwise_mismatches += tally.bitwise_mismatches;
  }
  return {wrong_everywhere, ctx.comm.sum(bitwise_mismatches), ctx.comm.sum(tables_below)};
}

}  // namespace perfgate::collectives
