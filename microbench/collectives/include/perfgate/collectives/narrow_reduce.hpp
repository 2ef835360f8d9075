#pragma once
// The reduction of the MPI backend's user-defined ops (MPI has no bf16, fp16 or fp8).
#include <cstddef>

#include "perfgate/collectives/datatype.hpp"
#include "perfgate/collectives/reduce_op.hpp"

namespace perfgate::collectives {

// inout[i] = encode(combine(op, decode(in[i]), decode(inout[i]))) over `count` encoded
// elements of type t, bit for bit what encode, combine and decode give one element at a time,
// with the type and the op fixed outside the loop. Either pointer may be unaligned.
void reduce_encoded(DataType t, ReduceOp op, const std::byte* in, std::byte* inout,
                    std::size_t count);

}  // namespace perfgate::collectives
