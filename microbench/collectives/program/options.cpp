#include "options.hpp"

#include <charconv>
#include <functional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgate/collectives/size_sweep.hpp"
#include "perfgate/core/byte_size.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::collectives {
namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  for (char c : text + ",") {
    if (c == ',') {
      if (!item.empty()) items.push_back(item);
      item.clear();
    } else if (c != ' ') {
      item += c;
    }
  }
  return items;
}

// "all" or a comma list, each item parsed by `parse`.
template <typename T>
std::vector<T> parse_list(const std::string& text, const std::vector<T>& all,
                          const std::function<T(std::string_view)>& parse, const char* option) {
  if (text == "all") return all;
  std::vector<T> out;
  for (const std::string& item : split_list(text)) out.push_back(parse(item));
  if (out.empty()) throw InputError(fmt::format("{}: empty list", option));
  return out;
}

double parse_margin(std::string text) {
  bool percent = !text.empty() && text.back() == '%';
  if (percent) text.pop_back();
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) {
    throw InputError(fmt::format(
        "--straggler-margin: '{}' is not a fraction (0.1) or a percentage (10%)", text));
  }
  return percent ? value / 100 : value;
}

// -f and -i as nccl-tests reads them: a factor of 2 or more multiplies, a factor of 1 adds
// --stepbytes (1M unless given); giving -i with a factor of 2 or more is refused, not guessed.
SizeSteps parse_steps(const RawOptions& raw) {
  SizeSteps steps;
  if (!raw.step_factor.empty()) {
    const std::string& text = raw.step_factor;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), steps.factor);
    if (ec != std::errc() || end != text.data() + text.size() || steps.factor == 0)
      throw InputError(fmt::format("--stepfactor: '{}' is not a whole number of 1 or more", text));
  }
  if (raw.step_bytes.empty()) return steps;
  steps.bytes = parse_byte_size(raw.step_bytes, "--stepbytes");
  if (steps.bytes == 0) throw InputError("--stepbytes: must be at least 1");
  if (raw.step_factor.empty()) {
    steps.factor = 1;
  } else if (steps.by_factor()) {
    throw InputError(fmt::format(
        "--stepbytes {} with --stepfactor {}: give one of them (a factor of 1 uses the increment)",
        raw.step_bytes, raw.step_factor));
  }
  return steps;
}

// -r: a rank, or "all" (nccl-tests' -r all: broadcast and reduce at every root in turn). The
// rank is checked against the run's ranks once MPI is up.
void parse_root(const std::string& text, Options& o) {
  if (text == "all") {
    o.all_roots = true;
    o.root = 0;
    return;
  }
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), o.root);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw InputError(fmt::format("--root: '{}' is not a rank number or 'all'", text));
}

Mode parse_mode(const std::string& s) {
  for (Mode m : {Mode::sweep, Mode::overlap, Mode::buckets, Mode::reference}) {
    if (s == mode_name(m)) return m;
  }
  throw InputError(
      fmt::format("--mode: unknown mode '{}' (sweep, overlap, buckets, reference)", s));
}

}  // namespace

const char* mode_name(Mode m) {
  switch (m) {
    case Mode::sweep:
      return "sweep";
    case Mode::overlap:
      return "overlap";
    case Mode::buckets:
      return "buckets";
    case Mode::reference:
      return "reference";
  }
  return "sweep";
}

std::string launch_method(const Options& o) {
  std::vector<std::string> flags;
  if (o.agg_iters != 1) flags.push_back(fmt::format("-m {}", o.agg_iters));
  if (o.blocking != 0) flags.push_back(fmt::format("-z {}", o.blocking));
  if (o.cuda_graph > 0) flags.push_back(fmt::format("-G {}", o.cuda_graph));
  if (o.local_register != 0) flags.push_back(fmt::format("-R {}", o.local_register));
  if (o.stream_null) flags.push_back("-y 1");
  if (o.cta_policy >= 0) flags.push_back(fmt::format("-x {}", o.cta_policy));
  if (o.unalign != 0) flags.push_back(fmt::format("-u {}", o.unalign));
  return fmt::format("{}", fmt::join(flags, " "));
}

namespace {

// nccl-tests' options that perfgate-collectives does not take: each is refused with one line
// saying so and why, not CLI11's "arguments were not expected", so that a command line copied
// from nccl-tests fails plainly.
struct NotTaken {
  const char* names;
  const char* why;
};
constexpr NotTaken kNotTaken[] = {
    {"-D,--device_implementation", "NCCL's own implementation only"},
    {"-V,--device_cta_count", "NCCL's own implementation only"},
    // Options of nccl-tests' forks (fault tolerance, communicator splits, tuning).
    {"-k,--side_comp", "no side computation; --mode overlap times a GEMM beside the operations"},
    {"-l,--replay", "no trace replay"},
    {"-B,--commblocking", "communicators are blocking"},
    {"-F,--ft_test", "no fault-tolerance tests"},
    {"-L,--ft_list", "no fault-tolerance tests"},
    {"-P,--split_comm", "no communicator split"},
    {"-A,--per_coll_perf", "no per-operation times; -I 1 times each iteration"},
    {"-q,--traffic_class", "no traffic class is set"},
    {"-U,--tuning", "no tuning report"},
};

void add_options_not_taken(CLI::App& app, RawOptions& raw) {
  for (const NotTaken& option : kNotTaken) {
    const std::string names = option.names;
    const std::string long_name = names.substr(names.find(',') + 1);
    app.add_option_function<std::string>(
           names,
           [&raw, long_name, why = option.why](const std::string& value) {
             if (raw.not_taken.empty())
               raw.not_taken = fmt::format(
                   "{} {}: an nccl-tests option perfgate-collectives does not take ({})", long_name,
                   value, why);
           },
           option.why)
        ->group("nccl-tests options not taken");
  }
}

}  // namespace

void add_options(CLI::App& app, Options& o, RawOptions& raw) {
  app.add_option("--backend", o.backend,
                 "mpi, nccl or auto (nccl when compiled in and a GPU is visible)")
      ->check(CLI::IsMember({"auto", "mpi", "nccl"}));
  app.add_option("--mode", raw.mode, "sweep, overlap, buckets or reference");
  app.add_option("--collective", raw.collectives,
                 "comma list of all_reduce, all_gather, reduce_scatter, broadcast, reduce, "
                 "alltoall, sendrecv, gather, scatter, hypercube, or all");
  app.add_option("-b,--minbytes", raw.min_bytes, "smallest size (K, M, G suffixes)");
  app.add_option("-e,--maxbytes", raw.max_bytes, "largest size (K, M, G suffixes)");
  app.add_option("-f,--stepfactor", raw.step_factor,
                 "size multiplier between steps (default 2; 1: fixed steps of --stepbytes)");
  app.add_option("-i,--stepbytes", raw.step_bytes,
                 "fixed increment between sizes, instead of --stepfactor (K, M, G suffixes)");
  app.add_option("-d,--datatype", raw.datatypes,
                 "comma list of float, bfloat16, half, f8e4m3, f8e5m2, or all");
  app.add_option("-o,--op", raw.ops, "comma list of sum, prod, max, min, avg, mulsum, or all");
  app.add_option("-r,--root", raw.root,
                 "root rank of broadcast and reduce, or all (every rank in turn)");
  app.add_option("-w,--warmup_iters", o.warmup_iters, "untimed operations before each timed loop");
  app.add_option("-n,--iters", o.iters, "iterations per timed loop");
  app.add_option("-s,--tbytes", raw.total_bytes,
                 "sweep mode: bytes a size's timed loop may move (K, M, G suffixes); a size runs "
                 "as many of --iters as fit, at least one");
  app.add_option("-m,--agg_iters", o.agg_iters,
                 "sweep mode: operations launched together in each iteration");
  app.add_option("-z,--blocking", raw.blocking,
                 "sweep mode: 1 waits for each operation and a barrier of all ranks, 2 waits "
                 "only, 3 waits for each iteration and a barrier left out of the time");
  app.add_option("--repetitions", o.repetitions, "timed loops per case (one sample each)");
  app.add_option("-N,--run_cycles", o.run_cycles,
                 "sweep mode: runs of the whole sweep, each printing its rows; a case's samples "
                 "gather over them");
  app.add_option("-C,--report_cputime", raw.report_cputime,
                 "sweep mode: 1 shows the host's launch time per operation in the time columns");
  app.add_option("-O,--out_of_place", raw.out_of_place,
                 "sweep mode: 0 measures in place only (out-of-place cells left blank)");
  app.add_option("-S,--report_timestamps", raw.report_timestamps,
                 "sweep mode: 1 ends each table row with the date and time it was printed at");
  app.add_option("-I,--per_iter_timing", raw.per_iteration,
                 "sweep mode: 1 times each iteration on its own and adds the iterations' min, "
                 "max, 99th percentile and variation to each placement (slowest rank's)");
  app.add_option("-K,--per_iter_skip", o.per_iter_skip,
                 "sweep mode, with -I 1: the per-iteration statistics leave out each case's "
                 "first N iterations (the JSON's times_us keeps them)");
  app.add_option("--bitwise-repeats", o.bitwise_repeats,
                 "sweep mode: after the data check, one reference operation and N more on the "
                 "same inputs, each output compared bit for bit with the reference's (#bitdiff)");
  // nccl-tests parses --memory and prints --memory_report in its usage: both are taken.
  app.add_option("-M,--memory,--memory_report", raw.memory_report,
                 "sweep mode: 1 reports after each table what the communicator's setup, the "
                 "buffers and the operations took of the GPU's (MPI: the process's) memory");
  app.add_option(
      "-x,--cta_policy", o.cta_policy,
      "NCCL: the communicator's CTA policy, 0 default, 1 efficiency, 2 zero (NCCL 2.27+; "
      "2: 2.28+)");
  app.add_option("-y,--stream_null", raw.stream_null,
                 "NCCL: 1 runs the operations on the legacy default stream");
  app.add_option("-u,--unalign", o.unalign,
                 "elements each operation buffer starts past its aligned allocation (0 to 65536)");
  app.add_option("-t,--nthreads", raw.threads,
                 "threads per process (1: one rank per process, one GPU per rank)");
  app.add_option("-g,--ngpus", raw.gpus, "GPUs per thread (1: one GPU per rank)");
  app.add_option("-p,--parallel_init", raw.parallel_init,
                 "0 or 1; one GPU per process has nothing to set up in parallel");
  app.add_option("-c,--check", o.check,
                 "checked operations per case, each on fresh inputs (0: no data check)");
  app.add_option("-a,--average", raw.average,
                 "time shown: 0 rank 0, 1 average, 2 minimum, 3 maximum across ranks");
  app.add_option("-G,--cudagraph", o.cuda_graph,
                 "NCCL: capture each timed loop's operations into a CUDA graph and replay it "
                 "this many times (0: no graph)");
  app.add_option("-R,--local_register", o.local_register,
                 "register the buffers with NCCL: 0 no, 1 ncclCommRegister, 2 symmetric windows "
                 "(NCCL 2.27+)");
  app.add_option("--output", o.output, "result document path (written by rank 0)");
  app.add_option("-J,--output_file", o.json_output,
                 "sweep mode: nccl-tests' JSON output, one file a collective (rank 0; PATH, else "
                 "the first free PATH.0, PATH.1, ...)");
  app.add_option("--suite", o.suite, "suite name in the result document");
  app.add_option("--label", raw.labels, "run label KEY=VALUE (repeatable)");
  app.add_option("--straggler-margin", raw.margin,
                 "straggler threshold over the median rank (0.1 or 10%)");
  app.add_option("--straggler-floor-us", o.straggler_floor_us,
                 "a straggler must also exceed the median by this many microseconds (timer noise)");
  app.add_option("-T,--timeout,--timeout-s", o.timeout_s,
                 "watchdog: seconds one operation may take (0: off)");
  app.add_option("--bucket-total", raw.bucket_total, "buckets mode: gradient volume per step");
  app.add_option("--bucket-min", raw.bucket_min, "buckets mode: smallest bucket");
  app.add_option("--bucket-max", raw.bucket_max, "buckets mode: largest bucket");
  app.add_option("--gemm-n", o.gemm_n, "overlap mode: N of the N x N x N GEMM");
  app.add_option("--max-memory", raw.max_memory,
                 "buffer bytes one rank may allocate (K, M, G suffixes; 0: 90% of the available "
                 "host or GPU memory shared by the ranks on it); larger cases are skipped");
  app.add_option("--delay-rank", o.delay_rank,
                 "test option: the rank that sleeps inside each timed operation");
  app.add_option("--delay-us", o.delay_us,
                 "test option: how long --delay-rank sleeps (microseconds)");
  add_options_not_taken(app, raw);
}

namespace {

// buckets mode times the bucket sizes from --bucket-min to --bucket-max that hold at least one
// element and fit in the volume; a range with none would end the run with nothing measured.
void check_bucket_range(const Options& o) {
  const DataType dtype = o.datatypes.front();
  for (std::size_t bucket : size_sweep(o.bucket_min, o.bucket_max, o.steps))
    if (bucket >= type_size(dtype) && bucket <= o.bucket_total) return;
  throw InputError(fmt::format(
      "--bucket-total: {} B holds no bucket from --bucket-min {} B to --bucket-max {} B (a bucket "
      "must fit in the volume and hold one {} element)",
      o.bucket_total, o.bucket_min, o.bucket_max, type_name(dtype)));
}

// -m, -z, -N, -C, -O, -S, -I, -K, -J, -M and --bitwise-repeats change how a sweep's timed loop
// launches its operations or what its table shows (or writes); the other modes time loops of their
// own design (a step of buckets, a loop beside a GEMM) and print tables of their own.
void check_sweep_only(const Options& o) {
  if (o.mode == Mode::sweep) return;
  const std::pair<bool, const char*> sweep_options[] = {
      {o.agg_iters != 1, "--agg_iters"},
      {o.blocking != 0, "--blocking"},
      {o.run_cycles != 1, "--run_cycles"},
      {o.report_cputime, "--report_cputime"},
      {!o.out_of_place, "--out_of_place"},
      {o.report_timestamps, "--report_timestamps"},
      {o.per_iteration, "--per_iter_timing"},
      {o.per_iter_skip != 0, "--per_iter_skip"},
      {!o.json_output.empty(), "--output_file"},
      {o.memory_report, "--memory"},
      {o.bitwise_repeats != 0, "--bitwise-repeats"},
      {o.total_bytes.has_value(), "--tbytes"}};
  for (const auto& [given, option] : sweep_options) {
    if (given)
      throw InputError(
          fmt::format("{}: applies to sweep mode only, not {}", option, mode_name(o.mode)));
  }
}

// The statistics need one iteration left over, in the case with the fewest: the largest size's
// under a byte budget (-s).
void check_per_iter_skip(const Options& o) {
  if (o.per_iter_skip < 0 || o.per_iter_skip >= o.iters)
    throw InputError(fmt::format(
        "--per_iter_skip {}: must be from 0 to {} (one less than --iters {}, so that one "
        "iteration is left for the statistics)",
        o.per_iter_skip, o.iters - 1, o.iters));
  if (o.per_iter_skip == 0 || !o.total_bytes || o.mode != Mode::sweep) return;
  const std::size_t largest = size_sweep(o.min_bytes, o.max_bytes, o.steps).back();
  const int fewest = iterations_within(o.iters, o.total_bytes, largest);
  if (o.per_iter_skip >= fewest)
    throw InputError(fmt::format(
        "--per_iter_skip {}: --tbytes {} leaves the largest size ({} B) {} iteration(s); skip "
        "fewer, so that one is left for the statistics",
        o.per_iter_skip, *o.total_bytes, largest, fewest));
}

// nccl-tests' 0/1 switches (-C, -O, -S, -I, -M, -y, -p): the value as a bool, anything else
// refused.
bool switch_value(int value, const char* option) {
  if (value != 0 && value != 1) throw InputError(fmt::format("{}: must be 0 or 1", option));
  return value == 1;
}

// nccl-tests drives several GPUs from one process with -t and -g; here every rank is a process
// with one GPU (NCCL's one-device-per-process launch under mpirun or srun), so a command line
// copied from nccl-tests keeps its -t 1 -g 1 and anything more is refused with the equivalent.
void check_one_gpu_per_rank(const RawOptions& raw) {
  for (const auto& [value, option] :
       {std::pair{raw.threads, "--nthreads"}, std::pair{raw.gpus, "--ngpus"}}) {
    if (value == 1) continue;
    if (value < 1) throw InputError(fmt::format("{}: {}: must be 1", option, value));
    throw InputError(fmt::format(
        "{}: {}: perfgate-collectives runs one GPU per rank (1 only); start {} times as many "
        "ranks instead (mpirun -np, srun --ntasks-per-node)",
        option, value, value));
  }
  switch_value(raw.parallel_init, "--parallel_init");
}

}  // namespace

void finish_options(Options& o, const RawOptions& raw) {
  if (!raw.not_taken.empty()) throw InputError(raw.not_taken);
  o.mode = parse_mode(raw.mode);
  o.collectives = parse_list<Collective>(raw.collectives, all_collectives(), collective_from_string,
                                         "--collective");
  o.every_collective = raw.collectives == "all";
  o.datatypes =
      parse_list<DataType>(raw.datatypes, all_datatypes(), datatype_from_string, "--datatype");
  o.ops = parse_list<ReduceOp>(raw.ops, all_reduce_ops(), reduce_op_from_string, "--op");
  parse_root(raw.root, o);
  o.min_bytes = parse_byte_size(raw.min_bytes, "--minbytes");
  o.max_bytes = parse_byte_size(raw.max_bytes, "--maxbytes");
  o.steps = parse_steps(raw);
  o.bucket_total = parse_byte_size(raw.bucket_total, "--bucket-total");
  o.bucket_min = parse_byte_size(raw.bucket_min, "--bucket-min");
  o.bucket_max = parse_byte_size(raw.bucket_max, "--bucket-max");
  // The steps walk the bucket range in buckets mode and the size range in the others; only the
  // range walked is checked (-i 1K suits one and not the other).
  if (o.mode == Mode::buckets) {
    check_bucket_range(o);
  } else {
    size_sweep(o.min_bytes, o.max_bytes, o.steps);
  }
  o.max_memory = parse_byte_size(raw.max_memory, "--max-memory");
  o.straggler_margin = parse_margin(raw.margin);
  if (o.check < 0) throw InputError("--check: must not be negative");
  if (raw.average < 0 || raw.average > 3) throw InputError("--average: must be 0, 1, 2 or 3");
  o.time_shown = static_cast<TimeShown>(raw.average);
  if (o.iters < 1) throw InputError("--iters: must be at least 1");
  if (o.warmup_iters < 0) throw InputError("--warmup_iters: must not be negative");
  if (o.cuda_graph < 0) throw InputError("--cudagraph: must not be negative");
  if (o.local_register < 0 || o.local_register > 2)
    throw InputError(fmt::format(
        "--local_register {}: must be 0 (none), 1 (ncclCommRegister) or 2 (symmetric windows)",
        o.local_register));
  // Bounded: every operation of a group holds a request (and, on MPI, a receive buffer).
  if (o.agg_iters < 1 || o.agg_iters > 65536)
    throw InputError("--agg_iters: must be from 1 to 65536");
  if (raw.blocking < 0 || raw.blocking > 3) throw InputError("--blocking: must be 0, 1, 2 or 3");
  o.blocking = raw.blocking;
  // nccl-tests' -z 1 and 2 wait after every operation of a group (its "inner iteration"), which
  // leaves nothing launched together: the pair would measure plain blocking operations. -z 3
  // waits once a group.
  if ((o.blocking == 1 || o.blocking == 2) && o.agg_iters > 1)
    throw InputError(fmt::format(
        "--blocking {}: waits after each operation, so --agg_iters groups nothing; use one of "
        "them (-z 3 waits after each group)",
        o.blocking));
  if (o.blocking != 0 && o.cuda_graph > 0)
    throw InputError(
        "--blocking: a CUDA graph (--cudagraph) replays with no host step between "
        "operations; use one of them");
  // -N 0 is nccl-tests' endless run: a run that never ends writes no document.
  if (o.run_cycles < 1 || o.run_cycles > 65536)
    throw InputError("--run_cycles: must be from 1 to 65536 (0, endless, writes no document)");
  o.report_cputime = switch_value(raw.report_cputime, "--report_cputime");
  o.out_of_place = switch_value(raw.out_of_place, "--out_of_place");
  o.report_timestamps = switch_value(raw.report_timestamps, "--report_timestamps");
  o.per_iteration = switch_value(raw.per_iteration, "--per_iter_timing");
  if (!raw.total_bytes.empty()) o.total_bytes = parse_byte_size(raw.total_bytes, "--tbytes");
  check_per_iter_skip(o);
  o.stream_null = switch_value(raw.stream_null, "--stream_null");
  if (o.cta_policy < -1 || o.cta_policy > 2)
    throw InputError(fmt::format("--cta_policy {}: must be 0 (default), 1 (efficiency) or 2 (zero)",
                                 o.cta_policy));
  o.memory_report = switch_value(raw.memory_report, "--memory");
  // Each repeat is one more operation and a comparison of its whole output on the host.
  if (o.bitwise_repeats < 0 || o.bitwise_repeats > 1000)
    throw InputError(
        fmt::format("--bitwise-repeats {}: must be from 0 to 1000", o.bitwise_repeats));
  // Bounded: every buffer grows by it (at most 512 KiB, for 8-byte elements).
  if (o.unalign < 0 || o.unalign > 65536) throw InputError("--unalign: must be from 0 to 65536");
  if (o.stream_null && o.cuda_graph > 0)
    throw InputError(
        "--stream_null: CUDA cannot capture the legacy default stream into a graph "
        "(--cudagraph); use one of them");
  // A graph replays its iterations with no host step between them to mark (nccl-tests turns
  // -I off under -G; refused here, so that the table has the columns asked for).
  if (o.per_iteration && o.cuda_graph > 0)
    throw InputError(
        "--per_iter_timing: a CUDA graph (--cudagraph) replays its iterations with no host step "
        "between them to time; use one of them");
  check_sweep_only(o);
  if (o.unalign != 0 && o.mode == Mode::reference)
    throw InputError("--unalign: the reference mode's loop runs on buffers of its own, aligned");
  check_one_gpu_per_rank(raw);
  if (o.repetitions < 1) throw InputError("--repetitions: must be at least 1");
  if (o.straggler_floor_us < 0) throw InputError("--straggler-floor-us: must not be negative");
  if (o.timeout_s < 0) throw InputError("--timeout-s: must not be negative");
  if (o.gemm_n < 1) throw InputError("--gemm-n: must be at least 1");
  if (o.delay_us < 0) throw InputError("--delay-us: must not be negative");
  for (const std::string& label : raw.labels) {
    const auto eq = label.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError(fmt::format("--label: '{}' is not KEY=VALUE", label));
    o.labels[label.substr(0, eq)] = label.substr(eq + 1);
  }
}

nlohmann::json options_json(const Options& o) {
  auto names = [](const auto& items, auto name_of) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& item : items) list.push_back(std::string(name_of(item)));
    return list;
  };
  return {{"backend", o.backend},
          {"mode", mode_name(o.mode)},
          {"collectives", names(o.collectives, [](Collective c) { return info(c).name; })},
          {"datatypes", names(o.datatypes, type_name)},
          {"ops", names(o.ops, op_name)},
          {"min_bytes", o.min_bytes},
          {"max_bytes", o.max_bytes},
          {"step_factor", o.steps.factor},
          {"step_bytes", o.steps.by_factor() ? 0 : o.steps.bytes},
          {"root", o.all_roots ? nlohmann::json("all") : nlohmann::json(o.root)},
          {"warmup_iters", o.warmup_iters},
          {"iters", o.iters},
          {"total_bytes", o.total_bytes ? nlohmann::json(*o.total_bytes) : nlohmann::json()},
          {"agg_iters", o.agg_iters},
          {"blocking", o.blocking},
          {"repetitions", o.repetitions},
          {"run_cycles", o.run_cycles},
          {"report_cputime", o.report_cputime},
          {"out_of_place", o.out_of_place},
          {"report_timestamps", o.report_timestamps},
          {"per_iteration", o.per_iteration},
          {"per_iter_skip", o.per_iter_skip},
          {"stream_null", o.stream_null},
          {"cta_policy", o.cta_policy},
          {"memory_report", o.memory_report},
          {"bitwise_repeats", o.bitwise_repeats},
          {"unalign", o.unalign},
          {"json_output", o.json_output},
          {"check", o.check},
          {"average", static_cast<int>(o.time_shown)},
          {"cuda_graph", o.cuda_graph},
          {"local_register", o.local_register},
          {"straggler_margin", o.straggler_margin},
          {"straggler_floor_us", o.straggler_floor_us},
          {"timeout_s", o.timeout_s},
          {"bucket_total", o.bucket_total},
          {"bucket_min", o.bucket_min},
          {"bucket_max", o.bucket_max},
          {"gemm_n", o.gemm_n},
          {"max_memory", o.max_memory},
          {"delay_rank", o.delay_rank},
          {"delay_us", o.delay_us}};
}

}  // namespace perfgate::collectives
