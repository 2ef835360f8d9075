#pragma once
// Command-line options of perfgate-collectives (documented in docs/collectives.md: keep in step).
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "perfgate/collectives/collective.hpp"
#include "perfgate/collectives/datatype.hpp"
#include "perfgate/collectives/reduce_op.hpp"
#include "perfgate/collectives/size_sweep.hpp"

namespace perfgate::collectives {

enum class Mode { sweep, overlap, buckets, reference };
enum class TimeShown { rank0 = 0, average = 1, minimum = 2, maximum = 3 };

struct Options {
  std::string backend = "auto";
  Mode mode = Mode::sweep;
  std::vector<Collective> collectives{Collective::all_reduce};
  // --collective all: a collective this run's rank count cannot run is skipped with a note,
  // where naming it is refused.
  bool every_collective = false;
  std::size_t min_bytes = 8, max_bytes = std::size_t{32} << 20;
  SizeSteps steps;  // -f 2 by default; -i N (or -f 1) for fixed increments
  std::vector<DataType> datatypes{DataType::f32};
  std::vector<ReduceOp> ops{ReduceOp::sum};
  int root = 0;
  // -r all: broadcast and reduce run at every root in turn, rank 0 first (nccl-tests' root -1);
  // `root` is then 0.
  bool all_roots = false;
  int warmup_iters = 5, iters = 20, repetitions = 1;
  // -s: the bytes each case's timed loop may move (nccl-tests' tbytes): a size runs as many of
  // `iters` as fit, at least one, so that a wide sweep's large sizes stay short; nullopt: no
  // budget, every size runs `iters`.
  std::optional<std::size_t> total_bytes;
  // -m: operations launched together in each iteration of a timed loop (one NCCL group; MPI
  // nonblocking collectives); time per operation = loop time / (iters x agg_iters).
  int agg_iters = 1;
  // -z, numbered as nccl-tests numbers it: 0 none; 1 each operation of a timed loop is waited
  // for, then a barrier of all ranks; 2 waited for, no barrier; 3 each iteration (its -m
  // operations) waited for, then a barrier whose time is left out of the loop's.
  int blocking = 0;
  int check = 1;  // -c: checked operations per case (0: none), stopping at the first wrong
  // -N: the sweep's sizes run this many times over, each cycle printing its rows (nccl-tests'
  // run cycles); a case's samples gather over every cycle.
  int run_cycles = 1;
  // -C: the table's time columns show the host's time to launch an operation (nccl-tests'
  // cputime); algbw and busbw stay those of the operation's time.
  bool report_cputime = false;
  // -O 0: the sweep measures in place only, its out-of-place cells left blank (nccl-tests').
  bool out_of_place = true;
  // -S 1: each table row ends with the date and time it was printed at (nccl-tests'
  // report_timestamps).
  bool report_timestamps = false;
  // -I 1: every iteration of a timed loop is timed on its own (CUDA events on NCCL, the host's
  // clock on MPI); each placement's row adds the iterations' minimum, maximum, 99th percentile
  // and coefficient of variation, per iteration the slowest rank's (nccl-tests' per_iter_timing).
  bool per_iteration = false;
  // -K N: the per-iteration statistics leave out each case's first N timed iterations, which
  // the JSON's times_us still lists (nccl-tests' per_iter_skip); without -I 1, no effect.
  int per_iter_skip = 0;
  // -M 1: after each table's footer, what the device's memory went to: the communicator's
  // setup, the operation buffers at their largest, and what the operations took beside them
  // (nccl-tests' memory_report; GPU memory on NCCL, the process's resident memory on MPI).
  bool memory_report = false;
  // --bitwise-repeats N: after the data check, one reference operation and N more on the same
  // inputs, each output compared bit for bit with the reference's (the newest nccl-tests' check).
  int bitwise_repeats = 0;
  // -y 1: NCCL's operations run on the legacy default stream (nccl-tests' stream_null).
  bool stream_null = false;
  // -x N: NCCL's CTA policy for the communicator (nccl-tests' cta_policy: 0 default, 1
  // efficiency, 2 zero); -1: not set, NCCL's own choice.
  int cta_policy = -1;
  // -u N: every operation buffer starts N elements past its aligned allocation (nccl-tests'
  // unalign), so that NCCL and MPI work on misaligned memory.
  int unalign = 0;
  TimeShown time_shown = TimeShown::average;
  int cuda_graph = 0;  // -G: replays of each timed loop captured as a CUDA graph (0: none)
  // -R: the operations' buffers registered with the NCCL communicator: 0 none, 1
  // ncclCommRegister, 2 symmetric windows (ncclCommWindowRegister); NCCL only.
  int local_register = 0;
  std::string output;
  // -J: nccl-tests' JSON output, one file a collective, at the first of PATH, PATH.0, ... free.
  std::string json_output;
  std::vector<std::string> command_line;  // as given, for -J's "args"
  std::string suite = "collectives";
  std::map<std::string, std::string> labels;
  double straggler_margin = 0.10;
  double straggler_floor_us = 20;
  double timeout_s = 300;
  std::size_t bucket_total = std::size_t{64} << 20, bucket_min = std::size_t{1} << 20,
              bucket_max = std::size_t{64} << 20;
  int gemm_n = 512;
  // Buffer bytes one rank may allocate; 0: its share of the available host or GPU memory only.
  std::size_t max_memory = 0;
  int delay_rank = -1;
  double delay_us = 0;
};

// Text fields filled by CLI11, turned into Options by finish_options().
struct RawOptions {
  std::string mode = "sweep", collectives = "all_reduce", min_bytes = "8", max_bytes = "32M";
  std::string step_factor, step_bytes, total_bytes;  // empty: not given
  std::string datatypes = "float", ops = "sum", margin = "0.10";
  std::string bucket_total = "64M", bucket_min = "1M", bucket_max = "64M";
  std::string max_memory = "0";
  std::string root = "0";  // a rank, or "all"
  int average = 1, blocking = 0, report_cputime = 0, out_of_place = 1;
  int report_timestamps = 0, per_iteration = 0, stream_null = 0, memory_report = 0;
  // nccl-tests' threads and GPUs per process (-t, -g) and their parallel setup (-p): one GPU
  // per rank here, so 1, 1 and either.
  int threads = 1, gpus = 1, parallel_init = 0;
  // The first nccl-tests option given that perfgate-collectives does not take, and why (empty:
  // none).
  std::string not_taken;
  std::vector<std::string> labels;
};

void add_options(CLI::App& app, Options& options, RawOptions& raw);
// Parses the text fields and checks ranges; throws InputError naming the option.
void finish_options(Options& options, const RawOptions& raw);

const char* mode_name(Mode m);
// How the timed loops launch operations when not plainly one at a time, and on which buffers,
// in nccl-tests' flags ("-m 4 -z 1 -G 10 -R 1 -y 1 -u 8"); empty for plain launches on aligned,
// unregistered buffers. A comparable fingerprint key: a grouped, blocking, graph-replayed,
// registered or misaligned time per operation is not a plain one.
std::string launch_method(const Options& o);
nlohmann::json options_json(const Options& o);

}  // namespace perfgate::collectives
