#include "perfgate/microbench/plan.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgate/core/error.hpp"

namespace perfgate::microbench {
namespace {

// Every combination of the axes' values, in axis order.
std::vector<Params> cartesian(const std::vector<Axis>& axes) {
  std::vector<Params> out{Params{}};
  for (const auto& axis : axes) {
    std::vector<Params> next;
    for (const auto& partial : out)
      for (const auto& value : axis.values) {
        Params p = partial;
        p[axis.name] = value;
        next.push_back(std::move(p));
      }
    out = std::move(next);
  }
  return out;
}

bool contains(const std::vector<std::string>& list, const std::string& x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}

bool implemented(const std::string& backend, const Registry& registry) {
  for (const Family* f : registry.families())
    for (const auto& impl : f->implementations())
      if (impl.backend == backend) return true;
  return false;
}

// An explicitly requested backend that cannot run here: one clear error before anything is
// measured or written. A missing device is the machine's doing (exit 4); a backend this binary
// was built without is the build's (a tool error, exit 2).
void require_usable(const std::vector<std::string>& backends, const Registry& registry) {
  const auto& probes = registry.backend_probes();
  for (const auto& b : backends) {
    const auto it = probes.find(b);
    if (it != probes.end() && !it->second())
      throw BackendUnavailable(
          fmt::format("backend {}: {} on this machine", b, registry.backend_missing(b)));
    if (it == probes.end() && b != "cpu" && !implemented(b, registry))
      throw ToolError(fmt::format("backend {}: not built into this perfgate", b));
  }
}

// `--timing cold` for backends none of which can time cold would plan nothing cold: a usage
// error rather than a run of the other modes only, or of nothing.
void require_timing_modes(const PlanOptions& options, const Registry& registry) {
  for (const std::string& mode : options.timing) {
    if (std::any_of(options.backends.begin(), options.backends.end(),
                    [&](const std::string& b) { return registry.has_timing_mode(b, mode); }))
      continue;
    const auto having = registry.backends_with_timing_mode(mode);
    throw InputError(fmt::format("--timing {}: {} {} {} no {} mode ({})", mode,
                                 options.backends.size() == 1 ? "backend" : "backends",
                                 fmt::join(options.backends, ", "),
                                 options.backends.size() == 1 ? "has" : "have", mode,
                                 having.empty() ? "no backend built in has"
                                                : fmt::format("{} has", fmt::join(having, ", "))));
  }
}

}  // namespace

std::vector<CaseRequest> plan_suite(const SuiteConfig& suite, const PlanOptions& options,
                                    const Registry& registry) {
  require_usable(options.backends, registry);
  require_timing_modes(options, registry);
  std::vector<CaseRequest> cases;
  for (const auto& sel : suite.families) {
    const Family* family = registry.find(sel.name);
    if (!family)
      throw InputError(fmt::format("suite '{}': unknown family '{}'", suite.name, sel.name));
    std::vector<Axis> axes = family->axes();
    for (const auto& [name, values] : sel.axes) {
      auto it =
          std::find_if(axes.begin(), axes.end(), [&](const Axis& a) { return a.name == name; });
      if (it == axes.end())
        throw InputError(
            fmt::format("suite '{}': family '{}' has no axis '{}'", suite.name, sel.name, name));
      it->values = values;
    }
    for (const auto& variant : sel.impls) {
      const auto& impls = family->implementations();
      if (std::none_of(impls.begin(), impls.end(),
                       [&](const auto& i) { return i.variant == variant; }))
        throw InputError(fmt::format("suite '{}': family '{}' has no implementation '{}'",
                                     suite.name, sel.name, variant));
    }
    const int slowdown = slowdown_from_env(sel.name);
    std::vector<std::string> modes;  // in the order given, each once ("hot,hot" is hot)
    for (const auto& m : options.timing.empty() ? sel.timing : options.timing)
      if (!contains(modes, m)) modes.push_back(m);
    for (const auto& params : cartesian(axes))
      for (const auto& impl : family->implementations()) {
        if (!contains(options.backends, impl.backend)) continue;
        if (!sel.impls.empty() && !contains(sel.impls, impl.variant)) continue;
        Params with_impl = params;  // filters may look at the backend and variant too
        with_impl["backend"] = impl.backend;
        with_impl["impl"] = impl.variant;
        if (!family->keeps(CaseParams(with_impl))) continue;
        for (const auto& mode : modes) {
          if (!registry.has_timing_mode(impl.backend, mode)) continue;
          CaseRequest c{sel.name,       impl.backend, impl.variant, params,
                        suite.sampling, suite.seed,   slowdown};
          if (mode != "hot") c.params["timing"] = mode;
          if (options.filter && !std::regex_search(c.key().name(), *options.filter)) continue;
          cases.push_back(std::move(c));
        }
      }
  }
  return cases;
}

std::string exact_cases_filter(const std::vector<std::string>& case_names) {
  static constexpr std::string_view kSpecial = R"(\^$.|?*+()[]{})";
  std::string alternatives;
  for (const std::string& name : case_names) {
    if (!alternatives.empty()) alternatives += '|';
    for (char c : name) {
      if (kSpecial.find(c) != std::string_view::npos) alternatives += '\\';
      alternatives += c;
    }
  }
  return "^(?:" + alternatives + ")$";
}

std::vector<std::string> available_backends(const Registry& registry) {
  std::vector<std::string> out{"cpu"};
  for (const auto& [backend, probe] : registry.backend_probes())
    if (backend != "cpu" && probe()) out.push_back(backend);
  return out;
}

std::vector<std::string> unavailable_backend_notes(const std::vector<std::string>& wanted,
                                                   const Registry& registry) {
  const auto usable = available_backends(registry);
  std::vector<std::string> fallback;
  for (const auto& b : wanted)
    if (contains(usable, b)) fallback.push_back(b);
  const std::string using_text =
      fallback.empty() ? "nothing else to run" : fmt::format("using {}", fmt::join(fallback, ", "));
  std::vector<std::string> notes;
  for (const auto& b : wanted) {
    if (contains(usable, b)) continue;
    const bool built = registry.backend_probes().count(b) != 0;
    notes.push_back(fmt::format(
        "{}: the suite's {} cases are not run ({})",
        built ? registry.backend_missing(b) : fmt::format("backend {} is not built in", b), b,
        using_text));
  }
  return notes;
}

}  // namespace perfgate::microbench
