#pragma once
// The step proxy's gradient check: one step, before the timed ones, proves that the bucketed
// all-reduce summed every gradient across the ranks. Every rank computes the same gradients (same
// weights, same inputs), so for each bucket the all-reduced Σ|g| on every rank must equal the sum
// over ranks of their local Σ|g| (taken in stream order before the bucket's all-reduce), within the
// rounding of an n-rank sum. A bucket left out, reduced twice, read before its gradients were
// final or misplaced moves its sum by a factor near n and fails. With one rank it only checks
// that the step left the gradients as they were.
#include <mpi.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "bucket_plan.hpp"
#include "exact_pattern.hpp"

namespace perfgate::step_proxy {

// The check failed; every rank throws it together, so no rank is left waiting in a collective.
// perfgate-step-proxy prints it once (rank 0) and exits with exit_code::regression.
class GradientCheckFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Each bucket's Σ|g| on this rank, before and after its all-reduce (filled by a backend's step).
struct GradientSums {
  std::vector<double> local, reduced;
};

// The exact pass's size (below), once it passed.
struct ExactPassResult {
  std::size_t buckets = 0;
  long long elements = 0;  // per rank
};

struct GradientCheckResult {
  int ranks = 1;
  std::size_t buckets = 0;
  double worst_deviation = 0;  // the largest |reduced − expected| / expected over buckets, ranks
  double tolerance = 0;
  // False when the tolerance passes 1/2 (bf16 past 86 ranks): a sum that far off could be
  // rounding (a bf16 ring sum stalls once a partial sum is 256 times one rank's gradient), so
  // no verdict is given and `reason` says so.
  bool made = true;
  std::string reason;
  ExactPassResult exact;  // filled by the backend, which runs the exact pass first
};

// The CUDA backend's model check (cuda/model_check.hpp): the GPU step's local weight gradients
// against the network recomputed on the host, for shapes small enough to recompute.
struct ModelCheckResult {
  bool made = false;
  double worst_error = 0;  // the worst matrix's largest |gpu − host| / its largest |host|
  double bound = 0;
  std::string matrix;  // where worst_error was found: "rank 0 layer 1 W1"
  std::string reason;  // why it was not made
};

// The relative error of an n-rank sum of same-signed values in a type of unit roundoff u, worst
// case over the order of its n − 1 roundings: γ(n−1) = (n−1)u / (1 − (n−1)u), +inf once
// (n−1)u ≥ 1. Every element of a bucket obeys it, so the bucket's Σ|g| does too.
double reduction_tolerance(int ranks, double unit_roundoff);
inline constexpr double kLargestTolerance = 0.5;
// The gradients' unit roundoffs: fp32 (24-bit significand) on the CPU, bf16 (8-bit) on the GPU.
inline constexpr double kFp32UnitRoundoff = 0x1p-24, kBf16UnitRoundoff = 0x1p-8;

// For each bucket: the expected sum (over ranks of `local`) and the lowest and highest `reduced`
// over ranks. Host arithmetic, so it is tested without MPI.
struct BucketSums {
  std::vector<double> expected, lowest, highest;
};
// The result, or GradientCheckFailed naming the first bucket whose sums miss the tolerance (its
// gradient span, its layer, the sums and the tolerance). Past kLargestTolerance: not made.
GradientCheckResult judge_gradient_sums(const std::vector<Bucket>& plan, const BucketSums& sums,
                                        int ranks, double unit_roundoff);

// Collective over `comm`: gathers every rank's sums on rank 0, which judges, and passes the
// verdict to every rank (all throw together or none).
GradientCheckResult check_gradient_sums(MPI_Comm comm, const std::vector<Bucket>& plan,
                                        const GradientSums& mine, double unit_roundoff);

// The exact pass, before the steps: every bucket of the plan is all-reduced once through the
// step's own path (its communication thread or stream, the plan) over gradients
// set to a pattern whose sums are exact in fp32 and bf16 at any number of ranks (as
// perfgate-collectives' data check: two ranks add 1, 2 or 4 to each element, the others 0).
// Every element must then equal its sum exactly, so a bucket left out, reduced twice or
// misplaced, and one rank's contribution missing, fail at any rank count, where the Σ|g| check
// above tells a missing rank from rounding only up to 16 ranks in bf16. It cannot see a bucket
// read before its gradients were final: that is the Σ|g| check's.
// exact_pass_input(ranks, rank, i) and exact_pass_sum(ranks, i): exact_pattern.hpp.

// Collective over `comm`: `wrong` holds, per bucket of `plan`, this rank's elements unlike
// exact_pass_sum. Throws GradientCheckFailed on every rank, naming the first bucket any rank
// got wrong and how many elements on how many ranks; else the pass's size.
ExactPassResult judge_exact_pass(MPI_Comm comm, const std::vector<Bucket>& plan,
                                 const std::vector<long long>& wrong);
// Elements i of `bucket` with values(i) != exact_pass_sum(ranks, i): the backends' count.
template <class Value>
long long exact_pass_wrong(const Bucket& bucket, int ranks, Value&& values) {
  long long wrong = 0;
  for (long long i = bucket.offset; i < bucket.offset + bucket.count; ++i)
    if (values(i) != exact_pass_sum(ranks, i)) ++wrong;
  return wrong;
}

// Σ|x| in double: the CPU backend's bucket sum.
double sum_abs(const float* data, long long count);

}  // namespace perfgate::step_proxy
