#include "model_check.hpp"

#include <mpi.h>

#include <cstdio>

#include "host_reference.hpp"

namespace perfgate::step_proxy::gpu {

ModelCheckResult check_model(const collectives::Communicator& world, GpuTransformer& model,
                             const Shape& s) {
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
  model.forward();
  model.backward([](int) {});  // local gradients: nothing is all-reduced
  const std::vector<double> gpu = model.host_gradients();
  const GradientComparison c =
      compare_gradients(s, gpu, reference_gradients(s, model.host_inputs(), true));
  double worst = c.worst_error;  // +inf for a NaN; MPI's MAX keeps it
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, world.comm());
  if (!(worst <= kModelCheckBound)) {
    char text[320];
    std::snprintf(text, sizeof text,
                  "model check: the GPU's %s gradient differs from the host recomputation by "
                  "%.3g %% of its largest value on rank %d (bound %.3g %%; worst over ranks "
                  "%.3g %%): the GPU step does not compute the network's gradients",
                  c.worst_matrix.c_str(), 100 * c.worst_error, world.rank(), 100 * kModelCheckBound,
                  100 * worst);
    throw GradientCheckFailed(text);
  }
  result.made = true;
  result.worst_error = worst;
  result.matrix = c.worst_matrix;
  return result;
}

}  // namespace perfgate::step_proxy::gpu
