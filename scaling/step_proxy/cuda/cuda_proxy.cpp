#include "cuda_proxy.hpp"

#include <cuda_runtime.h>
#include <mpi.h>

#include <atomic>
#include <cstdlib>
#include <optional>
#include <string>

#include "gemm_ceiling.hpp"
#include "gpu_step.hpp"
#include "gpu_transformer.hpp"
#include "model_check.hpp"
#include "model_memory.hpp"
#include "nccl_comm.hpp"
#include "perfgate/collectives/communicator.hpp"
#include "perfgate/collectives/watchdog.hpp"
#include "perfgate/cuda/check.hpp"

namespace perfgate::step_proxy {
namespace {

// One GPU per rank, by local rank. Every rank answers before anything collective depends on a
// device, so a rank without one cannot leave the others waiting in NCCL's bootstrap.
int select_device(const collectives::Communicator& world) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  const int missing = status != cudaSuccess || devices == 0 ? 1 : 0;
  int missing_ranks = 0;
  MPI_Allreduce(&missing, &missing_ranks, 1, MPI_INT, MPI_SUM, world.comm());
  if (missing_ranks > 0) {
    std::string why =
        missing ? (status != cudaSuccess ? cudaGetErrorString(status) : "the device count is 0")
                : "this rank has one";
    throw NoCudaDevice("--backend cuda: no CUDA device visible on " +
                       std::to_string(missing_ranks) + " of " + std::to_string(world.size()) +
                       " ranks (rank " + std::to_string(world.rank()) + " on " + world.host() +
                       ": " + why + ")");
  }
  const int device = world.local_rank() % devices;
  PERFGATE_CUDA_CHECK(cudaSetDevice(device));
  return device;
}

// Refused on every rank together, before NCCL's bootstrap, when the model's buffers do not fit
// some rank's free memory (with 2 GiB left for cuBLASLt, cuDNN and NCCL): an allocation failing
// later, on one rank, would leave the others waiting in a collective.
void check_memory(const collectives::Communicator& world, const Shape& shape) {
  constexpr std::size_t kHeadroom = std::size_t(2) << 30;
  std::size_t free = 0, total = 0;
  PERFGATE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  const std::size_t need = gpu::model_buffer_bytes(shape) + kHeadroom;
  const std::size_t short_ranks = world.sum(need > free ? 1 : 0);
  if (short_ranks == 0) return;
  throw ModelTooLarge(
      "--batch " + std::to_string(shape.batch) + ": the model needs about " + gib(double(need)) +
      " per GPU (" + std::to_string(shape.layers) + " layers' " + "activations of " +
      std::to_string(shape.tokens()) + " tokens, weights, " +
      "gradients, 2 GiB of workspace), more than is free on " + std::to_string(short_ranks) +
      " of " + std::to_string(world.size()) + " ranks (rank " + std::to_string(world.rank()) +
      ": " + gib(double(free)) + " free); lower --batch, --seq or --layers");
}

std::string describe_device(int device) {
  cudaDeviceProp props{};
  PERFGATE_CUDA_CHECK(cudaGetDeviceProperties(&props, device));
  return std::string(props.name) + " (sm_" + std::to_string(props.major) +
         std::to_string(props.minor) + ")";
}

struct Stream {
  cudaStream_t s = nullptr;
  Stream() { PERFGATE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
};

gpu::AttentionBackward attention_backward_from_environment() {
  const char* value = std::getenv("PERFGATE_PROXY_ATTENTION");
  const std::string v = value == nullptr ? "" : value;
  if (v.empty() || v == "auto") return gpu::AttentionBackward::automatic;
  if (v == "cudnn") return gpu::AttentionBackward::cudnn;
  if (v == "unfused") return gpu::AttentionBackward::unfused;
  throw InputError("PERFGATE_PROXY_ATTENTION: '" + v + "' is not auto, cudnn or unfused");
}

}  // namespace

void validate_cuda_shape(const Shape& s) {
  if (s.hidden % 8 != 0)
    throw InputError("--hidden: the cuda backend needs a multiple of 8 (16-byte bf16 rows)");
  if (s.head_dim() % 8 != 0 || s.head_dim() > 128)
    throw InputError("--heads: the cuda backend needs hidden/heads (" +
                     std::to_string(s.head_dim()) +
                     ") a multiple of 8 and at most 128 (cuDNN SDPA)");
  attention_backward_from_environment();  // refused here, before MPI, rather than on every rank
}

CudaProxyResult run_cuda_proxy(const CudaProxyConfig& config, int rank, int size) {
  validate_cuda_shape(config.shape);  // same options on every rank: all throw alike, none waits
  const gpu::AttentionBackward attention = attention_backward_from_environment();
  const collectives::Communicator world;
  const int device = select_device(world);
  check_memory(world, config.shape);
  CudaProxyResult result;
  result.device = describe_device(device);
  result.nccl_version = gpu::NcclComm::version();

  // The watchdog covers NCCL's bootstrap (a rank that never arrives) and every step; on expiry it
  // aborts the communicator, once there is one, so no GPU stays blocked in a collective.
  const std::string where =
      "rank " + std::to_string(rank) + " (" + world.host() + ", " + result.device + ")";
  std::atomic<gpu::NcclComm*> to_abort{nullptr};
  std::atomic<const char*> phase{"NCCL bootstrap (ncclCommInitRank)"};
  collectives::Watchdog watchdog(config.timeout_s, [&] {
    if (gpu::NcclComm* c = to_abort.load()) c->abort();
    if (config.on_timeout) config.on_timeout(std::string(phase.load()) + " on " + where);
  });
  const Stream compute;
  std::optional<collectives::ArmedWatch> bootstrap(std::in_place, watchdog);
  gpu::NcclComm nccl(world.comm(), rank, size);
  bootstrap.reset();
  to_abort = &nccl;
  gpu::GpuTransformer model(config.shape, compute.s, attention);
  result.attention_backward = model.attention_backward_path();
  gpu::GpuStep step(model, nccl, config.shape, config.step, compute.s);
  auto watched_step = [&](GradientSums* sums) {
    const collectives::ArmedWatch armed(watchdog);
    return step.run(sums);
  };

  try {
    phase = "the model check's forward and backward";
    result.model_check = gpu::check_model(world, model, config.shape, watchdog);
    phase = "the exact pass's all-reduces";
    ExactPassResult exact;  // the bucketed all-reduce sums a known pattern exactly
    {
      const collectives::ArmedWatch armed(watchdog);
      exact = judge_exact_pass(world.comm(), step.buckets(), step.exact_pass(rank, size));
    }
    phase = "a training step";
    for (int i = 0; i < config.warmup; ++i) watched_step(nullptr);
    GradientSums sums;  // one untimed step proves the all-reduce summed every bucket
    watched_step(&sums);
    result.gradient_check =
        check_gradient_sums(world.comm(), step.buckets(), sums, kBf16UnitRoundoff);
    result.gradient_check.exact = exact;
    for (int rep = 0; rep < config.repetitions; ++rep) {
      StepTimes sum;
      for (int i = 0; i < config.iters; ++i) sum += watched_step(nullptr);
      const double n = config.iters;
      result.per_repetition.push_back(
          {sum.step_us / n, sum.compute_us / n, sum.comm_us / n, sum.exposed_us / n});
    }
  } catch (...) {
    // Before the model's buffers are freed: cudaFree synchronises the device, which an
    // all-reduce still waiting for a failed peer would never let finish.
    nccl.abort();
    throw;
  }
  result.ceiling_flops_per_s = gpu::measure_gemm_ceiling_flops(compute.s);
  return result;
}

}  // namespace perfgate::step_proxy
