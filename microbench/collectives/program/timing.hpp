#pragma once
// The measuring steps shared by every mode: data check, warm-up, one timed loop per
// repetition (nccl-tests style: barrier, N back-to-back operations, wait), per-rank timings.
#include <cstddef>
#include <functional>
#include <vector>

#include "backend.hpp"
#include "perfgate/collectives/bitwise_check.hpp"
#include "perfgate/collectives/communicator.hpp"
#include "perfgate/collectives/stragglers.hpp"
#include "perfgate/collectives/watchdog.hpp"

namespace perfgate::collectives {

// Where the --delay-rank test option puts its sleep.
struct Delay {
  int rank = -1;
  double us = 0;
};

// Runs one operation of `shape` on fresh inputs, up to `times` times (nccl-tests' -c), and
// returns the wrong elements summed over all ranks of the first that had any (0: every one was
// right). `peer_rank`: this rank's among the operation's ranks (its split group's).
std::size_t check_output(Backend& backend, const Communicator& comm, int peer_rank,
                         Watchdog& watchdog, const CaseShape& shape, int times);
// --bitwise-repeats: one reference operation of `shape` on fresh inputs, then `repeats` more, each
// output compared bit for bit with the reference's (a host copy of this rank's output). Every
// rank's differences reach rank 0, which gets the run's (others: this rank's).
BitwiseDifference check_repeatability(Backend& backend, const Communicator& comm,
                                      Watchdog& watchdog, const CaseShape& shape, int repeats);
void warm_up(Backend& backend, Watchdog& watchdog, int iters);
// backend.prepare under the watchdog: registering buffers (-R 2) waits for every rank.
void prepare_watched(Backend& backend, Watchdog& watchdog, const CaseShape& shape, bool in_place);

// This rank's wall time of one timed loop, the host's part of it spent launching (up to the
// last launch, before the wait), and the operations run (iters x group, times the graph's
// replays under -G).
struct LoopSpan {
  double us = 0, launch_us = 0;
  long operations = 0;
};
// The barrier-to-clock sequence of every timed loop. `before_each` runs before each
// iteration, after the watchdog's re-arm; `gemms` > 0 GEMMs (overlap mode) start with the
// clock and are awaited before it stops; `blocking` (-z, nccl-tests' numbers) ends each
// iteration with wait() and a barrier (1), wait() alone (2), or wait() and a barrier whose time
// is left out of the span (3). `clock`, when given, is marked before each iteration (after the
// re-arm, before `before_each`) and once after the last. Leaves the watchdog armed, as
// timed_loop does.
LoopSpan measure_loop(Backend& backend, const Communicator& comm, Watchdog& watchdog,
                      const LoopPlan& plan, const std::function<void()>& before_each, int gemms = 0,
                      int blocking = 0, IterationClock* clock = nullptr);
// One timed loop (replayed as a graph under -G); this rank's time per operation, its
// pre-collective time and its launch time. `iteration_us`, when given, receives this rank's
// time per operation of each iteration (-I 1: its span over the iteration's -m operations).
// Leaves the watchdog armed: a rank that finished early (a broadcast root) next waits for its
// peers in the exchange of timings, so the caller disarms after that exchange.
RankTiming timed_loop(Backend& backend, const Communicator& comm, Watchdog& watchdog,
                      const LoopPlan& plan, const Delay& delay, int blocking = 0,
                      std::vector<double>* iteration_us = nullptr);
// Rank 0 receives every rank's timing (others: empty).
std::vector<RankTiming> gather_timings(const Communicator& comm, const RankTiming& mine);

}  // namespace perfgate::collectives
