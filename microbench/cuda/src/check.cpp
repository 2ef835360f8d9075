#include "perfgate/cuda/check.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

namespace perfgate::cuda {
namespace {

[[noreturn]] void fail(const char* library, int code, const std::string& what, const char* call,
                       const char* file, int line) {
  throw ToolError(std::string(library) + " error " + std::to_string(code) + " (" + what + ") in " +
                  call + " at " + file + ":" + std::to_string(line));
}

}  // namespace

void throw_cuda_error(int code, const char* call, const char* file, int line) {
  fail("CUDA", code, cudaGetErrorString(static_cast<cudaError_t>(code)), call, file, line);
}

void throw_cublas_error(int code, const char* call, const char* file, int line) {
  fail("cuBLAS", code, cublasGetStatusString(static_cast<cublasStatus_t>(code)), call, file, line);
}

void throw_cudnn_error(int code, const char* call, const char* file, int line) {
  fail("cuDNN", code, cudnnGetErrorString(static_cast<cudnnStatus_t>(code)), call, file, line);
}

void check_last_launch(const char* kernel, const char* file, int line) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) throw_cuda_error(int(status), kernel, file, line);
}

}  // namespace perfgate::cuda
