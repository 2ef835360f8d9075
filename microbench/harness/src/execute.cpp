#include "perfgate/microbench/execute.hpp"

#include <chrono>
#include <cstdlib>
#include <exception>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"
#include "perfgate/microbench/affinity.hpp"
#include "perfgate/microbench/check.hpp"
#include "phase_range.hpp"

namespace perfgate::microbench {

SeriesKey CaseRequest::key() const {
  SeriesKey k{family, params, "time"};
  k.params["backend"] = backend;
  k.params["impl"] = variant;
  return k;
}

nlohmann::json to_json(const CaseRequest& c) {
  const auto& p = c.policy;
  return {{"family", c.family},
          {"backend", c.backend},
          {"impl", c.variant},
          {"params", c.params},
          {"seed", c.seed},
          {"slowdown", c.slowdown},
          {"policy",
           {{"warmup_s", p.warmup_s},
            {"min_sample_s", p.min_sample_s},
            {"min_samples", p.min_samples},
            {"min_time_s", p.min_time_s},
            {"max_samples", p.max_samples},
            {"max_time_s", p.max_time_s},
            {"target_rel_ci", p.target_rel_ci}}}};
}

CaseRequest case_request_from_json(const nlohmann::json& j, const std::string& source) {
  try {
    CaseRequest c;
    c.family = j.at("family").get<std::string>();
    c.backend = j.at("backend").get<std::string>();
    c.variant = j.at("impl").get<std::string>();
    c.params = j.at("params").get<Params>();
    c.seed = j.at("seed").get<std::uint64_t>();
    c.slowdown = j.at("slowdown").get<int>();
    const auto& p = j.at("policy");
    c.policy.warmup_s = p.at("warmup_s").get<double>();
    c.policy.min_sample_s = p.at("min_sample_s").get<double>();
    c.policy.min_samples = p.at("min_samples").get<std::size_t>();
    c.policy.min_time_s = p.at("min_time_s").get<double>();
    c.policy.max_samples = p.at("max_samples").get<std::size_t>();
    c.policy.max_time_s = p.at("max_time_s").get<double>();
    c.policy.target_rel_ci = p.at("target_rel_ci").get<double>();
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not a case request: {}", source, e.what()));
  }
}

int slowdown_from_env(const std::string& family) {
  const char* env = std::getenv("PERFGATE_TEST_SLOWDOWN");
  if (!env) return 1;
  const std::string spec = env;
  std::size_t start = 0;
  while (start <= spec.size()) {
    const auto end = std::min(spec.find(',', start), spec.size());
    const auto item = spec.substr(start, end - start);
    const auto colon = item.find(':');
    if (colon != std::string::npos && item.substr(0, colon) == family) {
      const int factor = std::atoi(item.c_str() + colon + 1);
      if (factor < 1)
        throw InputError(
            fmt::format("PERFGATE_TEST_SLOWDOWN: '{}': factor must be an integer >= 1", item));
      return factor;
    }
    start = end + 1;
  }
  return 1;
}

namespace {

Result failed(Result r, ResultStatus status, std::string message) {
  r.status = status;
  r.message = std::move(message);
  return r;
}

}  // namespace

Result execute_case(const CaseRequest& request, const Registry& registry) {
  Result r;
  r.key = request.key();
  r.unit = "ns";
  r.direction = Direction::lower_is_better;
  if (const std::string cpus = allowed_cpus(); !cpus.empty()) r.extra["cpus"] = cpus;
  const Family* family = registry.find(request.family);
  if (!family)
    return failed(r, ResultStatus::error, fmt::format("unknown family '{}'", request.family));
  const Implementation* impl = nullptr;
  for (const auto& i : family->implementations())
    if (i.backend == request.backend && i.variant == request.variant) impl = &i;
  if (!impl)
    return failed(r, ResultStatus::skipped,
                  fmt::format("no {} implementation '{}' of {}", request.backend, request.variant,
                              request.family));
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const CaseParams params(request.params);
    Rng rng(request.seed);
    auto problem = family->make_problem(params, rng);
    auto instance = impl->make(*problem, params);
    if (!instance)
      return failed(r, ResultStatus::skipped, "implementation does not support this case");
    if (params.has("timing") && !instance->use_timing(params.text("timing")))
      return failed(r, ResultStatus::skipped,
                    fmt::format("the {} implementation '{}' has no {} timing", request.backend,
                                request.variant, params.text("timing")));

    const double bound = relative_error_bound(problem->output_dtype());
    const auto check = [&] {
      const PhaseRange phase("check");
      instance->poison();
      instance->run();
      return check_output(instance->output(), problem->reference(), bound);
    }();
    r.extra["check"] = {{"rel_error", check.rel_error}, {"bound", bound}};
    if (!check.passed) return failed(r, ResultStatus::error, check.message);

    // Problem, reference and check: the part of a case that is not warm-up or samples.
    const double setup_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const Measurement m = measure(*instance, request.policy, request.slowdown);
    r.samples = m.samples_ns;
    r.summary = summarize(r.samples);
    const Workload w = family->model(params);
    const double median_s = r.summary.median * 1e-9;
    r.extra["counters"] = {{"flops", w.flops},
                           {"bytes", w.bytes},
                           {"tflops", median_s > 0 ? w.flops / median_s / 1e12 : 0.0},
                           {"gbps", median_s > 0 ? w.bytes / median_s / 1e9 : 0.0}};
    r.extra["sampling"] = {{"batch", m.batch},          {"warmup_s", m.warmup_s},
                           {"sampled_s", m.sampled_s},  {"rel_ci", m.rel_ci},
                           {"stop", to_string(m.stop)}, {"setup_s", setup_s}};
    if (request.slowdown != 1) r.extra["sampling"]["test_slowdown"] = request.slowdown;
    const nlohmann::json notes = instance->notes();
    for (const auto& [name, value] : notes.items()) r.extra[name] = value;
    return r;
  } catch (const CaseUnsupported& e) {
    return failed(r, ResultStatus::skipped, e.what());
  } catch (const std::exception& e) {
    return failed(r, ResultStatus::error, e.what());
  }
}

}  // namespace perfgate::microbench
