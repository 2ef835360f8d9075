#include "backend.hpp"

namespace perfgate::collectives {

void Backend::run_loop(int iters, const std::function<void()>& before_each) {
  for (int i = 0; i < iters; ++i) {
    before_each();
    launch();
  }
  wait();
}

long Backend::run_timed_loop(int iters, const std::function<void()>& before_each) {
  run_loop(iters, before_each);
  return iters;
}

}  // namespace perfgate::collectives
