#pragma once
// Turns measurements into perfgate results (core/document.hpp). The layout is documented in
// docs/collectives.md and read by sweeps: change both together.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/collectives/bitwise_check.hpp"
#include "perfgate/collectives/data_pattern.hpp"
#include "perfgate/collectives/iteration_stats.hpp"
#include "perfgate/core/model.hpp"

namespace perfgate::collectives {

// One placement (out-of-place or in-place) of one case, over all repetitions.
struct CaseMeasurement {
  std::string backend;  // "mpi", "nccl"
  CaseShape shape;
  std::size_t bytes = 0;
  bool in_place = false;
  // Timed iterations of each loop: -n, or fewer under a byte budget (-s).
  int iterations = 0;
  std::vector<double> sample_us;              // per repetition: the time the table shows (-a)
  std::vector<double> launch_us;              // per repetition with -C: the host's launch time
  std::vector<double> per_rank_us;            // own time per rank, mean over repetitions
  double avg_us = 0, min_us = 0, max_us = 0;  // across ranks, mean over repetitions
  std::optional<std::size_t> wrong;           // nullopt when not checked
  // --bitwise-repeats: how the repeated outputs differed from the reference's (all ranks, on
  // rank 0); nullopt when not compared.
  std::optional<BitwiseDifference> bitwise;
  std::vector<int> stragglers;
  // -I 1: per cycle (-N), its iterations on every rank and their statistics, each iteration's
  // slowest rank's.
  std::vector<IterationTimes> per_iteration;
};

SeriesKey case_key(const CaseMeasurement& m, const std::string& metric);
// Three results: time (us), algbw and busbw (GB/s), each with one sample per repetition; a
// fourth, cputime (us), when the launch time was taken (-C).
std::vector<Result> case_results(const CaseMeasurement& m, const Scale& scale);
// The same case measured again in a later cycle (-N): its samples join `into`'s, and the
// per-rank and across-rank means and the wrong and differing-bit counts cover every cycle.
void absorb_cycle(CaseMeasurement& into, const CaseMeasurement& more);

// A case that never completed: status timeout, message naming collective, size and rank.
Result timeout_result(const CaseMeasurement& m, const Scale& scale, int rank,
                      const std::string& host, double timeout_s);

struct BucketMeasurement {
  std::string backend;
  DataType dtype = DataType::f32;
  std::size_t total_bytes = 0, bucket_bytes = 0;
  std::vector<double> sample_us;  // time to all-reduce the whole volume, per repetition
  int ranks = 1;
  bool best = false;
};
std::vector<Result> bucket_results(const BucketMeasurement& m, const Scale& scale);

struct OverlapMeasurement {
  std::string backend;
  std::size_t bytes = 0;
  int gemm_n = 0;
  double compute_us = 0, comm_us = 0, both_us = 0;
};
// (t_compute + t_comm − t_both) / min(t_compute, t_comm); 1 = the shorter one fully hidden.
double overlap_efficiency(double compute_us, double comm_us, double both_us);
std::vector<Result> overlap_results(const OverlapMeasurement& m, const Scale& scale);

struct ReferenceMeasurement {
  std::size_t bytes = 0;
  int ranks = 1;
  std::vector<double> sample_us;
};
std::vector<Result> reference_results(const ReferenceMeasurement& m, const Scale& scale);

}  // namespace perfgate::collectives
