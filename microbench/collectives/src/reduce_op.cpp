#include "perfgate/collectives/reduce_op.hpp"

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate::collectives {

std::string_view op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      return "sum";
    case ReduceOp::prod:
      return "prod";
    case ReduceOp::max:
      return "max";
    case ReduceOp::min:
      return "min";
    case ReduceOp::avg:
      return "avg";
    case ReduceOp::mulsum:
      return "mulsum";
  }
  return "sum";
}

const std::vector<ReduceOp>& all_reduce_ops() {
  static const std::vector<ReduceOp> all{ReduceOp::sum, ReduceOp::prod, ReduceOp::max,
                                         ReduceOp::min, ReduceOp::avg,  ReduceOp::mulsum};
  return all;
}

ReduceOp reduce_op_from_string(std::string_view s) {
  for (ReduceOp op : all_reduce_ops()) {
    if (s == op_name(op)) return op;
  }
  throw InputError(
      fmt::format("--op: unknown reduction op '{}' (sum, prod, max, min, avg, mulsum)", s));
}

}  // namespace perfgate::collectives
