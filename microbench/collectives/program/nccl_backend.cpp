// The NCCL backend: one GPU per rank (device = local rank), NCCL bootstrapped through MPI.
// Buffers are filled and checked through host staging, so no device code is needed.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <nccl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <span>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "backend.hpp"
#include "event_clock.hpp"
#include "nccl_buffer.hpp"
#include "nccl_communicator.hpp"
#include "perfgate/collectives/communicator.hpp"
#include "perfgate/collectives/launch_env.hpp"
#include "perfgate/collectives/watchdog.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::collectives {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw ToolError(fmt::format("{}: {}", what, cudaGetErrorString(e)));
}
void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw ToolError(fmt::format("{}: {}", what, ncclGetErrorString(r)));
}
void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw ToolError(fmt::format("{}: cuBLAS status {}", what, static_cast<int>(s)));
}
#define PG_CHECK(call) check((call), #call)

constexpr bool kNcclHasFp8 = NCCL_VERSION_CODE >= NCCL_VERSION(2, 24, 0);

ncclDataType_t nccl_type(DataType t) {
  switch (t) {
    case DataType::f32:
      return ncclFloat32;
    case DataType::bf16:
      return ncclBfloat16;
    case DataType::f16:
      return ncclFloat16;
    case DataType::f64:
      return ncclFloat64;
    case DataType::i8:
      return ncclInt8;
    case DataType::u8:
      return ncclUint8;
    case DataType::i32:
      return ncclInt32;
    case DataType::u32:
      return ncclUint32;
    case DataType::i64:
      return ncclInt64;
    case DataType::u64:
      return ncclUint64;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 24, 0)
    case DataType::f8e4m3:
      return ncclFloat8e4m3;
    case DataType::f8e5m2:
      return ncclFloat8e5m2;
#else
    case DataType::f8e4m3:
    case DataType::f8e5m2:
      break;
#endif
  }
  return ncclFloat32;
}

ncclRedOp_t nccl_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      return ncclSum;
    case ReduceOp::prod:
      return ncclProd;
    case ReduceOp::max:
      return ncclMax;
    case ReduceOp::min:
      return ncclMin;
    case ReduceOp::avg:
      return ncclAvg;
    case ReduceOp::mulsum:  // an operator of each rank's own, made per operation (premul_op)
      break;
  }
  return ncclSum;
}

// A device allocation kept from case to case while it is big enough (the overlap GEMM's
// matrices; the operations' buffers are NcclBuffers).
struct DeviceBuffer {
  std::byte* data = nullptr;
  std::size_t capacity = 0;
  void reserve(std::size_t bytes) {
    if (bytes <= capacity) return;
    release();
    void* p = nullptr;
    PG_CHECK(cudaMalloc(&p, bytes));
    data = static_cast<std::byte*>(p);
    capacity = bytes;
  }
  void release() {
    if (data) cudaFree(data);
    data = nullptr;
    capacity = 0;
  }
  ~DeviceBuffer() { release(); }
};

class NcclBackend final : public Backend {
 public:
  // `device`: this rank's CUDA device; `peers`: the ranks of the NCCL communicator.
  NcclBackend(const Communicator& world, const Communicator& peers, int device,
              const NcclLaunch& launch)
      : comm_(peers),
        world_rank_(world.rank()),
        graph_launches_(launch.graph_launches),
        unalign_(launch.unalign),
        send_(static_cast<Registration>(launch.local_register)),
        recv_(static_cast<Registration>(launch.local_register)) {
    device_ = device;
    PG_CHECK(cudaSetDevice(device_));
    PG_CHECK(cudaGetDeviceProperties(&props_, device_));
    // nccl-tests' -M Initialization: what the communicator and the streams took of the device.
    const std::int64_t in_use_before_setup = memory_in_use();
    ncclUniqueId id{};
    if (peers.rank() == 0) PG_CHECK(ncclGetUniqueId(&id));
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, peers.comm());
    nccl_ = make_communicator(peers.size(), id, peers.rank(), launch.cta_policy);
    // -y 1, as nccl-tests' stream_null: the legacy default stream, which waits for (and makes
    // wait) every blocking stream of the device.
    if (!launch.stream_null) PG_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    PG_CHECK(cudaStreamCreateWithFlags(&compute_stream_, cudaStreamNonBlocking));
    setup_memory_ = memory_in_use() - in_use_before_setup;
    // After NCCL's own allocations, shared by the ranks on this host that run on this device
    // (by local rank, or as NCCL_TESTS_DEVICE put them).
    std::size_t free = 0, total = 0;
    PG_CHECK(cudaMemGetInfo(&free, &total));
    const std::string place = fmt::format("{}\t{}", world.host(), device_);
    const std::vector<std::string> places = world.all_gather(place);
    share_ = {fmt::format("GPU {} memory", device_),
              double(free),
              static_cast<int>(std::count(places.begin(), places.end(), place)),
              {}};
  }

  ~NcclBackend() override {
    drop_graph();
    if (cublas_) cublasDestroy(cublas_);
    // Registered buffers are deregistered while the communicator lives, unless it failed.
    const bool healthy = !aborted_ && std::uncaught_exceptions() == 0;
    try {
      send_.release(healthy ? nccl_ : nullptr);
      recv_.release(healthy ? nccl_ : nullptr);
    } catch (const std::exception&) {  // a failed deregistration still frees the memory
    }
    // Destroying flushes every issued operation, which after an error (an exception leaving
    // the program: nothing inside catches one) may never finish: then the communicator is
    // aborted instead (the watchdog's abort already freed it).
    if (!aborted_) {
      if (std::uncaught_exceptions() > 0)
        ncclCommAbort(nccl_);
      else
        ncclCommDestroy(nccl_);
    }
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
    cudaStreamDestroy(compute_stream_);
  }

  std::string name() const override { return "nccl"; }

  bool in_place_defined(Collective c) const override {
    return c != Collective::alltoall && c != Collective::sendrecv;
  }

  std::optional<std::string> unsupported(const CaseShape& shape) const override {
    const bool fp8 = shape.dtype == DataType::f8e4m3 || shape.dtype == DataType::f8e5m2;
    if (fp8 && !kNcclHasFp8) return "fp8 needs NCCL 2.24 or newer (built with an older one)";
    int version = 0;  // the library loaded may be older than the headers built against
    if (fp8 && (ncclGetVersion(&version) != ncclSuccess || version < NCCL_VERSION(2, 24, 0)))
      return fmt::format("fp8 needs NCCL 2.24 or newer (this library is {})", version);
    if (fp8 && props_.major < 9)
      return fmt::format("fp8 needs sm_90 or newer (this GPU is sm_{}{})", props_.major,
                         props_.minor);
    // A type NCCL makes no premultiplied sum of is a skipped case, not a failed run (making an
    // operator is local to the rank, so every rank asks and gets the same answer).
    if (shape.op == ReduceOp::mulsum && info(shape.collective).reduces) {
      ncclRedOp_t op{};
      const ncclResult_t made = make_premul_op(shape, &op);
      if (made != ncclSuccess)
        return fmt::format("NCCL makes no premultiplied sum of {} ({})", type_name(shape.dtype),
                           ncclGetErrorString(made));
      PG_CHECK(ncclRedOpDestroy(op, nccl_));
    }
    return std::nullopt;
  }

  RankDescription describe() const override {
    return {world_rank_,
            static_cast<int>(::getpid()),
            comm_.host(),
            device_,
            fmt::format("{:04x}:{:02x}:{:02x}", props_.pciDomainID, props_.pciBusID,
                        props_.pciDeviceID),
            props_.name};
  }

  std::map<std::string, std::string> fingerprint_keys() const override {
    int version = 0;
    PG_CHECK(ncclGetVersion(&version));
    return {{"nccl.version", std::to_string(version)}};
  }

  void prepare(const CaseShape& shape, bool in_place) override {
    drop_graph();
    case_ = prepare_case(shape, in_place, comm_.rank());
    const std::size_t size = type_size(shape.dtype);
    // -u N: each buffer starts N elements into its allocation, as nccl-tests shifts them.
    shift_ = static_cast<std::size_t>(unalign_) * size;
    const std::size_t recv_elements = std::max(case_.send_count, case_.recv_count);
    const std::size_t recv_bytes = recv_elements * size + shift_;
    const std::size_t send_bytes = in_place ? 0 : case_.send_count * size + shift_;
    // Kept while both fit; else both go before the new ones come, so that what the device holds
    // is one case's buffers, which the memory check judged, never one old and one new.
    // Registering and deregistering (-R) talk to the communicator.
    const std::int64_t in_use_before = memory_in_use();
    with_communicator([&] {
      if (recv_.capacity() < recv_bytes || send_.capacity() < send_bytes) {
        recv_.release(nccl_);
        send_.release(nccl_);
      }
      recv_.reserve(nccl_, recv_bytes);
      send_.reserve(nccl_, send_bytes);
    });
    // As allocated (ncclMemAlloc's granularity) and registered (-R).
    buffer_memory_ += memory_in_use() - in_use_before;
    PG_CHECK(cudaMemset(recv_.data() + shift_, 0, recv_elements * size));
    refill(shape.draw);
  }

  MemoryShare memory_share() const override { return share_; }

  std::string memory_device() const override { return "GPU"; }
  std::int64_t memory_in_use() const override {
    std::size_t free = 0, total = 0;
    PG_CHECK(cudaMemGetInfo(&free, &total));
    return static_cast<std::int64_t>(total) - static_cast<std::int64_t>(free);
  }
  std::int64_t setup_memory() const override { return setup_memory_; }
  std::int64_t buffer_memory() const override { return buffer_memory_; }

  // Through a host piece at a time: the staging stays small whatever the buffer's size.
  void refill(std::uint32_t draw) override {
    case_.shape.draw = draw;
    const std::size_t size = type_size(case_.shape.dtype);
    std::vector<std::byte> host;
    for_each_piece(case_.send_count, [&](std::size_t first, std::size_t n) {
      host.resize(n * size);
      encode_input(case_.shape, comm_.rank(), first, host);
      PG_CHECK(cudaMemcpy(send_pointer() + first * size, host.data(), host.size(),
                          cudaMemcpyHostToDevice));
    });
    finish_staging();
  }

  void launch() override {
    with_communicator([&] { enqueue(); });
  }

  // nccl-tests' -m: the group's operations in one ncclGroupStart/End, which NCCL launches as
  // one (the alltoall and send/receive groups inside nest in it). Not hypercube's: each of its
  // steps sends what the step before received, and in one group NCCL would run them together;
  // its operations are enqueued one after another.
  void launch_group(int group) override {
    with_communicator([&] {
      const bool one_group = case_.shape.collective != Collective::hypercube;
      if (one_group) PG_CHECK(ncclGroupStart());
      for (int k = 0; k < group; ++k) enqueue();
      if (one_group) PG_CHECK(ncclGroupEnd());
    });
  }

  // nccl-tests' mulsum: a PreMulSum operator holding this rank's scalar in the datatype, made for
  // each operation and destroyed once it is enqueued, as nccl-tests and PyTorch's PREMUL_SUM do.
  ncclResult_t make_premul_op(const CaseShape& shape, ncclRedOp_t* op) const {
    std::array<std::byte, 8> scalar{};
    const double value = premul_scalar(shape, comm_.rank());
    encode_array(shape.dtype, std::span<const double>(&value, 1),
                 std::span<std::byte>(scalar).first(type_size(shape.dtype)));
    return ncclRedOpCreatePreMulSum(op, scalar.data(), nccl_type(shape.dtype),
                                    ncclScalarHostImmediate, nccl_);
  }

  void enqueue() {
    const ncclDataType_t type = nccl_type(case_.shape.dtype);
    const bool premultiplied =
        case_.shape.op == ReduceOp::mulsum && info(case_.shape.collective).reduces;
    ncclRedOp_t op = nccl_op(case_.shape.op);
    if (premultiplied) PG_CHECK(make_premul_op(case_.shape, &op));
    const std::size_t size = type_size(case_.shape.dtype);
    const std::size_t block = case_.shape.count / static_cast<std::size_t>(case_.shape.ranks);
    std::byte* in = send_pointer();
    std::byte* out = recv_pointer();
    switch (case_.shape.collective) {
      case Collective::all_reduce:
        PG_CHECK(ncclAllReduce(in, out, case_.send_count, type, op, nccl_, stream_));
        break;
      case Collective::all_gather:
        PG_CHECK(ncclAllGather(in, out, case_.send_count, type, nccl_, stream_));
        break;
      case Collective::reduce_scatter:
        PG_CHECK(ncclReduceScatter(in, out, case_.recv_count, type, op, nccl_, stream_));
        break;
      case Collective::broadcast:
        PG_CHECK(ncclBroadcast(in, out, case_.send_count, type, case_.shape.root, nccl_, stream_));
        break;
      case Collective::reduce:
        PG_CHECK(ncclReduce(in, out, case_.send_count, type, op, case_.shape.root, nccl_, stream_));
        break;
      case Collective::alltoall:
        PG_CHECK(ncclGroupStart());
        for (int peer = 0; peer < case_.shape.ranks; ++peer) {
          const std::size_t at = static_cast<std::size_t>(peer) * block * size;
          PG_CHECK(ncclSend(in + at, block, type, peer, nccl_, stream_));
          PG_CHECK(ncclRecv(out + at, block, type, peer, nccl_, stream_));
        }
        PG_CHECK(ncclGroupEnd());
        break;
      case Collective::sendrecv: {
        const int next = (comm_.rank() + 1) % case_.shape.ranks,
                  prev = (comm_.rank() - 1 + case_.shape.ranks) % case_.shape.ranks;
        PG_CHECK(ncclGroupStart());
        PG_CHECK(ncclSend(in, case_.send_count, type, next, nccl_, stream_));
        PG_CHECK(ncclRecv(out, case_.recv_count, type, prev, nccl_, stream_));
        PG_CHECK(ncclGroupEnd());
        break;
      }
      case Collective::gather:
      case Collective::scatter:
        enqueue_rooted_blocks(in, out, block);
        break;
      case Collective::hypercube:
        enqueue_hypercube(in, out);
        break;
    }
    if (premultiplied) PG_CHECK(ncclRedOpDestroy(op, nccl_));
  }

  // Gather and scatter as grouped ncclSend/ncclRecv to or from the root, as nccl-tests makes
  // them before NCCL 2.28 (ncclGather and ncclScatter need a 2.28 library at run time).
  void enqueue_rooted_blocks(std::byte* in, std::byte* out, std::size_t block) {
    const ncclDataType_t type = nccl_type(case_.shape.dtype);
    const std::size_t block_bytes = block * type_size(case_.shape.dtype);
    const bool gathers = case_.shape.collective == Collective::gather;
    PG_CHECK(ncclGroupStart());
    if (comm_.rank() == case_.shape.root) {
      for (int peer = 0; peer < case_.shape.ranks; ++peer) {
        const std::size_t at = static_cast<std::size_t>(peer) * block_bytes;
        if (gathers)
          PG_CHECK(ncclRecv(out + at, block, type, peer, nccl_, stream_));
        else
          PG_CHECK(ncclSend(in + at, block, type, peer, nccl_, stream_));
      }
    }
    if (gathers)
      PG_CHECK(ncclSend(in, block, type, case_.shape.root, nccl_, stream_));
    else
      PG_CHECK(ncclRecv(out, block, type, case_.shape.root, nccl_, stream_));
    PG_CHECK(ncclGroupEnd());
  }

  // nccl-tests' hypercube_perf: the rank's block copied to its place (out of place), then one
  // group of a send and a receive across each dimension of the hypercube, each carrying every
  // block gathered so far.
  void enqueue_hypercube(std::byte* in, std::byte* out) {
    const ncclDataType_t type = nccl_type(case_.shape.dtype);
    const std::size_t block_bytes = case_.send_count * type_size(case_.shape.dtype);
    std::byte* own = out + static_cast<std::size_t>(comm_.rank()) * block_bytes;
    if (in != own)
      PG_CHECK(cudaMemcpyAsync(own, in, block_bytes, cudaMemcpyDeviceToDevice, stream_));
    for (const HypercubeStep& step : case_.hypercube_steps) {
      const std::size_t elements = case_.send_count * step.blocks;
      PG_CHECK(ncclGroupStart());
      PG_CHECK(ncclSend(out + step.sent * block_bytes, elements, type, step.peer, nccl_, stream_));
      PG_CHECK(
          ncclRecv(out + step.received * block_bytes, elements, type, step.peer, nccl_, stream_));
      PG_CHECK(ncclGroupEnd());
    }
  }

  // nccl-tests' -G: the loop's operations captured into one graph (untimed, under the
  // watchdog: the caller arms it), uploaded, then replayed graph_launches_ times.
  void ready_timed_loop(const LoopPlan& plan) override {
    if (graph_launches_ == 0 || graph_plan_ == std::pair{plan.iters, plan.group}) return;
    drop_graph();
    cudaGraph_t graph = nullptr;
    PG_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < plan.iters; ++i) launch_iteration(plan.group);
    PG_CHECK(cudaStreamEndCapture(stream_, &graph));
    const cudaError_t instantiated = cudaGraphInstantiate(&graph_exec_, graph, 0);
    cudaGraphDestroy(graph);
    PG_CHECK(instantiated);
    PG_CHECK(cudaGraphUpload(graph_exec_, stream_));  // the first replay does not pay for it
    graph_plan_ = {plan.iters, plan.group};
  }

  long run_timed_loop(const LoopPlan& plan, const std::function<void()>& before_each,
                      const std::function<void()>& after_each) override {
    if (graph_launches_ == 0) return Backend::run_timed_loop(plan, before_each, after_each);
    // A capture here would be timed: ready_timed_loop belongs before the loop's barrier.
    if (graph_plan_ != std::pair{plan.iters, plan.group} || after_each)
      throw ToolError(fmt::format(
          "NCCL backend: timed loop of {} x {} operations started without its graph captured, "
          "or blocking",
          plan.iters, plan.group));
    for (int l = 0; l < graph_launches_; ++l) {
      before_each();
      if (aborted_) park();
      PG_CHECK(cudaGraphLaunch(graph_exec_, stream_));
    }
    return static_cast<long>(plan.iters) * plan.group * graph_launches_;
  }

  std::unique_ptr<IterationClock> iteration_clock(int marks) override {
    return make_event_clock(stream_, marks);
  }
  std::string iteration_timing() const override { return "CUDA event"; }

  // Polls (as nccl-tests does) rather than blocking, so that the watchdog's abort is never
  // waiting on this thread; the communicator is only touched under comm_mutex_, which abort()
  // takes too, and never again once aborted (NCCL forbids using one from two threads).
  void wait() override {
    for (;;) {
      if (aborted_) park();
      {
        const std::lock_guard lock(comm_mutex_);
        if (aborted_) continue;
        const cudaError_t state = cudaStreamQuery(stream_);
        if (state == cudaSuccess) return;
        if (state != cudaErrorNotReady) check(state, "cudaStreamQuery");
        ncclResult_t async = ncclSuccess;
        const ncclResult_t queried = ncclCommGetAsyncError(nccl_, &async);
        if (queried != ncclSuccess) async = queried;
        if (async != ncclSuccess && async != ncclInProgress) check(async, "ncclCommGetAsyncError");
      }
      std::this_thread::yield();
    }
  }

  // Through a host piece at a time, as refill().
  void read_output(const OutputVisitor& visit) override {
    const std::size_t size = type_size(case_.shape.dtype);
    std::vector<std::byte> host;
    for_each_piece(case_.recv_count, [&](std::size_t first, std::size_t n) {
      host.resize(n * size);
      PG_CHECK(cudaMemcpy(host.data(), recv_pointer() + first * size, host.size(),
                          cudaMemcpyDeviceToHost));
      visit(first, host);
    });
  }

  void abort() noexcept override {
    aborted_ = true;
    abort_when_free(comm_mutex_, [this] { ncclCommAbort(nccl_); });
  }

  void prepare_compute(int n) override {
    n_ = n;
    if (!cublas_) {
      PG_CHECK(cublasCreate(&cublas_));
      PG_CHECK(cublasSetStream(cublas_, compute_stream_));
    }
    const std::size_t bytes =
        static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * sizeof(float);
    for (DeviceBuffer* m : {&a_, &b_, &c_}) {
      m->reserve(bytes);
      PG_CHECK(cudaMemset(m->data, 0, bytes));
    }
    finish_staging();
  }

  void launch_compute(int repeats) override {
    const float one = 1.0f, zero = 0.0f;
    for (int r = 0; r < repeats; ++r) {
      PG_CHECK(cublasSgemm(cublas_, CUBLAS_OP_N, CUBLAS_OP_N, n_, n_, n_, &one,
                           reinterpret_cast<float*>(a_.data), n_, reinterpret_cast<float*>(b_.data),
                           n_, &zero, reinterpret_cast<float*>(c_.data), n_));
    }
  }

  void wait_compute() override { PG_CHECK(cudaStreamSynchronize(compute_stream_)); }

 private:
  // Memsets and copies run on the legacy default stream, which the non-blocking streams the
  // collectives and GEMMs run on do not wait for (and a pageable copy may return before its
  // data lands): staging is finished before anything is launched.
  static void finish_staging() { PG_CHECK(cudaStreamSynchronize(cudaStreamLegacy)); }

  // After the watchdog's abort this thread must not touch the communicator again; the watchdog
  // thread writes what is owed and ends the process.
  [[noreturn]] static void park() {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }

  // Runs `use` of the communicator under the lock abort() takes, so that the watchdog's
  // ncclCommAbort never runs beside it; once aborted, parks instead (with the lock released).
  template <class Use>
  void with_communicator(Use&& use) {
    {
      const std::lock_guard lock(comm_mutex_);
      if (!aborted_) {
        use();
        return;
      }
    }
    park();
  }

  // NCCL's in-place layouts: all_gather's, gather's and hypercube's input is the rank's block
  // of the output; reduce_scatter's and scatter's output is the rank's block of the input.
  std::byte* send_pointer() {
    if (!case_.in_place) return send_.data() + shift_;
    const std::size_t size = type_size(case_.shape.dtype);
    if (input_is_own_output_block(case_.shape.collective))
      return recv_.data() + shift_ + comm_.rank() * case_.send_count * size;
    return recv_.data() + shift_;
  }
  std::byte* recv_pointer() {
    const std::size_t size = type_size(case_.shape.dtype);
    const bool scatters = case_.shape.collective == Collective::reduce_scatter ||
                          case_.shape.collective == Collective::scatter;
    if (case_.in_place && scatters)
      return recv_.data() + shift_ + comm_.rank() * case_.recv_count * size;
    return recv_.data() + shift_;
  }

  void drop_graph() {
    if (graph_exec_) cudaGraphExecDestroy(graph_exec_);
    graph_exec_ = nullptr;
    graph_plan_ = {0, 0};
  }

  // The NCCL communicator's ranks: the job's, or this rank's split group.
  const Communicator& comm_;
  const int world_rank_;
  int graph_launches_;
  int unalign_;
  std::int64_t setup_memory_ = 0;
  std::int64_t buffer_memory_ = 0;
  std::size_t shift_ = 0;                 // -u's elements, in bytes of the case's type
  std::pair<int, int> graph_plan_{0, 0};  // iterations and group of graph_exec_
  int device_ = 0;
  cudaDeviceProp props_{};
  MemoryShare share_;
  ncclComm_t nccl_ = nullptr;
  cudaStream_t stream_ = nullptr, compute_stream_ = nullptr;
  cudaGraphExec_t graph_exec_ = nullptr;
  std::atomic<bool> aborted_{false};
  std::timed_mutex comm_mutex_;
  PreparedCase case_;
  NcclBuffer send_, recv_;
  cublasHandle_t cublas_ = nullptr;
  int n_ = 0;
  DeviceBuffer a_, b_, c_;
};

}  // namespace

int agreed_nccl_devices(const Communicator& comm, bool required) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  const std::size_t missing = status != cudaSuccess || devices == 0 ? 1 : 0;
  const std::size_t missing_ranks = comm.sum(missing);
  if (missing_ranks == 0) return devices;
  if (!required) return 0;
  const std::string why = !missing                ? "this rank has one"
                          : status != cudaSuccess ? cudaGetErrorString(status)
                                                  : "the device count is 0";
  throw NoDeviceError(
      fmt::format("--backend nccl: no CUDA device visible on {} of {} ranks (rank {} on {}: {})",
                  missing_ranks, comm.size(), comm.rank(), comm.host(), why));
}

std::unique_ptr<Backend> make_nccl_backend(const Communicator& world, const Communicator& peers,
                                           int devices, const NcclLaunch& launch) {
  const auto registration = static_cast<Registration>(launch.local_register);
  if (const auto why = registration_unavailable(registration))
    throw InputError(fmt::format("--local_register {}: {}", launch.local_register, *why));
  if (const auto why = cta_policy_unavailable(launch.cta_policy))
    throw InputError(fmt::format("--cta_policy {}: {}", launch.cta_policy, *why));
  // Every rank reads NCCL_TESTS_DEVICE; one that refuses it makes all refuse, before any rank
  // waits in NCCL's setup for it.
  int device = 0;
  std::optional<std::string> why;
  try {
    device = rank_device(process_environment(), world.local_rank(), devices);
  } catch (const InputError& e) {
    why = e.what();
  }
  if (const std::optional<RankReason> reason = world.first_reason(why))
    throw InputError(fmt::format("rank {}: {}", reason->rank, reason->reason));
  return std::make_unique<NcclBackend>(world, peers, device, launch);
}

}  // namespace perfgate::collectives
