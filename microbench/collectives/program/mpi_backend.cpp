// The MPI backend: the collectives through MPI on host memory (CPU-only machines, CI).
#include <unistd.h>

#include <climits>
#include <cstddef>
#include <span>
#include <thread>

#include <fmt/format.h>

#include "backend.hpp"
#include "mpi_datatypes.hpp"
#include "perfgate/collectives/communicator.hpp"
#include "perfgate/collectives/page_aligned.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/microbench/kernels/gemm.hpp"

namespace perfgate::collectives {
namespace {

class MpiBackend final : public Backend {
 public:
  explicit MpiBackend(const Communicator& comm)
      : comm_(comm), share_(host_memory_share(comm.comm())) {}

  std::string name() const override { return "mpi"; }

  std::optional<std::string> unsupported(const CaseShape& shape) const override {
    if (shape.count > static_cast<std::size_t>(INT_MAX)) return "more than INT_MAX elements";
    return std::nullopt;
  }

  RankDescription describe() const override {
    return {comm_.rank(), static_cast<int>(::getpid()), comm_.host(), comm_.local_rank(), "cpu",
            "MPI on CPU"};
  }

  void prepare(const CaseShape& shape, bool in_place) override {
    shape_ = shape;
    in_place_ = in_place;
    const BufferCounts counts = buffer_counts(shape.collective, shape.count, shape.ranks);
    send_count_ = counts.send;
    recv_count_ = counts.recv;
    const std::size_t size = type_size(shape.dtype);
    const std::size_t biggest = std::max(counts.send, counts.recv);
    const std::size_t recv_bytes = (in_place ? biggest : counts.recv) * size;
    const std::size_t send_bytes = in_place ? 0 : counts.send * size;
    // Kept while both fit; else the last case's go first: the memory check judged this case's
    // alone, and a growing assign() would hold the old and the new buffer at once.
    if (recv_.capacity() < recv_bytes || send_.capacity() < send_bytes) {
      PageAlignedVector<std::byte>().swap(recv_);
      PageAlignedVector<std::byte>().swap(send_);
    }
    // In place, every collective works in one buffer big enough for its input and its output.
    recv_.assign(recv_bytes, std::byte{0});
    send_.assign(send_bytes, std::byte{0});
    refill();
  }

  MemoryShare memory_share() const override { return share_; }

  void refill() override {
    const std::size_t size = type_size(shape_.dtype);
    std::span<std::byte> target = send_;
    if (in_place_) {
      // all_gather in place: this rank's block already sits at its place in the output.
      const std::size_t offset = shape_.collective == Collective::all_gather
                                     ? static_cast<std::size_t>(comm_.rank()) * send_count_
                                     : 0;
      target = std::span<std::byte>(recv_).subspan(offset * size, send_count_ * size);
    }
    encode_input(shape_, comm_.rank(), 0, target);
  }

  void launch() override {
    const MPI_Datatype type = mpi_datatype(shape_.dtype);
    const MPI_Op op = mpi_op(shape_.dtype, shape_.op);
    const MPI_Comm comm = comm_.comm();
    const int send = static_cast<int>(send_count_), recv = static_cast<int>(recv_count_);
    const int block = static_cast<int>(shape_.count / static_cast<std::size_t>(shape_.ranks));
    void* in = in_place_ ? MPI_IN_PLACE : static_cast<void*>(send_.data());
    void* out = recv_.data();
    switch (shape_.collective) {
      case Collective::all_reduce:
        MPI_Allreduce(in, out, send, type, op, comm);
        break;
      case Collective::all_gather:
        MPI_Allgather(in, send, type, out, send, type, comm);
        break;
      case Collective::reduce_scatter:
        MPI_Reduce_scatter_block(in, out, recv, type, op, comm);
        break;
      case Collective::broadcast:
        // MPI_Bcast has one buffer: out of place, the root sends from its input buffer.
        MPI_Bcast(!in_place_ && comm_.rank() == shape_.root ? send_.data() : out, send, type,
                  shape_.root, comm);
        break;
      case Collective::reduce:
        if (in_place_ && comm_.rank() != shape_.root) in = out;
        MPI_Reduce(in, out, send, type, op, shape_.root, comm);
        break;
      case Collective::alltoall:
        MPI_Alltoall(in, block, type, out, block, type, comm);
        break;
      case Collective::sendrecv: {
        const int next = (comm_.rank() + 1) % shape_.ranks,
                  prev = (comm_.rank() - 1 + shape_.ranks) % shape_.ranks;
        if (in_place_) {
          MPI_Sendrecv_replace(out, send, type, next, 0, prev, 0, comm, MPI_STATUS_IGNORE);
        } else {
          MPI_Sendrecv(send_.data(), send, type, next, 0, out, recv, type, prev, 0, comm,
                       MPI_STATUS_IGNORE);
        }
        break;
      }
    }
    if (shape_.op == ReduceOp::avg && info(shape_.collective).reduces &&
        has_output(shape_, comm_.rank())) {
      divide_output_by_ranks();  // MPI has no average: sum, then scale (counted in the time)
    }
  }

  void wait() override {}  // MPI calls are blocking

  std::size_t count_wrong_output() override {
    const std::size_t size = type_size(shape_.dtype);
    std::span<const std::byte> out = std::span<const std::byte>(recv_).first(recv_count_ * size);
    // Out of place, broadcast's root keeps its input in the send buffer.
    if (!in_place_ && shape_.collective == Collective::broadcast && comm_.rank() == shape_.root)
      out = send_;
    return count_wrong_encoded(shape_, comm_.rank(), 0, out);
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
  void divide_output_by_ranks() {
    const std::size_t size = type_size(shape_.dtype);
    const std::span<std::byte> region = std::span<std::byte>(recv_).first(recv_count_ * size);
    std::vector<double> values;
    for_each_piece(recv_count_, [&](std::size_t first, std::size_t n) {
      const std::span<std::byte> piece = region.subspan(first * size, n * size);
      values = decode_array(shape_.dtype, piece);
      for (double& v : values) v /= shape_.ranks;
      encode_array(shape_.dtype, values, piece);
    });
  }

  const Communicator& comm_;
  MemoryShare share_;
  CaseShape shape_;
  bool in_place_ = false;
  std::size_t send_count_ = 0, recv_count_ = 0;
  PageAlignedVector<std::byte> send_, recv_;
  int n_ = 0;
  std::vector<float> a_, b_, c_;
  std::thread compute_;
};

}  // namespace

std::unique_ptr<Backend> make_mpi_backend(const Communicator& comm) {
  return std::make_unique<MpiBackend>(comm);
}

}  // namespace perfgate::collectives
