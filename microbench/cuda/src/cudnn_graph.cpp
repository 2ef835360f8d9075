#include "cudnn_graph.hpp"

#include <algorithm>

#include "perfgate/cuda/check.hpp"

namespace perfgate::cuda::cudnn_graph {

Graph::Graph() = default;

Graph::~Graph() {
  for (auto it = owned_.rbegin(); it != owned_.rend(); ++it) cudnnBackendDestroyDescriptor(*it);
  if (handle_ != nullptr) cudnnDestroy(handle_);
}

cudnnBackendDescriptor_t Graph::create(cudnnBackendDescriptorType_t type) {
  cudnnBackendDescriptor_t d = nullptr;
  PERFGATE_CUDNN_CHECK(cudnnBackendCreateDescriptor(type, &d));
  owned_.push_back(d);
  return d;
}

void Graph::set(cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t name,
                cudnnBackendAttributeType_t type, std::int64_t count, const void* value) {
  PERFGATE_CUDNN_CHECK(cudnnBackendSetAttribute(d, name, type, count, value));
}

void Graph::link(cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t name,
                 cudnnBackendDescriptor_t value) {
  set(d, name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &value);
}

cudnnBackendDescriptor_t Graph::tensor(const TensorSpec& spec) {
  if (std::find(uids_.begin(), uids_.end(), spec.uid) != uids_.end())
    throw ToolError("cuDNN graph: tensor uid " + std::to_string(spec.uid) + " declared twice");
  cudnnBackendDescriptor_t d = create(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
  const std::int64_t alignment = 16;
  set(d, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &spec.uid);
  set(d, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &spec.type);
  set(d, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, std::int64_t(spec.dims.size()),
      spec.dims.data());
  set(d, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, std::int64_t(spec.strides.size()),
      spec.strides.data());
  set(d, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &alignment);
  set(d, CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &spec.is_virtual);
  set(d, CUDNN_ATTR_TENSOR_IS_BY_VALUE, CUDNN_TYPE_BOOLEAN, 1, &spec.by_value);
  if (spec.ragged_offset != nullptr)
    link(d, CUDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC, spec.ragged_offset);
  PERFGATE_CUDNN_CHECK(cudnnBackendFinalize(d));
  uids_.push_back(spec.uid);
  if (!spec.is_virtual) stored_uids_.push_back(spec.uid);
  return d;
}

cudnnBackendDescriptor_t Graph::operation(cudnnBackendDescriptorType_t type,
                                          std::initializer_list<Link> links) {
  cudnnBackendDescriptor_t op = create(type);
  for (const auto& [name, value] : links)
    if (value != nullptr) link(op, name, value);
  PERFGATE_CUDNN_CHECK(cudnnBackendFinalize(op));
  return op;
}

cudnnBackendDescriptor_t Graph::pointwise(cudnnPointwiseMode_t mode, cudnnDataType_t math,
                                          cudnnBackendDescriptor_t x, cudnnBackendDescriptor_t b,
                                          cudnnBackendDescriptor_t t, cudnnBackendDescriptor_t y,
                                          std::int64_t axis) {
  cudnnBackendDescriptor_t desc = create(CUDNN_BACKEND_POINTWISE_DESCRIPTOR);
  set(desc, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode);
  set(desc, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &math);
  if (axis >= 0) set(desc, CUDNN_ATTR_POINTWISE_AXIS, CUDNN_TYPE_INT64, 1, &axis);
  PERFGATE_CUDNN_CHECK(cudnnBackendFinalize(desc));
  // b and t are optional (unary and binary modes): a null one is not linked.
  return operation(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR,
                   {{CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, desc},
                    {CUDNN_ATTR_OPERATION_POINTWISE_XDESC, x},
                    {CUDNN_ATTR_OPERATION_POINTWISE_BDESC, b},
                    {CUDNN_ATTR_OPERATION_POINTWISE_TDESC, t},
                    {CUDNN_ATTR_OPERATION_POINTWISE_YDESC, y}});
}

cudnnBackendDescriptor_t Graph::matmul(cudnnBackendDescriptor_t a, cudnnBackendDescriptor_t b,
                                       cudnnBackendDescriptor_t c, const MatmulOverrides& sizes) {
  cudnnBackendDescriptor_t desc = create(CUDNN_BACKEND_MATMUL_DESCRIPTOR);
  const cudnnDataType_t compute = CUDNN_DATA_FLOAT;
  set(desc, CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &compute);
  PERFGATE_CUDNN_CHECK(cudnnBackendFinalize(desc));
  return operation(CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR,
                   {{CUDNN_ATTR_OPERATION_MATMUL_ADESC, a},
                    {CUDNN_ATTR_OPERATION_MATMUL_BDESC, b},
                    {CUDNN_ATTR_OPERATION_MATMUL_CDESC, c},
                    {CUDNN_ATTR_OPERATION_MATMUL_DESC, desc},
                    {CUDNN_ATTR_OPERATION_MATMUL_GEMM_M_OVERRIDE_DESC, sizes.m},
                    {CUDNN_ATTR_OPERATION_MATMUL_GEMM_N_OVERRIDE_DESC, sizes.n},
                    {CUDNN_ATTR_OPERATION_MATMUL_GEMM_K_OVERRIDE_DESC, sizes.k}});
}

cudnnBackendDescriptor_t Graph::reduction(cudnnReduceTensorOp_t reduce, cudnnBackendDescriptor_t x,
                                          cudnnBackendDescriptor_t y) {
  cudnnBackendDescriptor_t desc = create(CUDNN_BACKEND_REDUCTION_DESCRIPTOR);
  const cudnnDataType_t compute = CUDNN_DATA_FLOAT;
  set(desc, CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1, &reduce);
  set(desc, CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &compute);
  PERFGATE_CUDNN_CHECK(cudnnBackendFinalize(desc));
  return operation(CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR,
                   {{CUDNN_ATTR_OPERATION_REDUCTION_XDESC, x},
                    {CUDNN_ATTR_OPERATION_REDUCTION_YDESC, y},
                    {CUDNN_ATTR_OPERATION_REDUCTION_DESC, desc}});
}

bool Graph::build_plan(const std::vector<cudnnBackendDescriptor_t>& operations, std::string* why) {
  auto refused = [&](const char* stage, cudnnStatus_t st) {
    if (why) *why = std::string(stage) + ": " + cudnnGetErrorString(st);
    return false;
  };
  if (handle_ == nullptr) PERFGATE_CUDNN_CHECK(cudnnCreate(&handle_));  // needs a GPU
  cudnnBackendDescriptor_t graph = create(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
  set(graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR,
      std::int64_t(operations.size()), operations.data());
  set(graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle_);
  if (const cudnnStatus_t st = cudnnBackendFinalize(graph); st != CUDNN_STATUS_SUCCESS)
    return refused("operation graph", st);
  cudnnBackendDescriptor_t heuristics = create(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
  const cudnnBackendHeurMode_t mode = CUDNN_HEUR_MODE_A;
  link(heuristics, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph);
  set(heuristics, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode);
  if (const cudnnStatus_t st = cudnnBackendFinalize(heuristics); st != CUDNN_STATUS_SUCCESS)
    return refused("heuristics", st);
  std::int64_t count = 0;
  PERFGATE_CUDNN_CHECK(cudnnBackendGetAttribute(heuristics, CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                                CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr));
  std::vector<cudnnBackendDescriptor_t> configs(static_cast<std::size_t>(count));
  for (auto& c : configs) c = create(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
  PERFGATE_CUDNN_CHECK(cudnnBackendGetAttribute(heuristics, CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                                CUDNN_TYPE_BACKEND_DESCRIPTOR, count, &count,
                                                configs.data()));
  cudnnStatus_t last = CUDNN_STATUS_NOT_SUPPORTED;
  for (std::int64_t i = 0; i < count && plan_ == nullptr; ++i) {
    cudnnBackendDescriptor_t candidate = create(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    link(candidate, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, configs[std::size_t(i)]);
    set(candidate, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle_);
    last = cudnnBackendFinalize(candidate);
    if (last == CUDNN_STATUS_SUCCESS) plan_ = candidate;
  }
  if (plan_ == nullptr)
    return refused(("none of " + std::to_string(count) + " engine configurations").c_str(), last);
  std::int64_t bytes = 0;
  PERFGATE_CUDNN_CHECK(cudnnBackendGetAttribute(plan_, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
                                                CUDNN_TYPE_INT64, 1, nullptr, &bytes));
  workspace_ = DeviceBuffer<unsigned char>(std::size_t(std::max<std::int64_t>(bytes, 16)));
  return true;
}

void Graph::execute(const std::vector<std::int64_t>& uids, const std::vector<void*>& pointers,
                    cudaStream_t s) {
  if (plan_ == nullptr) throw ToolError("cuDNN graph: execute before a plan was built");
  PERFGATE_CUDNN_CHECK(cudnnSetStream(handle_, s));
  cudnnBackendDescriptor_t pack = nullptr;
  PERFGATE_CUDNN_CHECK(cudnnBackendCreateDescriptor(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack));
  try {
    void* ws = workspace_.get();
    set(pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, std::int64_t(uids.size()),
        uids.data());
    set(pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR,
        std::int64_t(pointers.size()), pointers.data());
    set(pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &ws);
    PERFGATE_CUDNN_CHECK(cudnnBackendFinalize(pack));
    PERFGATE_CUDNN_CHECK(cudnnBackendExecute(handle_, plan_, pack));
  } catch (...) {
    cudnnBackendDestroyDescriptor(pack);
    throw;
  }
  cudnnBackendDestroyDescriptor(pack);
}

}  // namespace perfgate::cuda::cudnn_graph
