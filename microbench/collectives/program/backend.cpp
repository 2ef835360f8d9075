#include "backend.hpp"

#include <chrono>

namespace perfgate::collectives {
namespace {

class HostIterationClock final : public IterationClock {
 public:
  explicit HostIterationClock(int marks) { marks_.reserve(static_cast<std::size_t>(marks)); }
  void mark() override { marks_.push_back(std::chrono::steady_clock::now()); }
  std::vector<double> spans_us() override {
    std::vector<double> spans;
    for (std::size_t i = 1; i < marks_.size(); ++i)
      spans.push_back(std::chrono::duration<double, std::micro>(marks_[i] - marks_[i - 1]).count());
    return spans;
  }

 private:
  std::vector<std::chrono::steady_clock::time_point> marks_;
};

}  // namespace

PreparedCase prepare_case(const CaseShape& shape, bool in_place, int rank) {
  const BufferCounts counts = buffer_counts(shape.collective, shape.count, shape.ranks);
  PreparedCase prepared{shape, in_place, counts.send, counts.recv, {}};
  if (shape.collective == Collective::hypercube)
    prepared.hypercube_steps = hypercube_steps(rank, shape.ranks);
  return prepared;
}

std::unique_ptr<IterationClock> Backend::iteration_clock(int marks) {
  return std::make_unique<HostIterationClock>(marks);
}

void Backend::run_loop(int iters, const std::function<void()>& before_each) {
  for (int i = 0; i < iters; ++i) {
    before_each();
    launch();
  }
  wait();
}

void Backend::launch_group(int group) {
  for (int k = 0; k < group; ++k) launch();
}

void Backend::launch_iteration(int group) {
  if (group == 1) {
    launch();
  } else {
    launch_group(group);
  }
}

long Backend::run_timed_loop(const LoopPlan& plan, const std::function<void()>& before_each,
                             const std::function<void()>& after_each) {
  for (int i = 0; i < plan.iters; ++i) {
    before_each();
    launch_iteration(plan.group);
    if (after_each) after_each();
  }
  return static_cast<long>(plan.iters) * plan.group;
}

}  // namespace perfgate::collectives
