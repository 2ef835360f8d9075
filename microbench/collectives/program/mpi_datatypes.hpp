#pragma once
// MPI handles for perfgate's datatypes and reduction ops. MPI has no bf16/fp16/fp8: those are
// opaque contiguous bytes with user-defined reductions that decode, combine and re-encode
// (an emulation: correct numbers at host speed, narrow_reduce.hpp).
#include <mpi.h>

#include "perfgate/collectives/datatype.hpp"
#include "perfgate/collectives/reduce_op.hpp"

namespace perfgate::collectives {

MPI_Datatype mpi_datatype(DataType t);
// avg maps to sum; the backend divides by the rank count afterwards.
MPI_Op mpi_op(DataType t, ReduceOp op);
void free_mpi_handles();  // before MPI_Finalize

}  // namespace perfgate::collectives
