#pragma once
// Every CUDA, cuBLAS(Lt) and cuDNN call goes through these checks; a failure throws
// perfgate::ToolError naming the call, the file and line, and the library's own message.
#include <string>

#include "perfgate/core/error.hpp"

namespace perfgate::cuda {

// This GPU or this library version cannot run the case at all (reported as skipped, not failed).
class Unsupported : public ToolError {
 public:
  using ToolError::ToolError;
};

[[noreturn]] void throw_cuda_error(int code, const char* call, const char* file, int line);
[[noreturn]] void throw_cublas_error(int code, const char* call, const char* file, int line);
[[noreturn]] void throw_cudnn_error(int code, const char* call, const char* file, int line);

// After a kernel launch: the launch error (bad configuration) and, with sync, the kernel's.
void check_last_launch(const char* kernel, const char* file, int line);

}  // namespace perfgate::cuda

#define PERFGATE_CUDA_CHECK(call)                                                           \
  do {                                                                                      \
    const auto perfgate_status_ = (call);                                                   \
    if (perfgate_status_ != 0)                                                              \
      ::perfgate::cuda::throw_cuda_error(int(perfgate_status_), #call, __FILE__, __LINE__); \
  } while (0)

#define PERFGATE_CUBLAS_CHECK(call)                                                           \
  do {                                                                                        \
    const auto perfgate_status_ = (call);                                                     \
    if (perfgate_status_ != 0)                                                                \
      ::perfgate::cuda::throw_cublas_error(int(perfgate_status_), #call, __FILE__, __LINE__); \
  } while (0)

#define PERFGATE_CUDNN_CHECK(call)                                                           \
  do {                                                                                       \
    const auto perfgate_status_ = (call);                                                    \
    if (perfgate_status_ != 0)                                                               \
      ::perfgate::cuda::throw_cudnn_error(int(perfgate_status_), #call, __FILE__, __LINE__); \
  } while (0)

// Use right after every <<<...>>> launch.
#define PERFGATE_CHECK_LAUNCH(kernel) \
  ::perfgate::cuda::check_last_launch(kernel, __FILE__, __LINE__)
