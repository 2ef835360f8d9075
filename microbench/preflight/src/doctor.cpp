#include "perfgate/preflight/doctor.hpp"

namespace perfgate::preflight {

std::vector<Finding> run_doctor(const DoctorOptions& options) {
  std::vector<Finding> all;
  const auto add = [&all](std::vector<Finding> more) {
    all.insert(all.end(), std::make_move_iterator(more.begin()),
               std::make_move_iterator(more.end()));
  };
  add(check_gpu(options.nvidia_smi, options.cuda_visible_devices));
  add(check_cpu_governor(options.sysroot));
  add(check_load(options.sysroot, options.cpu_count));
  add(check_build(options.build));
  if (options.store)
    add(check_store_location(*options.store, options.warn_free_bytes, options.error_free_bytes));
  return all;
}

}  // namespace perfgate::preflight
