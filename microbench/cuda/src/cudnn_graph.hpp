#pragma once
// A cuDNN backend operation graph under construction: it owns its descriptors, makes the
// tensors and the pointwise, matmul and reduction operations of the graph API, finalizes the
// first engine configuration the heuristics offer that builds, and executes that plan with a
// variant pack of unique ids -> device (or, for by-value scalars, host) pointers. Describing
// tensors and operations needs no GPU (cuDNN checks each as it is finalized); the cuDNN handle
// is created when the plan is built.
#include <cuda_runtime.h>
#include <cudnn.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "perfgate/cuda/device_buffer.hpp"

namespace perfgate::cuda::cudnn_graph {

struct TensorSpec {
  std::int64_t uid;
  cudnnDataType_t type;
  std::vector<std::int64_t> dims, strides;
  bool is_virtual = false;  // an intermediate the fused engine keeps on chip
  bool by_value = false;    // a scalar passed from the host in the variant pack
  // Packed variable-length rows: a [B+1] tensor of element offsets where each batch entry starts
  // (the batch stride is then unused).
  cudnnBackendDescriptor_t ragged_offset = nullptr;
};

// A matmul's problem size narrowed per batch entry: [B, 1, 1, 1] int32 tensors that replace M,
// N or K (the padded sequence lengths of a packed batch); null ones are not set.
struct MatmulOverrides {
  cudnnBackendDescriptor_t m = nullptr, n = nullptr, k = nullptr;
};

class Graph {
 public:
  Graph();
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  cudnnBackendDescriptor_t create(cudnnBackendDescriptorType_t type);
  static void set(cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t name,
                  cudnnBackendAttributeType_t type, std::int64_t count, const void* value);
  static void link(cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t name,
                   cudnnBackendDescriptor_t value);

  // A tensor; each uid names one tensor of the graph (ToolError on a second one, which cuDNN's
  // frontend refuses too).
  cudnnBackendDescriptor_t tensor(const TensorSpec& spec);
  // The uids of the graph's non-virtual tensors, in the order declared: every one needs an
  // address in the variant pack.
  const std::vector<std::int64_t>& stored_uids() const { return stored_uids_; }
  // y = mode(x[, b[, t]]); `axis` only for GEN_INDEX.
  cudnnBackendDescriptor_t pointwise(cudnnPointwiseMode_t mode, cudnnDataType_t math,
                                     cudnnBackendDescriptor_t x, cudnnBackendDescriptor_t b,
                                     cudnnBackendDescriptor_t t, cudnnBackendDescriptor_t y,
                                     std::int64_t axis = -1);
  cudnnBackendDescriptor_t matmul(cudnnBackendDescriptor_t a, cudnnBackendDescriptor_t b,
                                  cudnnBackendDescriptor_t c, const MatmulOverrides& sizes = {});
  cudnnBackendDescriptor_t reduction(cudnnReduceTensorOp_t op, cudnnBackendDescriptor_t x,
                                     cudnnBackendDescriptor_t y);

  // An operation descriptor of `type` with its descriptor-valued attributes (null ones skipped),
  // finalized.
  using Link = std::pair<cudnnBackendAttributeName_t, cudnnBackendDescriptor_t>;
  cudnnBackendDescriptor_t operation(cudnnBackendDescriptorType_t type,
                                     std::initializer_list<Link> links);

  // The graph of `operations` -> the first engine configuration whose plan finalizes. Returns
  // false, with cuDNN's reason in *why, when the graph or every configuration is refused.
  bool build_plan(const std::vector<cudnnBackendDescriptor_t>& operations, std::string* why);
  // Runs the plan; `uids` must cover stored_uids() (the caller checks that once, not per run).
  void execute(const std::vector<std::int64_t>& uids, const std::vector<void*>& pointers,
               cudaStream_t s);

 private:
  cudnnHandle_t handle_ = nullptr;
  std::vector<cudnnBackendDescriptor_t> owned_;
  std::vector<std::int64_t> uids_, stored_uids_;
  cudnnBackendDescriptor_t plan_ = nullptr;
  DeviceBuffer<unsigned char> workspace_;
};

}  // namespace perfgate::cuda::cudnn_graph
