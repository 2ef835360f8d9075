#include "gradient_check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace perfgate::step_proxy {
namespace {

double deviation(double expected, double reduced) {
  if (expected == 0) return reduced == 0 ? 0 : std::numeric_limits<double>::infinity();
  return std::fabs(reduced - expected) / expected;
}

std::vector<double> reduce_on_root(MPI_Comm comm, const std::vector<double>& mine, MPI_Op op) {
  std::vector<double> out(mine.size());
  MPI_Reduce(mine.data(), out.data(), static_cast<int>(mine.size()), MPI_DOUBLE, op, 0, comm);
  MPI_Bcast(out.data(), static_cast<int>(out.size()), MPI_DOUBLE, 0, comm);
  return out;
}

}  // namespace

double reduction_tolerance(int ranks, double unit_roundoff) {
  const double nu = std::max(0, ranks - 1) * unit_roundoff;
  if (nu >= 1) return std::numeric_limits<double>::infinity();
  return nu / (1 - nu) + 1e-9;  // the digests' own double sums add far less than 1e-9
}

GradientCheckResult judge_gradient_sums(const std::vector<Bucket>& plan, const BucketSums& sums,
                                        int ranks, double unit_roundoff) {
  GradientCheckResult result;
  result.ranks = ranks;
  result.buckets = plan.size();
  result.tolerance = reduction_tolerance(ranks, unit_roundoff);
  if (result.tolerance > kLargestTolerance) {
    result.made = false;
    result.reason = fmt::format(
        "a sum over {} ranks in this precision may round by more than half in the worst case",
        ranks);
    return result;
  }
  for (std::size_t b = 0; b < plan.size(); ++b) {
    const double expected = sums.expected[b];
    const double worst =
        std::max(deviation(expected, sums.lowest[b]), deviation(expected, sums.highest[b]));
    if (!(worst <= result.tolerance))  // NaN fails too
      throw GradientCheckFailed(fmt::format(
          "gradient check: bucket {} of {} (gradients {}..{}, all-reduced after layer {}): the "
          "ranks' all-reduced sum of |g| is {:.6g} to {:.6g}, but the {} ranks' local sums add up "
          "to {:.6g} (deviation {:.3g} %, tolerance {:.3g} %): the all-reduce did not sum this "
          "bucket across the ranks",
          b, plan.size(), plan[b].offset, plan[b].offset + plan[b].count - 1, plan[b].after_layer,
          sums.lowest[b], sums.highest[b], ranks, expected, 100 * worst, 100 * result.tolerance));
    result.worst_deviation = std::max(result.worst_deviation, worst);
  }
  return result;
}

GradientCheckResult check_gradient_sums(MPI_Comm comm, const std::vector<Bucket>& plan,
                                        const GradientSums& mine, double unit_roundoff) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  // Every rank judges the same numbers (rank 0's), so all throw or none does.
  const BucketSums sums{reduce_on_root(comm, mine.local, MPI_SUM),
                        reduce_on_root(comm, mine.reduced, MPI_MIN),
                        reduce_on_root(comm, mine.reduced, MPI_MAX)};
  return judge_gradient_sums(plan, sums, ranks, unit_roundoff);
}

ExactPassResult judge_exact_pass(MPI_Comm comm, const std::vector<Bucket>& plan,
                                 const std::vector<long long>& wrong) {
  const int buckets = static_cast<int>(plan.size());
  std::vector<long long> total(plan.size()), ranks_wrong(plan.size());
  std::vector<long long> mine_wrong(plan.size());
  for (std::size_t b = 0; b < plan.size(); ++b) mine_wrong[b] = wrong[b] > 0 ? 1 : 0;
  MPI_Allreduce(wrong.data(), total.data(), buckets, MPI_LONG_LONG, MPI_SUM, comm);
  MPI_Allreduce(mine_wrong.data(), ranks_wrong.data(), buckets, MPI_LONG_LONG, MPI_SUM, comm);
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  ExactPassResult result{plan.size(), 0};
  for (std::size_t b = 0; b < plan.size(); ++b) {
    result.elements += plan[b].count;
    if (total[b] == 0) continue;
    throw GradientCheckFailed(fmt::format(
        "gradient check: bucket {} of {} (gradients {}..{}, all-reduced after layer {}): after "
        "the exact pass {} of the {} ranks hold gradients unlike their exact sum, {} in all "
        "({} per rank in the bucket): the all-reduce did not sum this bucket across the ranks",
        b, plan.size(), plan[b].offset, plan[b].offset + plan[b].count - 1, plan[b].after_layer,
        ranks_wrong[b], ranks, total[b], plan[b].count));
  }
  return result;
}

double sum_abs(const float* data, long long count) {
  double sum = 0;
  for (long long i = 0; i < count; ++i) sum += std::fabs(static_cast<double>(data[i]));
  return sum;
}

}  // namespace perfgate::step_proxy
