// perfgate-collectives: collective benchmarks under mpirun or srun (docs/collectives.md).
// Exit codes (perfgate/core/exit_codes.hpp): 0 ok, 1 data check failed or average bus bandwidth
// below NCCL_TESTS_MIN_BW's floor, 2 usage or tool error,
// 4 no_device (--backend nccl and no CUDA device on some rank), 5 watchdog_timeout.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <mpi.h>
#include <CLI/CLI.hpp>

#include "backend.hpp"
#include "modes.hpp"
#include "mpi_datatypes.hpp"
#include "options.hpp"
#include "perfgate/collectives/communicator.hpp"
#include "perfgate/collectives/node_memory.hpp"
#include "perfgate/collectives/watchdog.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "rank_split.hpp"
#include "run_document.hpp"

namespace pc = perfgate::collectives;

namespace {

// Wrong output elements, or a table below NCCL_TESTS_MIN_BW's floor.
constexpr int kCheckFailed = perfgate::exit_code::regression;

// `mpi_setup_bytes`: what MPI's initialisation and the communicator took of the resident memory.
// `group`: the ranks the operations run with (`comm`'s, unless NCCL_TESTS_SPLIT splits them).
std::unique_ptr<pc::Backend> choose_backend(const pc::Options& o, const pc::Communicator& comm,
                                            const pc::Communicator& group,
                                            std::int64_t mpi_setup_bytes) {
#ifdef PERFGATE_HAVE_NCCL
  // auto: NCCL only when every rank sees a device (agreed, so all ranks pick the same backend).
  if (o.backend == "nccl" || o.backend == "auto") {
    const int devices = pc::agreed_nccl_devices(comm, o.backend == "nccl");
    if (devices > 0)
      return pc::make_nccl_backend(
          comm, group, devices,
          {o.cuda_graph, o.local_register, o.stream_null, o.unalign, o.cta_policy});
  }
#else
  if (o.backend == "nccl")
    throw perfgate::InputError("--backend nccl: this build has no NCCL backend");
#endif
  if (o.cuda_graph > 0)  // a table headed "Graph: N" must have been measured with graphs
    throw perfgate::InputError("--cudagraph: the MPI backend has no CUDA graphs (0 only)");
  if (o.local_register != 0)  // a table saying "Registered buffers" must have been registered
    throw perfgate::InputError(fmt::format(
        "--local_register {}: the MPI backend registers no buffers (0 only; 1 and 2 are NCCL's)",
        o.local_register));
  if (o.cta_policy >= 0)  // a table saying "CTA policy" must have run under it
    throw perfgate::InputError(fmt::format(
        "--cta_policy {}: the MPI backend has no CTAs (NCCL's communicators only)", o.cta_policy));
  if (o.stream_null)  // a table of "-y 1" must have run on the default stream
    throw perfgate::InputError("--stream_null 1: the MPI backend has no CUDA streams (0 only)");
  return pc::make_mpi_backend(comm, group, o.agg_iters, o.unalign, mpi_setup_bytes);
}

// Runs on the watchdog thread: record the case, end communication, leave with a distinct code.
// `backend` and `document` are null while they are still being made (communicator setup).
[[noreturn]] void on_timeout(pc::Backend* backend, const pc::Communicator& comm,
                             pc::RunDocument* document, const pc::Options& o) {
  const auto start = std::chrono::steady_clock::now();
  const std::string what =
      document != nullptr ? document->describe_current() : "communicator setup";
  std::fprintf(stderr,
               "perfgate-collectives: rank %d (%s): watchdog: %s did not complete within %g s\n",
               comm.rank(), comm.host().c_str(), what.c_str(), o.timeout_s);
  if (comm.rank() == 0) {
    std::printf("# Watchdog: %s did not complete within %g s on rank 0 (%s)\n", what.c_str(),
                o.timeout_s, comm.host().c_str());
    std::fflush(stdout);
    if (!o.output.empty() && document != nullptr) {
      try {
        document->write_timeout(o.output, comm.rank(), comm.host(), o.timeout_s);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "perfgate-collectives: %s\n", e.what());
      }
    }
  }
  // The document first, the abort last and bounded: ncclCommAbort itself hangs on some NCCL
  // releases, and a hung abort must not keep the job from ending.
  if (backend != nullptr) {
    auto aborted = std::make_shared<std::atomic<bool>>(false);
    std::thread([backend, aborted] {
      backend->abort();
      *aborted = true;
    }).detach();
    while (!*aborted && std::chrono::steady_clock::now() - start < std::chrono::seconds(5))
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // A rank that ends first makes the launcher stop the others: rank 0 gets time to write.
  if (comm.rank() != 0) std::this_thread::sleep_until(start + std::chrono::seconds(5));
  std::fflush(stderr);
  std::_Exit(perfgate::exit_code::watchdog_timeout);
}

int run(int argc, char** argv, const pc::Communicator& comm, std::int64_t mpi_setup_bytes) {
  pc::Options options;
  pc::RawOptions raw;
  CLI::App app{
      "perfgate-collectives: collective benchmarks (nccl-tests numbers, perfgate documents)"};
  pc::add_options(app, options, raw);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (comm.rank() == 0) app.exit(e);
    return e.get_exit_code() == 0 ? 0 : perfgate::exit_code::usage_or_tool_error;
  }
  pc::finish_options(options, raw);
  options.command_line.assign(argv, argv + argc);
  const pc::RankSplit split = pc::split_ranks(comm);
  const pc::Communicator& group = split.group ? *split.group : comm;
  if (!options.all_roots && (options.root < 0 || options.root >= group.size())) {
    throw perfgate::InputError(fmt::format("--root: {} is not a rank{} (0..{})", options.root,
                                           split.group ? " of a group" : "", group.size() - 1));
  }

  // The watchdog covers the communicator's setup too (ncclCommInitRank waits for every rank).
  std::atomic<pc::Backend*> backend_seen{nullptr};
  std::atomic<pc::RunDocument*> document_seen{nullptr};
  pc::Watchdog watchdog(options.timeout_s,
                        [&] { on_timeout(backend_seen, comm, document_seen, options); });
  watchdog.arm();
  std::unique_ptr<pc::Backend> backend = choose_backend(options, comm, group, mpi_setup_bytes);
  backend_seen = backend.get();
  const pc::RankDescription me = backend->describe();
  pc::RunDocument document(options, backend->name(), pc::collect_places(comm, me.device),
                           backend->name() == "nccl", comm.rank() == 0,
                           backend->fingerprint_keys());
  if (split.groups > 1) document.set_split(*split.rule, split.groups, group.size());
  document_seen = &document;
  watchdog.disarm();
  // Declared after the backend and the document, so destroyed before them, also on an error.
  struct StopWatchFirst {
    pc::Watchdog& watchdog;
    ~StopWatchFirst() { watchdog.stop(); }
  } stop_watch_first{watchdog};
  pc::ModeContext ctx{options, *backend, comm, group, split, watchdog, document};

  pc::SweepFailures failures;
  switch (options.mode) {
    case pc::Mode::sweep:
      failures = pc::run_sweep(ctx);
      break;
    case pc::Mode::buckets:
      pc::run_buckets(ctx);
      break;
    case pc::Mode::overlap:
      pc::run_overlap(ctx);
      break;
    case pc::Mode::reference:
      pc::run_reference(ctx);
      break;
  }
  if (comm.rank() == 0 && !options.output.empty()) document.write(options.output);
  comm.barrier();
  return failures.any() ? kCheckFailed : perfgate::exit_code::pass;
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t resident_before_mpi = pc::resident_memory_bytes().value_or(0);
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int code = perfgate::exit_code::pass;
  {
    const pc::Communicator comm;
    const std::int64_t mpi_setup_bytes =
        pc::resident_memory_bytes().value_or(0) - resident_before_mpi;
    try {
      code = run(argc, argv, comm, mpi_setup_bytes);
    } catch (const perfgate::NoDeviceError& e) {
      // Every rank agreed before any collective needed a device: rank 0 speaks for all.
      if (comm.rank() == 0) std::fprintf(stderr, "perfgate-collectives: %s\n", e.what());
      code = perfgate::exit_code::no_device;
    } catch (const perfgate::InputError& e) {
      // Options are parsed identically on every rank: every rank gets here, rank 0 speaks.
      if (comm.rank() == 0) std::fprintf(stderr, "perfgate-collectives: %s\n", e.what());
      code = perfgate::exit_code::usage_or_tool_error;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "perfgate-collectives: rank %d: %s\n", comm.rank(), e.what());
      MPI_Abort(MPI_COMM_WORLD, perfgate::exit_code::usage_or_tool_error);
    }
  }
  pc::free_mpi_handles();
  MPI_Finalize();
  return code;
}
