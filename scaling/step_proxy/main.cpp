// perfgate-step-proxy: a synthetic data-parallel training step (transformer layers, bucketed
// gradient all-reduce overlapped with the backward pass) reporting the step-time decomposition.
// Exit codes (perfgate/core/exit_codes.hpp): 0 ok, 1 regression (the gradient check found an
// all-reduce that did not sum the gradients), 2 usage or tool error, 4 no_device
// (--backend cuda found no CUDA device on some rank), 5 watchdog_timeout (a step did not
// complete within --timeout-s).
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>
#include <mpi.h>
#include <CLI/CLI.hpp>

#include "host_memory.hpp"
#include "perfgate/collectives/watchdog.hpp"
#include "perfgate/core/document.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/microbench/kernels/gemm.hpp"
#include "report.hpp"
#include "step_loop.hpp"
#ifdef PERFGATE_HAVE_NCCL
#include "cuda/cuda_proxy.hpp"
#endif

using namespace perfgate::step_proxy;

namespace {

// Bytes of one gradient: fp32 on the CPU backend, bf16 on the CUDA one.
std::size_t gradient_bytes(const std::string& backend) {
  return backend == "cuda" ? 2 : sizeof(float);
}

struct Options {
  Shape shape;
  std::string backend = "cpu", output, suite = "step_proxy";
  long long bucket_bytes = 64 * 1024;
  int warmup = 2, iters = 5, repetitions = 3, delay_rank = -1, skip_bucket = -1,
      skip_exact_bucket = -1;
  double delay_us = 0, straggler_margin = 0.10;
  double timeout_s = 300;  // watchdog seconds per step (0: off)
};

// What no node or GPU holds, or no step launches, refused before a bucket plan or a buffer is
// built from the shape (either would end in std::bad_alloc, or a product past 64 bits).
void check_shape_limits(const Options& o) {
  const Shape& s = o.shape;
  if (double(s.batch) * s.seq > INT_MAX)
    throw CLI::ValidationError("--batch", "--batch x --seq is more than 2147483647 tokens");
  const double gradients = double(s.layers) * 12 * double(s.hidden) * s.hidden;
  if (gradients > 0x1p40)
    throw CLI::ValidationError(
        "--layers", fmt::format("{:.3g} parameters per rank (--layers x 12 x --hidden^2) is more "
                                "than 2^40, more than any node or GPU holds",
                                gradients));
  const double bucket = double(bucket_gradients(o.bucket_bytes, gradient_bytes(o.backend)));
  if (gradients / bucket > 1e6)
    throw CLI::ValidationError("--bucket-bytes",
                               fmt::format("{} B buckets make {:.3g} all-reduces a step (at most a "
                                           "million); raise --bucket-bytes",
                                           o.bucket_bytes, std::ceil(gradients / bucket)));
}

std::string this_node() {
  if (const char* n = std::getenv("SLURMD_NODENAME")) return n;
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

// Best rate of this rank's largest GEMM alone: the measured ceiling MFU is relative to.
double measure_ceiling(const Shape& s) {
  namespace kernels = perfgate::microbench::kernels;
  const auto m = static_cast<std::size_t>(s.tokens()), n = 4 * static_cast<std::size_t>(s.hidden),
             k = static_cast<std::size_t>(s.hidden);
  std::vector<float> a(m * k, 0.5f), b(k * n, 0.25f), c(m * n);
  double best = 0;
  for (int i = 0; i < 5; ++i) {
    const double t0 = ComputeClock::now_us();
    kernels::gemm_blocked(m, n, k, 1.0f, {a.data(), k}, {b.data(), n}, 0.0f, c.data(), n);
    const double us = std::max(ComputeClock::now_us() - t0, 1e-3);
    best = std::max(best, kernels::gemm_flops(m, n, k) / (us * 1e-6));
  }
  return best;
}

std::vector<std::string> gather_hosts(int size) {
  std::string me = this_node();
  me.resize(64, '\0');
  std::vector<char> all(static_cast<std::size_t>(size) * 64);
  MPI_Allgather(me.data(), 64, MPI_CHAR, all.data(), 64, MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (int r = 0; r < size; ++r) out.emplace_back(all.data() + r * 64);
  return out;
}

// What one rank measured: per repetition its mean step, compute, comm and exposed times; its
// ceiling (FLOP/s); the gradient check's verdict; what computed and communicated, in words.
struct RankMeasurement {
  std::vector<double> per_repetition;
  double ceiling = 0;
  GradientCheckResult gradient_check;
  ModelCheckResult model_check;
  std::string compute_note;
};

void add_times(RankMeasurement& m, const StepTimes& mean) {
  for (double v : {mean.step_us, mean.compute_us, mean.comm_us, mean.exposed_us})
    m.per_repetition.push_back(v);
}

StepConfig step_config(const Options& o, int rank) {
  return {o.bucket_bytes, rank == o.delay_rank ? o.delay_us : 0.0, o.skip_bucket,
          o.skip_exact_bucket};
}

// A step hung on this rank (on the GPU the communicator is already aborted, so the peers' waits
// end too): say what hung and leave with the watchdog's exit code.
[[noreturn]] void on_step_timeout(const std::string& what, double timeout_s) {
  std::fprintf(stderr, "perfgate-step-proxy: watchdog: %s did not complete within %g s\n",
               what.c_str(), timeout_s);
  std::fflush(stderr);
  std::_Exit(perfgate::exit_code::watchdog_timeout);
}

RankMeasurement measure_cpu(const Options& o, int rank, int size) {
  RankMeasurement m;
  m.compute_note =
      "fp32 blocked GEMM and FlashAttention-style attention (the microbench CPU kernels), MPI "
      "all-reduce thread";
  m.model_check.reason =
      "the CPU backend computes with the microbench kernels their families check";
  check_host_memory(MPI_COMM_WORLD, o.shape);
  TransformerStack model(o.shape);
  CommThread comm(MPI_COMM_WORLD);
  const StepConfig config = step_config(o, rank);
  // MPI cannot abort one communicator: a rank whose step (its all-reduces included) overruns
  // --timeout-s exits, and the launcher then stops the others.
  perfgate::collectives::Watchdog watchdog(o.timeout_s, [&o, rank] {
    on_step_timeout("a training step on rank " + std::to_string(rank) + " (" + this_node() + ")",
                    o.timeout_s);
  });
  auto watched_step = [&](GradientSums* sums) {
    const perfgate::collectives::ArmedWatch armed(watchdog);
    return run_step(model, comm, o.shape, config, sums);
  };
  const std::vector<Bucket> plan =
      step_buckets(o.shape, config.bucket_bytes, gradient_bytes(o.backend));
  ExactPassResult exact;  // the bucketed all-reduce sums a known pattern exactly
  {
    const perfgate::collectives::ArmedWatch armed(watchdog);
    exact = judge_exact_pass(MPI_COMM_WORLD, plan,
                             run_exact_pass(model, comm, o.shape, config, rank, size));
  }
  for (int i = 0; i < o.warmup; ++i) watched_step(nullptr);
  GradientSums sums;  // one untimed step proves the all-reduce summed every bucket
  watched_step(&sums);
  m.gradient_check = check_gradient_sums(MPI_COMM_WORLD, plan, sums, kFp32UnitRoundoff);
  m.gradient_check.exact = exact;
  for (int rep = 0; rep < o.repetitions; ++rep) {
    StepTimes sum;
    for (int i = 0; i < o.iters; ++i) sum += watched_step(nullptr);
    const double n = o.iters;
    add_times(m, {sum.step_us / n, sum.compute_us / n, sum.comm_us / n, sum.exposed_us / n});
  }
  m.ceiling = measure_ceiling(o.shape);
  return m;
}

#ifdef PERFGATE_HAVE_NCCL

// The GPU counterpart of measure_cpu.
RankMeasurement measure_cuda(const Options& o, int rank, int size) {
  CudaProxyConfig config;
  config.shape = o.shape;
  config.step = step_config(o, rank);
  config.warmup = o.warmup;
  config.iters = o.iters;
  config.repetitions = o.repetitions;
  config.timeout_s = o.timeout_s;
  config.on_timeout = [&o](const std::string& what) { on_step_timeout(what, o.timeout_s); };
  const CudaProxyResult r = run_cuda_proxy(config, rank, size);
  RankMeasurement m;
  for (const StepTimes& t : r.per_repetition) add_times(m, t);
  m.ceiling = r.ceiling_flops_per_s;
  m.gradient_check = r.gradient_check;
  m.model_check = r.model_check;
  m.compute_note = "bf16 cuBLASLt GEMMs, cuDNN SDPA forward, attention backward " +
                   r.attention_backward + " on one CUDA stream (" + r.device + "), NCCL " +
                   r.nccl_version +
                   " bucketed all-reduce on a second stream; ceiling: 8192^3 bf16 cuBLASLt GEMM";
  return m;
}
#endif

int run(const Options& o, int rank, int size, int thread_level) {
#ifdef PERFGATE_HAVE_NCCL
  const RankMeasurement m =
      o.backend == "cuda" ? measure_cuda(o, rank, size) : measure_cpu(o, rank, size);
#else
  const RankMeasurement m = measure_cpu(o, rank, size);
#endif
  const std::vector<double>& mine = m.per_repetition;
  const double ceiling = m.ceiling;
  const std::vector<std::string> hosts = gather_hosts(size);
  std::vector<double> all(rank == 0 ? mine.size() * size : 0);
  MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(),
             static_cast<int>(mine.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double ceiling_min = 0;
  MPI_Reduce(&ceiling, &ceiling_min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  if (rank != 0) return 0;
  std::vector<std::vector<StepTimes>> per_rank(size);
  for (int r = 0; r < size; ++r)
    for (int rep = 0; rep < o.repetitions; ++rep) {
      const double* v = &all[(static_cast<std::size_t>(r) * o.repetitions + rep) * 4];
      per_rank[r].push_back({v[0], v[1], v[2], v[3]});
    }
  ProxyRunInfo info{
      o.shape,      o.backend,          o.suite,        o.bucket_bytes,   ceiling_min,  hosts,
      thread_level, o.straggler_margin, m.compute_note, m.gradient_check, m.model_check};
  perfgate::Run doc = build_report(info, per_rank);
  const auto& d = doc.results;
  std::cout << "# step proxy: " << size << " ranks, " << o.shape.layers << " layers, hidden "
            << o.shape.hidden << "\n# step_us " << d[0].summary.median << "  compute_us "
            << d[1].summary.median << "  comm_us " << d[2].summary.median << "  exposed_us "
            << d[3].summary.median << "  other_us " << d[4].summary.median << "  overlap "
            << d[5].summary.median << "  mfu " << d[6].summary.median << "\n";
  const GradientCheckResult& check = m.gradient_check;
  std::cout << "# exact pass: " << check.exact.buckets << " buckets, " << check.exact.elements
            << " gradients per rank, every sum over " << size << " ranks exact\n";
  if (check.made)
    std::cout << "# gradient check: " << check.buckets << " buckets summed over " << size
              << " ranks, worst deviation " << 100 * check.worst_deviation << " % (tolerance "
              << 100 * check.tolerance << " %)\n";
  else
    std::cout << "# gradient check: not made: " << check.reason << "\n";
  if (m.model_check.made)
    std::cout << "# model check: gradients within " << 100 * m.model_check.worst_error
              << " % of the host recomputation (" << m.model_check.matrix << "; bound "
              << 100 * m.model_check.bound << " %)\n";
  if (!o.output.empty()) perfgate::write_document_file(o.output, doc);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"perfgate-step-proxy: synthetic data-parallel training step"};
  app.add_option("--backend", o.backend, "cpu (MPI) or cuda (NCCL)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  app.add_option("--layers", o.shape.layers)->check(CLI::PositiveNumber);
  app.add_option("--hidden", o.shape.hidden)->check(CLI::PositiveNumber);
  app.add_option("--heads", o.shape.heads)->check(CLI::PositiveNumber);
  app.add_option("--seq", o.shape.seq)->check(CLI::PositiveNumber);
  app.add_option("--batch", o.shape.batch, "sequences per rank")->check(CLI::PositiveNumber);
  app.add_option("--bucket-bytes", o.bucket_bytes, "gradient bucket size")
      ->check(CLI::PositiveNumber);
  app.add_option("--warmup", o.warmup)->check(CLI::NonNegativeNumber);
  app.add_option("--iters", o.iters, "steps per repetition")->check(CLI::PositiveNumber);
  app.add_option("--repetitions", o.repetitions)->check(CLI::PositiveNumber);
  app.add_option("--output", o.output, "result document (rank 0)");
  app.add_option("--suite", o.suite);
  app.add_option("--straggler-margin", o.straggler_margin);
  app.add_option("--delay-rank", o.delay_rank,
                 "test option: this rank computes --delay-us longer per step");
  app.add_option("--delay-us", o.delay_us);
  app.add_option("--skip-bucket", o.skip_bucket,
                 "test option: never all-reduce this gradient bucket in the steps (0: the first "
                 "launched), so that the gradient check's sums fail");
  app.add_option("--skip-exact-bucket", o.skip_exact_bucket,
                 "test option: leave this bucket out of the exact pass, so that it fails");
  app.add_option("--timeout-s", o.timeout_s,
                 "seconds one step may take before the job ends with exit 5 (cuda backend: "
                 "NCCL is aborted first; 0: off)")
      ->check(CLI::NonNegativeNumber);
  std::string usage;  // a usage error, said once MPI tells which rank is 0
  try {
    app.parse(argc, argv);
    if (o.shape.hidden % o.shape.heads != 0)
      throw CLI::ValidationError("--heads", "must divide --hidden");
    check_shape_limits(o);
    const std::size_t buckets =
        step_buckets(o.shape, o.bucket_bytes, gradient_bytes(o.backend)).size();
    for (const auto& [name, bucket] :
         {std::pair{"--skip-bucket", o.skip_bucket}, {"--skip-exact-bucket", o.skip_exact_bucket}})
      if (bucket < -1 || bucket >= static_cast<long long>(buckets))
        throw CLI::ValidationError(
            name, "is not a bucket of this model (it has " + std::to_string(buckets) + ", from 0)");
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    usage = e.what();
  }
#ifdef PERFGATE_HAVE_NCCL
  if (usage.empty() && o.backend == "cuda") {
    try {
      validate_cuda_shape(o.shape);
    } catch (const perfgate::InputError& e) {
      usage = e.what();
    }
  }
#else
  if (usage.empty() && o.backend == "cuda")
    usage =
        "--backend cuda: this build has no CUDA/NCCL backend (configure where CUDA and NCCL "
        "are found); use --backend cpu";
#endif
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rc = 0;
  if (!usage.empty()) {  // every rank read the same command line: one of them says so
    if (rank == 0) std::cerr << "perfgate-step-proxy: " << usage << "\n";
    rc = perfgate::exit_code::usage_or_tool_error;
  } else if (provided < MPI_THREAD_SERIALIZED) {
    if (rank == 0)
      std::cerr
          << "perfgate-step-proxy: MPI gives no thread support for the communication thread\n";
    rc = perfgate::exit_code::usage_or_tool_error;
  } else {
    try {
      rc = run(o, rank, size, provided);
#ifdef PERFGATE_HAVE_NCCL
    } catch (const NoCudaDevice& e) {  // thrown on every rank together: no abort needed
      if (rank == 0) std::cerr << "perfgate-step-proxy: " << e.what() << "\n";
      rc = perfgate::exit_code::no_device;
#endif
    } catch (const ModelTooLarge& e) {  // likewise
      if (rank == 0) std::cerr << "perfgate-step-proxy: " << e.what() << "\n";
      rc = perfgate::exit_code::usage_or_tool_error;
    } catch (const GradientCheckFailed& e) {  // likewise
      if (rank == 0) std::cerr << "perfgate-step-proxy: " << e.what() << "\n";
      rc = perfgate::exit_code::regression;
    } catch (const std::exception& e) {
      std::cerr << "perfgate-step-proxy: rank " << rank << ": " << e.what() << "\n";
      MPI_Abort(MPI_COMM_WORLD, perfgate::exit_code::usage_or_tool_error);
    }
  }
  MPI_Finalize();
  return rc;
}
