// The MPI backend: the collectives through MPI on host memory (CPU-only machines, CI).
#include <unistd.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "backend.hpp"
#include "mpi_datatypes.hpp"
#include "perfgate/collectives/communicator.hpp"
#include "perfgate/collectives/page_aligned.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/microbench/kernels/gemm.hpp"

namespace perfgate::collectives {
namespace {

// Calls the blocking form of an MPI collective, or with `requests` its nonblocking twin
// (MPI_Iallreduce for MPI_Allreduce: the same arguments and a request last).
template <typename Blocking, typename Nonblocking, typename... Args>
void start_call(std::vector<MPI_Request>* requests, Blocking blocking, Nonblocking nonblocking,
                Args... args) {
  if (requests == nullptr) {
    blocking(args...);
    return;
  }
  requests->emplace_back();
  nonblocking(args..., &requests->back());
}

// A receive buffer's stride in the group's block: whole pages, so that every operation in
// flight starts where a lone one would (see page_aligned.hpp).
std::size_t region_stride(std::size_t bytes) {
  constexpr std::size_t page = PageAlignedAllocator<std::byte>::page;
  return (bytes + page - 1) / page * page;
}

// The whole pages a buffer maps (none before its first allocation).
std::int64_t mapped_bytes(const PageAlignedVector<std::byte>& buffer) {
  if (buffer.capacity() == 0) return 0;
  return static_cast<std::int64_t>(
      PageAlignedAllocator<std::byte>::mapped_bytes(buffer.capacity()));
}

class MpiBackend final : public Backend {
 public:
  MpiBackend(const Communicator& world, const Communicator& peers, int group, int unalign,
             std::int64_t setup_bytes)
      : comm_(peers),
        world_rank_(world.rank()),
        share_(host_memory_share(world.comm())),
        group_(group),
        unalign_(unalign),
        setup_bytes_(setup_bytes) {
    requests_.reserve(2 * static_cast<std::size_t>(group));
  }

  std::string name() const override { return "mpi"; }

  std::optional<std::string> unsupported(const CaseShape& shape) const override {
    if (shape.count > static_cast<std::size_t>(INT_MAX)) return "more than INT_MAX elements";
    return std::nullopt;
  }

  RankDescription describe() const override {
    return {world_rank_, static_cast<int>(::getpid()), comm_.host(), comm_.local_rank(), "cpu",
            "MPI on CPU"};
  }

  // Also the premultiplied copy of the input that mulsum makes out of place.
  double group_buffer_bytes(const CaseShape& shape) const override {
    const BufferCounts counts = buffer_counts(shape.collective, shape.count, shape.ranks);
    const std::size_t biggest = std::max(counts.send, counts.recv) * type_size(shape.dtype);
    const double premultiplied = premul_scalar(shape, comm_.rank()) != 1.0
                                     ? double(counts.send * type_size(shape.dtype))
                                     : 0;
    return double(group_ - 1) * double(region_stride(biggest)) + premultiplied;
  }

  void prepare(const CaseShape& shape, bool in_place) override {
    case_ = prepare_case(shape, in_place, comm_.rank());
    const std::size_t size = type_size(shape.dtype);
    const std::size_t biggest = std::max(case_.send_count, case_.recv_count);
    const std::size_t recv_bytes = (in_place ? biggest : case_.recv_count) * size;
    const std::size_t send_bytes = in_place ? 0 : case_.send_count * size;
    // Operations of a group in flight together each receive into a region of their own (MPI
    // forbids two writing one buffer); a lone operation uses region 0.
    stride_ = group_ == 1 ? recv_bytes : region_stride(recv_bytes);
    const std::size_t block_bytes = stride_ * static_cast<std::size_t>(group_ - 1) + recv_bytes;
    // Kept while both fit; else the last case's go first: the memory check judged this case's
    // alone, and a growing assign() would hold the old and the new buffer at once.
    // -u N: every buffer starts N elements past its page-aligned allocation, as nccl-tests'.
    const std::size_t shift = static_cast<std::size_t>(unalign_) * size;
    if (recv_.capacity() < block_bytes + shift || send_.capacity() < send_bytes + shift) {
      PageAlignedVector<std::byte>().swap(recv_);
      PageAlignedVector<std::byte>().swap(send_);
    }
    // In place, every collective works in one buffer big enough for its input and its output.
    const std::size_t premultiplied_bytes = premultiplies() && !in_place ? send_bytes : 0;
    recv_.assign(block_bytes + shift, std::byte{0});
    send_.assign(send_bytes + shift, std::byte{0});
    premultiplied_.assign(premultiplied_bytes + shift, std::byte{0});
    recv_view_ = std::span<std::byte>(recv_).subspan(shift);
    send_view_ = std::span<std::byte>(send_).subspan(shift);
    premultiplied_view_ = std::span<std::byte>(premultiplied_).subspan(shift);
    refill(shape.draw);
  }

  MemoryShare memory_share() const override { return share_; }

  std::string memory_device() const override { return "Host"; }
  std::int64_t memory_in_use() const override {
    const std::optional<std::int64_t> resident = resident_memory_bytes();
    if (!resident)
      throw ToolError("--memory: /proc/self/statm cannot be read for the resident memory");
    return *resident;
  }
  std::int64_t setup_memory() const override { return setup_bytes_; }
  // Their pages, every one written by assign(): what their making added to the resident memory
  // (less a sanitizer's shadow, which the table's Collective part then holds).
  std::int64_t buffer_memory() const override {
    return mapped_bytes(send_) + mapped_bytes(recv_) + mapped_bytes(premultiplied_);
  }

  void refill(std::uint32_t draw) override {
    case_.shape.draw = draw;
    const std::size_t size = type_size(case_.shape.dtype);
    std::span<std::byte> target = send_view_;
    if (case_.in_place) {
      const bool at_own_block = input_is_own_output_block(case_.shape.collective);
      target = recv_view_.subspan(at_own_block ? own_block_offset() : 0, case_.send_count * size);
    }
    encode_input(case_.shape, comm_.rank(), 0, target);
  }

  void launch() override {
    premultiply(1);
    start(region(0), nullptr);
    if (averages()) divide_output_by_ranks(region(0));
  }

  // Every operation of the group started as a nonblocking collective into its own region,
  // then all awaited: what a group of NCCL launches is to the GPU.
  void launch_group(int group) override {
    if (group > group_) {
      throw ToolError(
          fmt::format("the MPI backend was made for groups of {}, not {}", group_, group));
    }
    requests_.clear();
    premultiply(group);
    for (int k = 0; k < group; ++k) start(region(k), &requests_);
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    if (averages())
      for (int k = 0; k < group; ++k) divide_output_by_ranks(region(k));
  }

  void wait() override {}  // MPI calls and groups return complete

  void read_output(const OutputVisitor& visit) override {
    const std::size_t size = type_size(case_.shape.dtype);
    // Scatter in place leaves each rank's block where it sits in the root's layout.
    const bool scattered = case_.in_place && case_.shape.collective == Collective::scatter;
    std::span<const std::byte> out =
        recv_view_.subspan(scattered ? own_block_offset() : 0, case_.recv_count * size);
    // Out of place, broadcast's root keeps its input in the send buffer.
    if (!case_.in_place && case_.shape.collective == Collective::broadcast &&
        comm_.rank() == case_.shape.root)
      out = send_view_;
    visit(0, out);
  }

  void prepare_compute(int n) override {
    n_ = n;
    const auto elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    a_.assign(elements, 1.0f);
    b_.assign(elements, 0.5f);
    c_.assign(elements, 0.0f);
  }

  void launch_compute(int repeats) override {
    compute_ = std::thread([this, repeats] {
      for (int r = 0; r < repeats; ++r) {
        const auto n = static_cast<std::size_t>(n_);  // the microbench CPU GEMM kernel
        microbench::kernels::gemm_blocked(n, n, n, 1.0f, {a_.data(), n}, {b_.data(), n}, 0.0f,
                                          c_.data(), n);
      }
    });
  }

  void wait_compute() override {
    if (compute_.joinable()) compute_.join();
  }

 private:
  std::byte* region(int k) { return recv_view_.data() + static_cast<std::size_t>(k) * stride_; }

  // MPI has no average: sum, then scale (counted in the time).
  bool averages() const {
    return case_.shape.op == ReduceOp::avg && info(case_.shape.collective).reduces &&
           has_output(case_.shape, comm_.rank());
  }

  // nccl-tests' mulsum: MPI has no premultiplied sum, so a rank whose scalar is not 1 scales its
  // input on the host first (in the time, as NCCL's multiply inside its kernel is): into a copy
  // out of place (the operations of a group all read it), in each group region's buffer in
  // place, which the output overwrites anyway.
  bool premultiplies() const { return premul_scalar(case_.shape, comm_.rank()) != 1.0; }

  void premultiply(int regions) {
    if (!premultiplies()) return;
    const double scalar = premul_scalar(case_.shape, comm_.rank());
    const auto times_scalar = [scalar](double v) { return v * scalar; };
    const std::size_t bytes = case_.send_count * type_size(case_.shape.dtype);
    if (!case_.in_place) {
      transform_elements(send_view_, premultiplied_view_, times_scalar);
      return;
    }
    for (int k = 0; k < regions; ++k) {
      const std::span<std::byte> input(region(k), bytes);
      transform_elements(input, input, times_scalar);
    }
  }

  // One operation receiving into `out`: blocking, or with `requests` started nonblocking.
  void start(std::byte* out, std::vector<MPI_Request>* requests) {
    const MPI_Datatype type = mpi_datatype(case_.shape.dtype);
    const MPI_Op op = mpi_op(case_.shape.dtype, case_.shape.op);
    const MPI_Comm comm = comm_.comm();
    const int send = static_cast<int>(case_.send_count), recv = static_cast<int>(case_.recv_count);
    const int block =
        static_cast<int>(case_.shape.count / static_cast<std::size_t>(case_.shape.ranks));
    void* in = case_.in_place    ? MPI_IN_PLACE
               : premultiplies() ? static_cast<void*>(premultiplied_view_.data())
                                 : static_cast<void*>(send_view_.data());
    switch (case_.shape.collective) {
      case Collective::all_reduce:
        start_call(requests, MPI_Allreduce, MPI_Iallreduce, in, out, send, type, op, comm);
        break;
      case Collective::all_gather:
        start_call(requests, MPI_Allgather, MPI_Iallgather, in, send, type, out, send, type, comm);
        break;
      case Collective::reduce_scatter:
        start_call(requests, MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, in, out, recv,
                   type, op, comm);
        break;
      case Collective::broadcast: {
        // MPI_Bcast has one buffer: out of place, the root sends from its input buffer.
        void* buffer =
            !case_.in_place && comm_.rank() == case_.shape.root ? send_view_.data() : out;
        start_call(requests, MPI_Bcast, MPI_Ibcast, buffer, send, type, case_.shape.root, comm);
        break;
      }
      case Collective::reduce:
        if (case_.in_place && comm_.rank() != case_.shape.root) in = out;
        start_call(requests, MPI_Reduce, MPI_Ireduce, in, out, send, type, op, case_.shape.root,
                   comm);
        break;
      case Collective::alltoall:
        start_call(requests, MPI_Alltoall, MPI_Ialltoall, in, block, type, out, block, type, comm);
        break;
      case Collective::sendrecv:
        start_ring_exchange(out, requests);
        break;
      case Collective::gather:
      case Collective::scatter:
        start_rooted_blocks(out, requests);
        break;
      case Collective::hypercube:
        run_hypercube(out);
        break;
    }
  }

  // nccl-tests' hypercube_perf: this rank's block copied to its place (out of place), then an
  // exchange with the rank across each dimension of the hypercube, each sending every block
  // gathered so far. A step needs the one before it, so a group's hypercubes run one after
  // another, as the in-place send-receive does.
  void run_hypercube(std::byte* out) {
    const MPI_Datatype type = mpi_datatype(case_.shape.dtype);
    const std::size_t block_bytes = case_.send_count * type_size(case_.shape.dtype);
    if (!case_.in_place) std::memcpy(out + own_block_offset(), send_view_.data(), block_bytes);
    for (const HypercubeStep& step : case_.hypercube_steps) {
      const auto elements = static_cast<int>(case_.send_count * step.blocks);  // at most the count
      MPI_Sendrecv(out + step.sent * block_bytes, elements, type, step.peer, 0,
                   out + step.received * block_bytes, elements, type, step.peer, 0, comm_.comm(),
                   MPI_STATUS_IGNORE);
    }
  }

  // Gather and scatter. In place, MPI_IN_PLACE is the root's alone: another rank gathers from,
  // or scatters into, its own block of the one buffer, where the NCCL layout keeps it too.
  void start_rooted_blocks(std::byte* out, std::vector<MPI_Request>* requests) {
    const MPI_Datatype type = mpi_datatype(case_.shape.dtype);
    const MPI_Comm comm = comm_.comm();
    const int block =
        static_cast<int>(case_.shape.count / static_cast<std::size_t>(case_.shape.ranks));
    const bool root = comm_.rank() == case_.shape.root;
    void* own_block = out + own_block_offset();
    void* in = send_view_.data();
    if (case_.shape.collective == Collective::gather) {
      void* from = !case_.in_place ? in : root ? MPI_IN_PLACE : own_block;
      start_call(requests, MPI_Gather, MPI_Igather, from, block, type, out, block, type,
                 case_.shape.root, comm);
    } else {
      void* from = case_.in_place ? out : in;
      void* into = !case_.in_place ? out : root ? MPI_IN_PLACE : own_block;
      start_call(requests, MPI_Scatter, MPI_Iscatter, from, block, type, into, block, type,
                 case_.shape.root, comm);
    }
  }

  // Bytes from a buffer's start to this rank's block (the in-place layout of gather, scatter and
  // the all_gathers).
  std::size_t own_block_offset() const {
    return static_cast<std::size_t>(comm_.rank()) * (case_.shape.count / case_.shape.ranks) *
           type_size(case_.shape.dtype);
  }

  void start_ring_exchange(std::byte* out, std::vector<MPI_Request>* requests) {
    const MPI_Datatype type = mpi_datatype(case_.shape.dtype);
    const MPI_Comm comm = comm_.comm();
    const int send = static_cast<int>(case_.send_count), recv = static_cast<int>(case_.recv_count);
    const int next = (comm_.rank() + 1) % case_.shape.ranks,
              prev = (comm_.rank() - 1 + case_.shape.ranks) % case_.shape.ranks;
    if (case_.in_place) {
      // MPI 3.1 has no nonblocking send-receive in one buffer: a group's in-place exchanges
      // run one after another.
      MPI_Sendrecv_replace(out, send, type, next, 0, prev, 0, comm, MPI_STATUS_IGNORE);
    } else if (requests == nullptr) {
      MPI_Sendrecv(send_view_.data(), send, type, next, 0, out, recv, type, prev, 0, comm,
                   MPI_STATUS_IGNORE);
    } else {
      requests->emplace_back();
      MPI_Irecv(out, recv, type, prev, 0, comm, &requests->back());
      requests->emplace_back();
      MPI_Isend(send_view_.data(), send, type, next, 0, comm, &requests->back());
    }
  }

  void divide_output_by_ranks(std::byte* out) {
    const std::span<std::byte> region(out, case_.recv_count * type_size(case_.shape.dtype));
    transform_elements(region, region, [this](double v) { return v / case_.shape.ranks; });
  }

  // to[i] = f(from[i]) in the case's datatype, decoded and encoded a piece at a time (`to` may
  // be `from`).
  template <class F>
  void transform_elements(std::span<const std::byte> from, std::span<std::byte> to, F f) {
    const std::size_t size = type_size(case_.shape.dtype);
    std::vector<double> values;
    for_each_piece(from.size() / size, [&](std::size_t first, std::size_t n) {
      values = decode_array(case_.shape.dtype, from.subspan(first * size, n * size));
      for (double& v : values) v = f(v);
      encode_array(case_.shape.dtype, values, to.subspan(first * size, n * size));
    });
  }

  // The operations' ranks: the job's, or this rank's split group.
  const Communicator& comm_;
  const int world_rank_;
  MemoryShare share_;
  const int group_;
  const int unalign_;  // -u: elements each buffer starts past its aligned allocation
  const std::int64_t setup_bytes_;
  PreparedCase case_;
  std::size_t stride_ = 0;  // bytes from one group region to the next
  std::vector<MPI_Request> requests_;
  PageAlignedVector<std::byte> send_, recv_;
  PageAlignedVector<std::byte> premultiplied_;  // mulsum out of place: the input times the scalar
  // The buffers as the operations see them: -u's elements into each allocation.
  std::span<std::byte> send_view_, recv_view_, premultiplied_view_;
  int n_ = 0;
  std::vector<float> a_, b_, c_;
  std::thread compute_;
};

}  // namespace

std::unique_ptr<Backend> make_mpi_backend(const Communicator& world, const Communicator& peers,
                                          int group, int unalign, std::int64_t setup_bytes) {
  return std::make_unique<MpiBackend>(world, peers, group, unalign, setup_bytes);
}

}  // namespace perfgate::collectives
