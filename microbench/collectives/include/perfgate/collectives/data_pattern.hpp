#pragma once
// Predictable inputs and the outputs they must produce, so every rank can count wrong elements
// of its own output without moving data (the nccl-tests data check, on the host).
#include <cstddef>
#include <span>

#include "perfgate/collectives/collective.hpp"
#include "perfgate/collectives/datatype.hpp"
#include "perfgate/collectives/reduce_op.hpp"

namespace perfgate::collectives {

struct CaseShape {
  Collective collective = Collective::all_reduce;
  DataType dtype = DataType::f32;
  ReduceOp op = ReduceOp::sum;
  int root = 0;
  int ranks = 1;
  std::size_t count = 0;  // the table count
};

// Element `index` of the send buffer of `rank`: small integers chosen so that every expected
// value is exact in every datatype, fp8 included, whatever the number of ranks.
double input_value(const CaseShape& shape, int rank, std::size_t index);
// Element `index` of the receive buffer of `rank` after the collective.
double expected_value(const CaseShape& shape, int rank, std::size_t index);
// True when `rank` has an output to check (reduce: only the root).
bool has_output(const CaseShape& shape, int rank);
// Elements of `output` (the receive buffer of `rank`) not equal to the expected value; an
// average over a rank count that is not a power of two may differ by its rounding (2 × the
// datatype's epsilon, relative).
std::size_t count_wrong(const CaseShape& shape, int rank, std::span<const double> output);

}  // namespace perfgate::collectives
