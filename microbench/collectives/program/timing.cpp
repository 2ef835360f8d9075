#include "timing.hpp"

#include <chrono>
#include <thread>

namespace perfgate::collectives {
namespace {

using Clock = std::chrono::steady_clock;

double micros(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

}  // namespace

std::size_t check_output(Backend& backend, const Communicator& comm, Watchdog& watchdog,
                         int times) {
  std::size_t wrong = 0;
  for (int i = 0; i < times && wrong == 0; ++i) {
    backend.refill();
    backend.run_loop(1, [&] { watchdog.arm(); });
    wrong = comm.sum(backend.count_wrong_output());  // the same on every rank: all stop together
    watchdog.disarm();
  }
  return wrong;
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
