#pragma once
// One data-parallel training step: forward, backward with bucketed gradient all-reduce
// overlapped on the communication thread, then the wait for the last buckets.
#include "comm_thread.hpp"
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
  double delay_us = 0;  // test option: extra compute on this rank (a straggler)
};

StepTimes run_step(TransformerStack& model, CommThread& comm, const Shape& shape,
                   const StepConfig& config);

}  // namespace perfgate::step_proxy
