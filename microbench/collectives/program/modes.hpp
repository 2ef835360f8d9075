#pragma once
// The four modes of perfgate-collectives. Each prints its table on rank 0 and adds its
// results to the document; sweep returns what failed its checks.
#include <cstddef>
#include <optional>
#include <string>

#include "backend.hpp"
#include "options.hpp"
#include "perfgate/collectives/communicator.hpp"
#include "perfgate/collectives/watchdog.hpp"
#include "rank_split.hpp"
#include "run_document.hpp"

namespace perfgate::collectives {

struct ModeContext {
  const Options& options;
  Backend& backend;
  const Communicator& comm;   // every rank of the job: times, checks, tables, documents
  const Communicator& group;  // the ranks this rank's operations run with (NCCL_TESTS_SPLIT)
  const RankSplit& split;
  Watchdog& watchdog;
  RunDocument& document;
};

// What a sweep's checks found, the same on every rank: wrong output elements, placements whose
// repeated outputs differed from their reference (--bitwise-repeats), and tables whose average
// bus bandwidth fell below NCCL_TESTS_MIN_BW's floor.
struct SweepFailures {
  std::size_t wrong = 0;
  std::size_t bitwise_mismatches = 0;
  std::size_t below_min_busbw = 0;
  bool any() const { return wrong > 0 || bitwise_mismatches > 0 || below_min_busbw > 0; }
};

SweepFailures run_sweep(ModeContext& ctx);
void run_buckets(ModeContext& ctx);
void run_overlap(ModeContext& ctx);
void run_reference(ModeContext& ctx);

// Collective: why some rank cannot hold `shape`'s buffers and `other_bytes` more in `share`,
// bounded by --max-memory; the same text on every rank; nullopt when all can.
std::optional<std::string> buffers_do_not_fit(ModeContext& ctx, const CaseShape& shape,
                                              double other_bytes, MemoryShare share);
// Collective: why `shape` is not run, the same text on every rank: the backend cannot run it on
// some rank, or buffers_do_not_fit in the backend's memory; nullopt when every rank can.
std::optional<std::string> case_refused(ModeContext& ctx, const CaseShape& shape,
                                        double other_bytes = 0);

// Prints on rank 0 only, flushed at once (a killed job keeps what was printed).
void print_on_root(const Communicator& comm, const std::string& text);

}  // namespace perfgate::collectives
