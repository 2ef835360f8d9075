#pragma once
// The CUDA step proxy's model check: one forward and backward without communication, the GPU's
// weight gradients compared matrix by matrix with the network recomputed on the host in double
// (host_reference.hpp), for shapes the host recomputes in a second or two. It catches
// what the gradient check cannot: a step whose all-reduce sums the wrong gradients correctly.
#include "../gradient_check.hpp"
#include "gpu_transformer.hpp"
#include "perfgate/collectives/communicator.hpp"
#include "perfgate/collectives/watchdog.hpp"

namespace perfgate::step_proxy::gpu {

// Storage in bf16 at every step the GPU stores, emulated on the host, leaves accumulation order
// and cuDNN's internal precision: a few bf16 steps (2^-8 each); a wrong transpose, offset or
// missing term is of the order of the gradient itself.
inline constexpr double kModelCheckBound = 0x1p-4;
// Model FLOPs per step above which the host recomputation is skipped (the check is not made).
inline constexpr double kModelCheckMaxFlops = 2e9;

// Collective over `world`: every rank checks its own GPU; all throw GradientCheckFailed together,
// naming the rank, matrix and error of the worst one, when it passes the bound. `watchdog` is
// armed while the GPU computes, not while the host recomputes.
ModelCheckResult check_model(const collectives::Communicator& world, GpuTransformer& model,
                             const Shape& s, collectives::Watchdog& watchdog);

}  // namespace perfgate::step_proxy::gpu
