#pragma once
// The registration API of operator families (issue 5; docs/adding-a-benchmark.md).
//
// A family file says WHAT is measured: its parameter axes, a FLOP/byte model, how to make the
// inputs of one case (seeded RNG, never zeros) and the double-precision reference, and, per
// backend, one or more implementations. The harness says HOW: it checks every implementation
// against the reference before timing, warms up, samples adaptively and writes the results.
// A family file never contains timing loops, statistics or output code.
//
// ── Worked example: a scaled vector add, y = a·x + y0 ─────────────────────────────────────
//
//   struct AxpyProblem : perfgate::microbench::Problem {
//     std::vector<float> x, y0;  // inputs, filled from the case's seeded RNG
//     float a = 0;
//     AxpyProblem(const CaseParams& p, Rng& rng)
//         : x(rng.floats(p.integer("n"))), y0(rng.floats(p.integer("n"))), a(rng.scalar()) {}
//     std::vector<double> reference() const override {
//       std::vector<double> y(x.size());
//       for (std::size_t i = 0; i < x.size(); ++i) y[i] = double(a) * x[i] + y0[i];
//       return y;
//     }
//   };
//
//   // The CPU implementation: setup happens in the constructor (untimed), run() is timed.
//   class AxpyCpu final : public HostInstance {
//    public:
//     explicit AxpyCpu(const AxpyProblem& p) : HostInstance(p.x.size()), p_(p) {}
//     void run() override {
//       for (std::size_t i = 0; i < p_.x.size(); ++i) out_[i] = p_.a * p_.x[i] + p_.y0[i];
//     }
//    private:
//     const AxpyProblem& p_;
//   };
//
//   PERFGATE_FAMILY(axpy, AxpyProblem) {
//     family.describe("y = a*x + y0, streaming")
//         .int_axis("n", {1 << 16, 1 << 20})
//         .workload([](const CaseParams& p) {
//           const double n = double(p.integer("n"));
//           return Workload{.flops = 2 * n, .bytes = 3 * n * 4};
//         });
//   }
//   PERFGATE_IMPLEMENTATION(axpy, AxpyProblem, cpu, plain) {
//     return std::make_unique<AxpyCpu>(problem);
//   }
//
// The example above is compiled and run by tests/unit/microbench/registry_example_test.cpp.
//
// ── How a backend registers an implementation ──────────────────────────────────────────────
// PERFGATE_IMPLEMENTATION(family, ProblemType, backend, variant) { body } defines a factory
// that receives `problem` (the family's ProblemType, host inputs already filled) and `params`
// (the CaseParams) and returns a std::unique_ptr<Instance>. `backend` is "cpu" or "cuda";
// `variant` names the implementation ("naive", "blocked", "unfused", "fused", ...). Every
// (backend, variant) pair becomes cases with the extra parameters backend=<backend> and
// impl=<variant>, so the CPU and CUDA series of one family share every other parameter.
// The CUDA backend includes the family's problem header (microbench/cpu/include/perfgate/
// microbench/families/*.hpp), uploads the host inputs in its factory and downloads the output
// in output(). A factory that cannot do a case here (a head dim its kernel lacks, no device)
// throws CaseUnsupported with the reason: the case is then skipped with that message. It may
// also return nullptr (skipped with a generic message), or throw anything else to fail it.
//
// ── Manual timing (a backend that times itself) ────────────────────────────────────────────
// By default the harness times run() with a steady clock. A backend that times itself (CUDA
// events around a batch, optionally a CUDA-graph replay) overrides Instance::time_batch(n):
// run the body n times back to back and return the elapsed seconds it measured. The harness
// then never reads its own clock for that case: each returned batch time / n is one sample.
//
// A backend that reads device state per sample (SM clocks, throttling) resets it in
// Instance::sampling_started() (called once warm-up is over) and hands it back through
// Instance::notes(): the object's members are added to the result's `extra`.
//
// Registration happens in static initialisers, which a linker drops from a static library
// nobody references: a backend adds its library to perfgate_microbench whole, as
// microbench/cpu/CMakeLists.txt does:
//   target_link_libraries(perfgate_microbench INTERFACE
//   "$<LINK_LIBRARY:WHOLE_ARCHIVE,perfgate_mb_cuda>")
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "perfgate/core/model.hpp"
#include "perfgate/microbench/ceilings.hpp"

namespace perfgate::microbench {

// The axis values of one case. Values are kept as text (the series parameters); these
// accessors convert and throw InputError naming the axis when it is missing or malformed.
class CaseParams {
 public:
  CaseParams() = default;
  explicit CaseParams(Params values) : values_(std::move(values)) {}
  std::int64_t integer(const std::string& axis) const;
  const std::string& text(const std::string& axis) const;
  bool flag(const std::string& axis) const;  // "1"/"true" or "0"/"false"
  bool has(const std::string& axis) const { return values_.count(axis) != 0; }
  const Params& values() const { return values_; }

 private:
  Params values_;
};

// Counting conventions (docs/adding-a-benchmark.md): `flops` counts a multiply-add as 2 and
// only the arithmetic the operator needs (no recomputation); `bytes` is the minimum traffic:
// every input read once and every output written once, at the storage dtype's size.
struct Workload {
  double flops = 0;
  double bytes = 0;
};

// Storage dtypes. Compute is fp32 on CPU; bf16/f16 storage is emulated by rounding every
// stored value to the dtype, and the correctness bound follows the storage dtype.
enum class DType { f32, bf16, f16 };
DType dtype_from_string(const std::string& text);  // throws InputError
std::size_t dtype_size(DType t);
float round_to(DType t, float value);  // nearest representable value
double relative_error_bound(DType t);  // max ‖out − ref‖∞ / ‖ref‖∞ that passes

// Seeded RNG for inputs: values are drawn away from zero so a kernel that reads nothing or
// writes zeros cannot pass the check.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  float scalar(float lo = 0.25f, float hi = 1.0f);  // uniform in ±[lo, hi]
  std::vector<float> floats(std::int64_t n, float lo = 0.25f, float hi = 1.0f);
  std::int64_t integer(std::int64_t lo, std::int64_t hi);  // uniform in [lo, hi]
  std::mt19937_64& engine() { return engine_; }

 private:
  std::mt19937_64 engine_;
};

// The inputs and reference of one case. A family derives its problem type from this; every
// backend's implementations read the same object.
class Problem {
 public:
  virtual ~Problem() = default;
  // The expected output, computed in double precision from the same (rounded) inputs.
  virtual std::vector<double> reference() const = 0;
  // Storage dtype of the output (selects the correctness bound).
  virtual DType output_dtype() const { return DType::f32; }
};

// An implementation cannot do this case on this machine or in this configuration: the case is
// reported as skipped with this message (never as failed).
class CaseUnsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One implementation bound to one case.
class Instance {
 public:
  virtual ~Instance() = default;
  // One invocation of the operator: the timed body.
  virtual void run() = 0;
  // The output of the last run(), converted to double, for the correctness check.
  virtual std::vector<double> output() = 0;
  // Fills the outputs with NaN before the checked run, so stale results cannot pass.
  virtual void poison() = 0;
  // Manual timing: elapsed seconds of `iterations` back-to-back runs measured by the backend
  // itself (CUDA events); nullopt (the default) lets the harness time run() on its clock.
  virtual std::optional<double> time_batch(std::size_t /*iterations*/) { return std::nullopt; }
  // A case planned with a timing mode other than hot (parameter timing=cold or timing=graph,
  // docs/suites.md): from now on time_batch times that way. False (the default) when the
  // implementation has no such mode; it may throw CaseUnsupported to say why not.
  virtual bool use_timing(const std::string& /*mode*/) { return false; }
  // Warm-up is over: the next time_batch calls are the kept samples.
  virtual void sampling_started() {}
  // What the implementation observed while sampling (an object; its members go into the
  // result's `extra`), e.g. {"clocks": {...}} from the CUDA backend.
  virtual nlohmann::json notes() const { return nlohmann::json::object(); }
};

// Convenience base for host implementations that write one fp32 output buffer.
class HostInstance : public Instance {
 public:
  explicit HostInstance(std::size_t output_size) : out_(output_size) {}
  std::vector<double> output() override { return {out_.begin(), out_.end()}; }
  void poison() override;

 protected:
  std::vector<float> out_;
};

using ProblemFactory = std::function<std::unique_ptr<Problem>(const CaseParams&, Rng&)>;
using InstanceFactory = std::function<std::unique_ptr<Instance>(Problem&, const CaseParams&)>;
using WorkloadModel = std::function<Workload(const CaseParams&)>;
using CaseFilter = std::function<bool(const CaseParams&)>;

struct Axis {
  std::string name;
  std::vector<std::string> values;
};

struct Implementation {
  std::string backend, variant;
  InstanceFactory make;
};

// A family: its axes (cartesian product, then filters), model, problem and implementations.
class Family {
 public:
  explicit Family(std::string name) : name_(std::move(name)) {}
  Family& describe(std::string text);
  Family& int_axis(const std::string& name, const std::vector<std::int64_t>& values);
  Family& string_axis(const std::string& name, const std::vector<std::string>& values);
  Family& bool_axis(const std::string& name);  // {0, 1}
  Family& filter(CaseFilter keep);             // all filters must keep a case
  Family& workload(WorkloadModel model);
  Family& problem(ProblemFactory make);
  Family& implementation(std::string backend, std::string variant, InstanceFactory make);

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  const std::vector<Axis>& axes() const { return axes_; }
  const std::vector<Implementation>& implementations() const { return impls_; }
  bool keeps(const CaseParams& p) const;
  Workload model(const CaseParams& p) const;
  std::unique_ptr<Problem> make_problem(const CaseParams& p, Rng& rng) const;

 private:
  std::string name_, description_;
  std::vector<Axis> axes_;
  std::vector<CaseFilter> filters_;
  WorkloadModel model_;
  ProblemFactory problem_;
  std::vector<Implementation> impls_;
};

// Process-wide registry filled by static initialisers.
class Registry {
 public:
  static Registry& instance();
  Family& family(const std::string& name);  // creates on first use (any registration order)
  const Family* find(const std::string& name) const;
  std::vector<const Family*> families() const;  // sorted by name

  // A backend other than cpu (e.g. cuda) registers a probe that says whether this machine can
  // run it; `--backend auto` runs the backends whose probe returns true. Probes run in the
  // parent `perfgate run` process, so they must not create a device context they keep.
  // `missing` says what is absent when the probe fails ("no CUDA device").
  void backend_probe(const std::string& backend, std::function<bool()> usable,
                     std::string missing = {});
  const std::map<std::string, std::function<bool()>>& backend_probes() const { return probes_; }
  // The probe's `missing` text, else "backend '<name>' is not usable here".
  std::string backend_missing(const std::string& backend) const;
  // A backend that measures the ceilings its results are fractions of (ceilings.hpp) registers
  // how; `perfgate run` calls it once per run in a measuring child of its own.
  void backend_ceilings(const std::string& backend, std::function<Ceilings()> measure) {
    ceilings_[backend] = std::move(measure);
  }
  const std::map<std::string, std::function<Ceilings()>>& ceiling_probes() const {
    return ceilings_;
  }
  // A backend whose instances can time in a mode other than hot (Instance::use_timing) declares
  // it; suites' cases in that mode are planned for such backends only.
  void timing_mode(const std::string& backend, const std::string& mode) {
    timing_modes_.insert({backend, mode});
  }
  bool has_timing_mode(const std::string& backend, const std::string& mode) const {
    return mode == "hot" || timing_modes_.count({backend, mode}) != 0;
  }
  std::vector<std::string> backends_with_timing_mode(const std::string& mode) const {
    std::vector<std::string> out;
    for (const auto& [backend, m] : timing_modes_)
      if (m == mode) out.push_back(backend);
    return out;
  }

 private:
  std::vector<std::unique_ptr<Family>> families_;
  std::map<std::string, std::function<bool()>> probes_;
  std::map<std::string, std::string> missing_;
  std::set<std::pair<std::string, std::string>> timing_modes_;  // (backend, mode)
  std::map<std::string, std::function<Ceilings()>> ceilings_;
};

namespace detail {
struct Registrar {
  explicit Registrar(const std::function<void()>& add) { add(); }
};
}  // namespace detail

// Typed helpers used by the macros: the problem type is checked once here, not in every body.
template <class P>
ProblemFactory problem_of() {
  return [](const CaseParams& p, Rng& rng) -> std::unique_ptr<Problem> {
    return std::make_unique<P>(p, rng);
  };
}
template <class P, class F>
InstanceFactory instance_of(F make) {
  return [make](Problem& problem, const CaseParams& params) -> std::unique_ptr<Instance> {
    return make(static_cast<P&>(problem), params);
  };
}

}  // namespace perfgate::microbench

#define PERFGATE_MB_CAT2(a, b) a##b
#define PERFGATE_MB_CAT(a, b) PERFGATE_MB_CAT2(a, b)

// PERFGATE_FAMILY(name, ProblemType) { family.int_axis(...).workload(...); }
#define PERFGATE_FAMILY(NAME, PROBLEM)                                                          \
  static void PERFGATE_MB_CAT(perfgate_family_, NAME)(::perfgate::microbench::Family & family); \
  static const ::perfgate::microbench::detail::Registrar PERFGATE_MB_CAT(perfgate_family_reg_,  \
                                                                         NAME){[] {             \
    auto& f = ::perfgate::microbench::Registry::instance().family(#NAME);                       \
    f.problem(::perfgate::microbench::problem_of<PROBLEM>());                                   \
    PERFGATE_MB_CAT(perfgate_family_, NAME)(f);                                                 \
  }};                                                                                           \
  static void PERFGATE_MB_CAT(perfgate_family_, NAME)(::perfgate::microbench::Family & family)

// PERFGATE_IMPLEMENTATION(family, ProblemType, backend, variant) { return make_unique<...>; }
// The body sees `problem` (ProblemType&) and `params` (const CaseParams&).
#define PERFGATE_IMPLEMENTATION(NAME, PROBLEM, BACKEND, VARIANT)               \
  static std::unique_ptr<::perfgate::microbench::Instance> PERFGATE_MB_CAT(    \
      perfgate_impl_##NAME##_##BACKEND##_, VARIANT)(                           \
      PROBLEM & problem, const ::perfgate::microbench::CaseParams& params);    \
  static const ::perfgate::microbench::detail::Registrar PERFGATE_MB_CAT(      \
      perfgate_impl_reg_##NAME##_##BACKEND##_, VARIANT){[] {                   \
    ::perfgate::microbench::Registry::instance().family(#NAME).implementation( \
        #BACKEND, #VARIANT,                                                    \
        ::perfgate::microbench::instance_of<PROBLEM>(                          \
            PERFGATE_MB_CAT(perfgate_impl_##NAME##_##BACKEND##_, VARIANT)));   \
  }};                                                                          \
  static std::unique_ptr<::perfgate::microbench::Instance> PERFGATE_MB_CAT(    \
      perfgate_impl_##NAME##_##BACKEND##_, VARIANT)(                           \
      [[maybe_unused]] PROBLEM & problem,                                      \
      [[maybe_unused]] const ::perfgate::microbench::CaseParams& params)
