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

// Element `index` of the send buffer of `rank` (small integers: exact in every datatype).
double input_value(const CaseShape& shape, int rank, std::size_t index);
// Element `index` of the receive buffer of `rank` after the collective.
double expected_value(const CaseShape& shape, int rank, std::size_t index);
// True when `rank` has an output to check (reduce: only the root).
bool has_output(const CaseShape& shape, int rank);
// Elements of `output` (the receive buffer of `rank`) farther from the expected value than the
// datatype's rounding allows (epsilon × ranks, relative).
std::size_t count_wrong(const CaseShape& shape, int rank, std::span<const double> output);

}  // namespace perfgate::collectives
