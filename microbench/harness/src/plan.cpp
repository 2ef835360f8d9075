#include "perfgate/microbench/plan.hpp"

#include <algorithm>

#include <fmt/format.h>

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

}  // namespace

std::vector<CaseRequest> plan_suite(const SuiteConfig& suite, const PlanOptions& options,
                                    const Registry& registry) {
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
    for (const auto& params : cartesian(axes))
      for (const auto& impl : family->implementations()) {
        if (!contains(options.backends, impl.backend)) continue;
        if (!sel.impls.empty() && !contains(sel.impls, impl.variant)) continue;
        Params with_impl = params;  // filters may look at the backend and variant too
        with_impl["backend"] = impl.backend;
        with_impl["impl"] = impl.variant;
        if (!family->keeps(CaseParams(with_impl))) continue;
        CaseRequest c{sel.name,       impl.backend, impl.variant, params,
                      suite.sampling, suite.seed,   slowdown};
        if (options.filter && !std::regex_search(c.key().name(), *options.filter)) continue;
        cases.push_back(std::move(c));
      }
  }
  return cases;
}

std::vector<std::string> available_backends(const Registry& registry) {
  std::vector<std::string> out{"cpu"};
  for (const auto& [backend, probe] : registry.backend_probes())
    if (backend != "cpu" && probe()) out.push_back(backend);
  return out;
}

}  // namespace perfgate::microbench
