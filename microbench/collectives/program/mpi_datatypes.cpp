#include "mpi_datatypes.hpp"

#include <array>
#include <cstddef>

#include "perfgate/collectives/narrow_reduce.hpp"

namespace perfgate::collectives {
namespace {

constexpr std::size_t kTypes = 5, kOps = 6;
std::array<MPI_Datatype, kTypes> g_types = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL,
                                            MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};
std::array<MPI_Op, kOps> g_ops{};  // one set for every narrow type: the function reads the type
bool g_ops_created = false;

DataType datatype_of(MPI_Datatype handle) {
  for (std::size_t i = 0; i < kTypes; ++i) {
    if (g_types[i] == handle) return static_cast<DataType>(i);
  }
  return DataType::f32;
}

template <ReduceOp Op>
void reduce_narrow(void* in, void* inout, int* len, MPI_Datatype* handle) {
  reduce_encoded(datatype_of(*handle), Op, static_cast<const std::byte*>(in),
                 static_cast<std::byte*>(inout), static_cast<std::size_t>(*len));
}

MPI_Op builtin(ReduceOp op) {
  switch (op) {
    case ReduceOp::prod:
      return MPI_PROD;
    case ReduceOp::max:
      return MPI_MAX;
    case ReduceOp::min:
      return MPI_MIN;
    case ReduceOp::sum:
    case ReduceOp::avg:
    case ReduceOp::mulsum:
      return MPI_SUM;
  }
  return MPI_SUM;
}

}  // namespace

namespace {

// MPI's own types, reduced by MPI's own operators (MPI_DATATYPE_NULL for the narrow floats).
MPI_Datatype native_type(DataType t) {
  switch (t) {
    case DataType::f32:
      return MPI_FLOAT;
    case DataType::f64:
      return MPI_DOUBLE;
    case DataType::i8:
      return MPI_INT8_T;
    case DataType::u8:
      return MPI_UINT8_T;
    case DataType::i32:
      return MPI_INT32_T;
    case DataType::u32:
      return MPI_UINT32_T;
    case DataType::i64:
      return MPI_INT64_T;
    case DataType::u64:
      return MPI_UINT64_T;
    default:
      return MPI_DATATYPE_NULL;
  }
}

}  // namespace

MPI_Datatype mpi_datatype(DataType t) {
  if (!is_narrow_float(t)) return native_type(t);
  MPI_Datatype& handle = g_types[static_cast<std::size_t>(t)];
  if (handle == MPI_DATATYPE_NULL) {
    MPI_Type_contiguous(static_cast<int>(type_size(t)), MPI_BYTE, &handle);
    MPI_Type_commit(&handle);
  }
  return handle;
}

MPI_Op mpi_op(DataType t, ReduceOp op) {
  if (!is_narrow_float(t)) return builtin(op);
  if (!g_ops_created) {
    using Fn = MPI_User_function*;
    const std::array<Fn, kOps> functions = {
        reduce_narrow<ReduceOp::sum>, reduce_narrow<ReduceOp::prod>, reduce_narrow<ReduceOp::max>,
        reduce_narrow<ReduceOp::min>, reduce_narrow<ReduceOp::sum>,  reduce_narrow<ReduceOp::sum>};
    for (std::size_t o = 0; o < kOps; ++o) MPI_Op_create(functions[o], 1, &g_ops[o]);
    g_ops_created = true;
  }
  mpi_datatype(t);  // the user function recognises the type by its handle
  return g_ops[static_cast<std::size_t>(op)];
}

void free_mpi_handles() {
  for (MPI_Datatype& handle : g_types) {
    if (handle != MPI_DATATYPE_NULL) MPI_Type_free(&handle);
  }
  if (g_ops_created) {
    for (MPI_Op& op : g_ops) MPI_Op_free(&op);
    g_ops_created = false;
  }
}

}  // namespace perfgate::collectives
