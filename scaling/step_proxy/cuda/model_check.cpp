#include "model_check.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstring>

#include "host_reference.hpp"

namespace perfgate::step_proxy::gpu {
namespace {

// The worst rank's error and matrix, on every rank.
struct WorstRank {
  double error;
  int rank;
  std::string matrix;
};

WorstRank worst_over_ranks(const collectives::Communicator& world, const GradientComparison& c) {
  struct {
    double error;
    int rank;
  } mine{c.worst_error, world.rank()}, worst{};  // +inf for a NaN: MAXLOC still orders it
  MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE_INT, MPI_MAXLOC, world.comm());
  char matrix[64] = {};
  std::strncpy(matrix, c.worst_matrix.c_str(), sizeof matrix - 1);
  MPI_Bcast(matrix, sizeof matrix, MPI_CHAR, worst.rank, world.comm());
  return {worst.error, worst.rank, matrix};
}

}  // namespace

ModelCheckResult check_model(const collectives::Communicator& world, GpuTransformer& model,
                             const Shape& s, collectives::Watchdog& watchdog) {
  ModelCheckResult result;
  result.bound = kModelCheckBound;
  if (s.flops_per_step() > kModelCheckMaxFlops) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "the host recomputation of %.3g model FLOPs per step would take too long "
                  "(the check runs up to %.3g)",
                  s.flops_per_step(), kModelCheckMaxFlops);
    result.reason = text;
    return result;
  }
  std::vector<double> gpu;
  {
    const collectives::ArmedWatch armed(watchdog);
    model.forward();
    model.backward([](int) {});  // local gradients: nothing is all-reduced
    gpu = model.host_gradients();
  }
  const WorstRank worst = worst_over_ranks(
      world, compare_gradients(s, gpu, reference_gradients(s, model.host_inputs(), true)));
  if (!(worst.error <= kModelCheckBound)) {
    char text[320];
    std::snprintf(text, sizeof text,
                  "model check: on rank %d the GPU's %s gradient differs from the host "
                  "recomputation by %.3g %% of its largest value (bound %.3g %%): the GPU step "
                  "does not compute the network's gradients",
                  worst.rank, worst.matrix.c_str(), 100 * worst.error, 100 * kModelCheckBound);
    throw GradientCheckFailed(text);
  }
  result.made = true;
  result.worst_error = worst.error;
  result.matrix = "rank " + std::to_string(worst.rank) + " " + worst.matrix;
  return result;
}

}  // namespace perfgate::step_proxy::gpu
