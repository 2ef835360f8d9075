#include "timing.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace perfgate::collectives {
namespace {

using Clock = std::chrono::steady_clock;

double micros(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

}  // namespace

std::size_t check_output(Backend& backend, const Communicator& comm, int peer_rank,
                         Watchdog& watchdog, const CaseShape& shape, int times) {
  std::size_t wrong = 0;
  // Check i on draw i of the pattern: each check moves other values through the collective.
  CaseShape drawn = shape;
  for (int i = 0; i < times && wrong == 0; ++i) {
    drawn.draw = static_cast<std::uint32_t>(i);
    backend.refill(drawn.draw);
    backend.run_loop(1, [&] { watchdog.arm(); });
    std::size_t mine = 0;
    backend.read_output([&](std::size_t first, std::span<const std::byte> bytes) {
      mine += count_wrong_encoded(drawn, peer_rank, first, bytes);
    });
    wrong = comm.sum(mine);  // the same on every rank: all stop together
    watchdog.disarm();
  }
  return wrong;
}

BitwiseDifference check_repeatability(Backend& backend, const Communicator& comm,
                                      Watchdog& watchdog, const CaseShape& shape, int repeats) {
  const std::size_t element_bytes = type_size(shape.dtype);
  std::vector<std::byte> reference;
  BitwiseDifference mine;
  for (int repeat = 0; repeat <= repeats; ++repeat) {
    backend.refill(shape.draw);  // every repeat on the reference's inputs
    backend.run_loop(1, [&] { watchdog.arm(); });
    backend.read_output([&](std::size_t first, std::span<const std::byte> bytes) {
      const std::size_t at = first * element_bytes;
      if (repeat == 0) {
        reference.resize(at + bytes.size());
        std::copy(bytes.begin(), bytes.end(), reference.begin() + static_cast<std::ptrdiff_t>(at));
      } else {
        add_differences(std::span<const std::byte>(reference).subspan(at, bytes.size()), bytes,
                        element_bytes, first, repeat, mine);
      }
    });
  }
  watchdog.disarm();
  const std::vector<std::vector<double>> ranks = comm.gather(to_numbers(mine));
  if (comm.rank() != 0) return mine;
  std::vector<BitwiseDifference> per_rank;
  for (const std::vector<double>& numbers : ranks) per_rank.push_back(from_numbers(numbers));
  return combine_ranks(per_rank);
}

void prepare_watched(Backend& backend, Watchdog& watchdog, const CaseShape& shape, bool in_place) {
  const ArmedWatch watch(watchdog);
  backend.prepare(shape, in_place);
}

void warm_up(Backend& backend, Watchdog& watchdog, int iters) {
  if (iters > 0) backend.run_loop(iters, [&] { watchdog.arm(); });
  watchdog.disarm();
}

LoopSpan measure_loop(Backend& backend, const Communicator& comm, Watchdog& watchdog,
                      const LoopPlan& plan, const std::function<void()>& before_each, int gemms,
                      int blocking, IterationClock* clock) {
  watchdog.arm();  // a peer that never arrives hangs this barrier too
  backend.ready_timed_loop(plan);
  comm.barrier();
  const Clock::time_point start = Clock::now();
  if (gemms > 0) backend.launch_compute(gemms);
  std::function<void()> complete_everywhere;
  Clock::duration left_out{0};  // -z 3's barriers
  if (blocking != 0) {
    complete_everywhere = [&] {
      backend.wait();
      if (blocking == 2) return;
      const Clock::time_point before = Clock::now();
      comm.barrier();
      if (blocking == 3) left_out += Clock::now() - before;
    };
  }
  const long operations = backend.run_timed_loop(
      plan,
      [&] {
        watchdog.arm();
        if (clock != nullptr) clock->mark();
        if (before_each) before_each();
      },
      complete_everywhere);
  const Clock::time_point launched = Clock::now();
  if (clock != nullptr) clock->mark();
  backend.wait();
  if (gemms > 0) backend.wait_compute();
  return {micros(Clock::now() - start - left_out), micros(launched - start - left_out), operations};
}

RankTiming timed_loop(Backend& backend, const Communicator& comm, Watchdog& watchdog,
                      const LoopPlan& plan, const Delay& delay, int blocking,
                      std::vector<double>* iteration_us) {
  const bool delayed = delay.rank == comm.rank() && delay.us > 0;
  const auto sleep = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double, std::micro>(delay.us));
  Clock::duration pre{0};
  const std::unique_ptr<IterationClock> clock =
      iteration_us != nullptr ? backend.iteration_clock(plan.iters + 1) : nullptr;
  const LoopSpan span = measure_loop(
      backend, comm, watchdog, plan,
      [&] {
        if (!delayed) return;
        const Clock::time_point before = Clock::now();
        std::this_thread::sleep_for(sleep);
        pre += Clock::now() - before;
      },
      0, blocking, clock.get());
  if (clock != nullptr) {
    *iteration_us = clock->spans_us();
    for (double& us : *iteration_us) us /= plan.group;
  }
  const auto per_operation = static_cast<double>(span.operations);
  return {span.us / per_operation, micros(pre) / per_operation, span.launch_us / per_operation};
}

std::vector<RankTiming> gather_timings(const Communicator& comm, const RankTiming& mine) {
  const std::vector<double> totals = comm.gather(mine.total_us);
  const std::vector<double> pres = comm.gather(mine.pre_us);
  const std::vector<double> launches = comm.gather(mine.launch_us);
  std::vector<RankTiming> all;
  for (std::size_t r = 0; r < totals.size(); ++r) all.push_back({totals[r], pres[r], launches[r]});
  return all;
}

}  // namespace perfgate::collectives
