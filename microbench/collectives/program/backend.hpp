#pragma once
// What a backend (MPI on CPUs, NCCL on GPUs) provides to the drivers: buffers with the
// predictable pattern, one operation at a time, its output for the check, and a compute load
// for the overlap benchmark. Timing, tables and documents live in the drivers.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "perfgate/collectives/collective.hpp"
#include "perfgate/collectives/data_pattern.hpp"
#include "perfgate/collectives/nccl_table.hpp"
#include "perfgate/collectives/node_memory.hpp"

namespace perfgate::collectives {

class Communicator;

// One timed loop: `iters` iterations of `group` operations launched together.
struct LoopPlan {
  int iters = 1;
  int group = 1;
};

// Marks between the iterations of one timed loop (-I 1), read once the loop's operations are
// done: spans_us()[i] is the time from mark i to mark i + 1.
class IterationClock {
 public:
  virtual ~IterationClock() = default;
  virtual void mark() = 0;
  virtual std::vector<double> spans_us() = 0;
};

// What a backend keeps of the case prepare() was given, the same for every backend.
struct PreparedCase {
  CaseShape shape;
  bool in_place = false;
  std::size_t send_count = 0, recv_count = 0;  // elements of the send and receive buffers
  std::vector<HypercubeStep> hypercube_steps;  // this rank's exchanges, for a hypercube case
};
// `shape` run by `rank`: its buffer counts and, once a case rather than in each timed
// operation, a hypercube's exchanges.
PreparedCase prepare_case(const CaseShape& shape, bool in_place, int rank);

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  // Why this backend cannot run `shape` (nullopt when it can).
  virtual std::optional<std::string> unsupported(const CaseShape& shape) const = 0;
  // Whether an in-place run of `c` has a defined result to check (NCCL's in-place alltoall and
  // send/receive overlap their own send and receive buffers: nccl-tests does not check them).
  virtual bool in_place_defined(Collective) const { return true; }
  // This rank's device line of the table header.
  virtual RankDescription describe() const = 0;
  // Fingerprint keys the backend knows (gpu.*, nccl.version).
  virtual std::map<std::string, std::string> fingerprint_keys() const { return {}; }

  // Allocates buffers for `shape` and fills the inputs with the pattern.
  virtual void prepare(const CaseShape& shape, bool in_place) = 0;
  // Restores the inputs (an in-place operation overwrites them), as the pattern's `draw`.
  virtual void refill(std::uint32_t draw) = 0;
  virtual void launch() = 0;  // one operation; may return before it completes
  virtual void wait() = 0;    // every launched operation has completed
  // This rank's output (its receive buffer, or what stands for it), a piece at a time in order:
  // `visit(first, bytes)` with the bytes of elements first... (NCCL: copied to the host).
  using OutputVisitor = std::function<void(std::size_t first, std::span<const std::byte> bytes)>;
  virtual void read_output(const OutputVisitor& visit) = 0;
  // What this rank may allocate for one case's buffers (measured when the backend is made,
  // before any buffer).
  virtual MemoryShare memory_share() const = 0;
  // nccl-tests' -M: the memory of the device the operations run on, "GPU" (in use: its total
  // less its free memory) or "Host" (this process's resident memory); what the communicator's
  // setup took of it; and what the operation buffers hold of it now, with the allocator's
  // rounding (NCCL: measured as their making changed the memory in use, so that ncclMemAlloc's
  // granularity and registration count; MPI: their whole pages).
  virtual std::string memory_device() const = 0;
  virtual std::int64_t memory_in_use() const = 0;
  virtual std::int64_t setup_memory() const = 0;
  virtual std::int64_t buffer_memory() const = 0;
  // `iters` operations, `before_each` called on the host before each launch, then wait().
  void run_loop(int iters, const std::function<void()>& before_each);
  // `group` operations launched together, as one iteration of nccl-tests' -m: NCCL puts them
  // in one group; MPI starts them as nonblocking collectives and waits for them. By default,
  // one launch() after another.
  virtual void launch_group(int group);
  // One iteration of a timed loop: a lone launch(), or launch_group() of `group` > 1.
  void launch_iteration(int group);
  // Buffer bytes beyond case_buffer_bytes(shape) that this backend's groups need (MPI: one
  // receive buffer per operation in flight).
  virtual double group_buffer_bytes(const CaseShape& /*shape*/) const { return 0; }
  // The timed form of a loop: plan.iters iterations of launch_group(plan.group). Plain
  // launches by default; NCCL with `-G N` replays a CUDA graph of the loop N times, as
  // nccl-tests does. ready_timed_loop does the untimed part (capture); run_timed_loop launches
  // and returns the operations it launched, without waiting for them (the caller reads the
  // host's launch time, then calls wait()), `before_each` called before each iteration (each
  // graph replay) and `after_each`, when given, after each iteration (-z; never with a graph).
  virtual void ready_timed_loop(const LoopPlan& /*plan*/) {}
  virtual long run_timed_loop(const LoopPlan& plan, const std::function<void()>& before_each,
                              const std::function<void()>& after_each);
  // A clock for `marks` marks of one timed loop, and what the table calls it. By default the
  // host's clock, right where an operation returns when done (MPI); NCCL records CUDA events
  // on its stream.
  virtual std::unique_ptr<IterationClock> iteration_clock(int marks);
  virtual std::string iteration_timing() const { return "host clock"; }
  // Ends communication for good so that a hung operation returns (watchdog; any thread).
  virtual void abort() noexcept {}

  // Overlap benchmark: an n×n×n GEMM repeated `repeats` times, started asynchronously.
  virtual void prepare_compute(int n) = 0;
  virtual void launch_compute(int repeats) = 0;
  virtual void wait_compute() = 0;
};

// `world`: every rank of the job (memory shares, device lines); `peers`: the ranks the operations
// run with, the world's or this rank's NCCL_TESTS_SPLIT group (the data pattern's rank and count).
// `group`: the most operations one launch_group() starts (-m), for which buffers are made.
// `unalign` (-u): elements every operation buffer starts past its aligned allocation.
// `setup_bytes`: what MPI's initialisation and `world`'s making took of the resident memory.
std::unique_ptr<Backend> make_mpi_backend(const Communicator& world, const Communicator& peers,
                                          int group, int unalign, std::int64_t setup_bytes);
#ifdef PERFGATE_HAVE_NCCL
// This rank's CUDA device count, agreed over all ranks before NCCL's bootstrap so that no rank
// is left waiting: 0 on every rank when some rank has none, or with `required` NoDeviceError
// on every rank.
int agreed_nccl_devices(const Communicator& comm, bool required);
// How the NCCL backend launches: `graph_launches` 0 for plain launches, else the replays of
// each timed loop's graph (-G); `local_register` -R (0, 1 or 2); `stream_null` (-y 1) the
// operations on the legacy default stream instead of a non-blocking stream of their own;
// `unalign` (-u) as for the MPI backend.
struct NcclLaunch {
  int graph_launches = 0;
  int local_register = 0;
  bool stream_null = false;
  int unalign = 0;      // -u: elements each buffer starts past its allocation
  int cta_policy = -1;  // -x: the communicator's CTA policy (-1: NCCL's own)
};
// `devices`: agreed_nccl_devices' count (> 0); `world` and `peers` as for the MPI backend (the
// NCCL communicator holds `peers`). A registration the NCCL library cannot make is an InputError
// naming -R.
std::unique_ptr<Backend> make_nccl_backend(const Communicator& world, const Communicator& peers,
                                           int devices, const NcclLaunch& launch);
#endif

}  // namespace perfgate::collectives
