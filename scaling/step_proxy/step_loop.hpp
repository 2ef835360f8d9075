#pragma once
// One data-parallel training step: forward, backward with bucketed gradient all-reduce
// overlapped on the communication thread, then the wait for the last buckets.
#include <vector>

#include "bucket_plan.hpp"
#include "comm_thread.hpp"
#include "gradient_check.hpp"
#include "transformer.hpp"

namespace perfgate::step_proxy {

struct StepTimes {
  double step_us = 0, compute_us = 0, comm_us = 0, exposed_us = 0;
  StepTimes& operator+=(const StepTimes& o) {
    step_us += o.step_us, compute_us += o.compute_us, comm_us += o.comm_us,
        exposed_us += o.exposed_us;
    return *this;
  }
};

struct StepConfig {
  long long bucket_bytes = 64 * 1024;
  double delay_us = 0;   // test option: extra compute on this rank (a straggler)
  int skip_bucket = -1;  // test option: this bucket is never all-reduced (the check must fail)
  int skip_exact_bucket = -1;  // test option: the exact pass leaves this bucket out
};

// Gradients in one bucket of `bucket_bytes`, at `gradient_bytes` each (fp32 on the CPU, bf16 on
// the GPU): at least one.
long long bucket_gradients(long long bucket_bytes, std::size_t gradient_bytes);
// A backend's buckets, bucket_gradients() each (the last of a step may hold fewer).
std::vector<Bucket> step_buckets(const Shape& shape, long long bucket_bytes,
                                 std::size_t gradient_bytes);

// The exact pass (gradient_check.hpp) through `comm` and the step's bucket plan; per bucket,
// this rank's wrong elements. Leaves the pattern in the gradients (the next backward overwrites).
std::vector<long long> run_exact_pass(TransformerStack& model, CommThread& comm, const Shape& shape,
                                      const StepConfig& config, int rank, int ranks);

// With `sums`, also takes every bucket's Σ|g| before and after its all-reduce (the gradient
// check's step; the sums add host work, so that step is not timed).
StepTimes run_step(TransformerStack& model, CommThread& comm, const Shape& shape,
                   const StepConfig& config, GradientSums* sums = nullptr);

}  // namespace perfgate::step_proxy
