#pragma once
// A phase of a measuring process (`check`, `warm-up`, `samples`) as an NVTX push/pop range in the
// domain "perfgate", so that Nsight Systems shows where the samples are and Nsight Compute's NVTX
// filter can pick their launches. Without a profiler attached a range costs a test of a function
// pointer; in a build without the NVTX headers it is nothing.
namespace perfgate::microbench {

class PhaseRange {
 public:
  explicit PhaseRange(const char* name);  // `name` must outlive the call only
  ~PhaseRange();
  PhaseRange(const PhaseRange&) = delete;
  PhaseRange& operator=(const PhaseRange&) = delete;
};

}  // namespace perfgate::microbench
