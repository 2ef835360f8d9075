#pragma once
// Reduction operators of the reducing collectives.
#include <algorithm>
#include <string_view>
#include <vector>

namespace perfgate::collectives {

// mulsum: nccl-tests' name for NCCL's premultiplied sum (ncclRedOpCreatePreMulSum): each rank's
// input times a scalar of its own (data_pattern.hpp: premul_scalar), then summed.
enum class ReduceOp { sum, prod, max, min, avg, mulsum };

std::string_view op_name(ReduceOp op);  // nccl-tests spelling: sum, prod, max, min, avg, mulsum
ReduceOp reduce_op_from_string(std::string_view s);  // throws InputError
const std::vector<ReduceOp>& all_reduce_ops();

// Combines two partial values (avg and mulsum combine like sum; avg's division happens once at
// the end, mulsum's multiplications before).
// Inline: the MPI backend's narrow-type reductions call it per element with a constant op.
constexpr double combine(ReduceOp op, double a, double b) {
  switch (op) {
    case ReduceOp::prod:
      return a * b;
    case ReduceOp::max:
      return std::max(a, b);
    case ReduceOp::min:
      return std::min(a, b);
    case ReduceOp::sum:
    case ReduceOp::avg:
    case ReduceOp::mulsum:
      return a + b;
  }
  return a + b;
}

}  // namespace perfgate::collectives
