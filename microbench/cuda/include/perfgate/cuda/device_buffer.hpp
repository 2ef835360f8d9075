#pragma once
// Owning device allocation (plain cudaMalloc: managed memory can hang a GPU when oversubscribed).
// Its transfers and fills are finished when they return: they run on the legacy default stream,
// which the non-blocking streams every kernel here runs on do not wait for (and a pageable
// host-to-device copy may return before its data has reached the device).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "perfgate/cuda/check.hpp"

namespace perfgate::cuda {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ != 0)
      PERFGATE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count_ * sizeof(T)));
  }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() {
    if (data_ != nullptr) cudaFree(data_);
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void upload(const std::vector<T>& host) {
    PERFGATE_CUDA_CHECK(
        cudaMemcpy(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    finish();
  }
  // Every byte set to `byte` (0xFF is NaN in every floating-point storage type).
  void fill(unsigned char byte) {
    PERFGATE_CUDA_CHECK(cudaMemset(data_, byte, bytes()));
    finish();
  }
  void copy_from(const DeviceBuffer& other) {
    PERFGATE_CUDA_CHECK(
        cudaMemcpy(data_, other.data_, std::min(bytes(), other.bytes()), cudaMemcpyDeviceToDevice));
    finish();
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    PERFGATE_CUDA_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  static void finish() { PERFGATE_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy)); }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace perfgate::cuda
