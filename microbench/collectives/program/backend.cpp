#include "backend.hpp"

namespace perfgate::collectives {

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
