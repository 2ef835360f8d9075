#include "shared_memory.hpp"

#include <cuda_runtime.h>

#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "perfgate/cuda/check.hpp"

namespace perfgate::cuda {

void reserve_shared_memory(const void* kernel, int bytes, const char* kernel_name) {
  // Setting the attribute on every launch would put a driver call inside each timed batch.
  static std::mutex mutex;
  static std::set<std::pair<const void*, int>> reserved;  // (kernel, device)
  int device = 0;
  PERFGATE_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard lock(mutex);
  if (reserved.count({kernel, device}) != 0) return;
  int allowed = 0;
  PERFGATE_CUDA_CHECK(
      cudaDeviceGetAttribute(&allowed, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  if (bytes > allowed)
    throw Unsupported(std::string(kernel_name) + " needs " + std::to_string(bytes) +
                      " bytes of shared memory per block; this GPU allows " +
                      std::to_string(allowed));
  PERFGATE_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  reserved.insert({kernel, device});
}

}  // namespace perfgate::cuda
