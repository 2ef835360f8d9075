// A test-only family whose behaviour PERFGATE_TEST_FAULT selects (crash | hang | wrong): it
// proves that `perfgate run` isolates cases. Without the variable it has no cases.
#include <csignal>
#include <cstdlib>
#include <string>

#include "perfgate/microbench/families/common.hpp"

namespace perfgate::microbench {
namespace {

std::string fault() {
  const char* env = std::getenv("PERFGATE_TEST_FAULT");
  return env ? env : "";
}

struct FaultProblem : Problem {
  std::vector<float> x;
  FaultProblem(const CaseParams& p, Rng& rng) : x(rng.floats(p.integer("n"))) {}
  std::vector<double> reference() const override { return {x.begin(), x.end()}; }
};

class FaultCopy final : public HostInstance {
 public:
  explicit FaultCopy(const FaultProblem& p) : HostInstance(p.x.size()), p_(p), mode_(fault()) {}
  void run() override {
    if (mode_ == "crash") std::raise(SIGSEGV);
    if (mode_ == "hang")
      for (volatile bool forever = true; forever;) {
      }
    for (std::size_t i = 0; i < out_.size(); ++i)
      out_[i] = mode_ == "wrong" ? 2 * p_.x[i] : p_.x[i];
  }

 private:
  const FaultProblem& p_;
  std::string mode_;
};

}  // namespace

PERFGATE_FAMILY(test_fault, FaultProblem) {
  family.describe("test hook: copies, or crashes/hangs/miscomputes per PERFGATE_TEST_FAULT")
      .int_axis("n", {1024})
      .filter([](const CaseParams&) { return !fault().empty(); })
      .workload([](const CaseParams& p) {
        return Workload{0, 8 * static_cast<double>(p.integer("n"))};
      });
}
PERFGATE_IMPLEMENTATION(test_fault, FaultProblem, cpu, copy) {
  return std::make_unique<FaultCopy>(problem);
}

}  // namespace perfgate::microbench
