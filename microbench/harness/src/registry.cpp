#include "perfgate/microbench/registry.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate::microbench {

const std::string& CaseParams::text(const std::string& axis) const {
  const auto it = values_.find(axis);
  if (it == values_.end()) throw InputError(fmt::format("parameter '{}': missing", axis));
  return it->second;
}

std::int64_t CaseParams::integer(const std::string& axis) const {
  const std::string& v = text(axis);
  std::int64_t out = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc{} || end != v.data() + v.size())
    throw InputError(fmt::format("parameter '{}': expected an integer, got '{}'", axis, v));
  return out;
}

bool CaseParams::flag(const std::string& axis) const {
  const std::string& v = text(axis);
  if (v == "1" || v == "true") return true;
  if (v == "0" || v == "false") return false;
  throw InputError(fmt::format("parameter '{}': expected 0/1, got '{}'", axis, v));
}

void HostInstance::poison() {
  std::fill(out_.begin(), out_.end(), std::numeric_limits<float>::quiet_NaN());
}

Family& Family::describe(std::string text) {
  description_ = std::move(text);
  return *this;
}

Family& Family::int_axis(const std::string& name, const std::vector<std::int64_t>& values) {
  Axis axis{name, {}};
  for (const auto v : values) axis.values.push_back(std::to_string(v));
  axes_.push_back(std::move(axis));
  return *this;
}

Family& Family::string_axis(const std::string& name, const std::vector<std::string>& values) {
  axes_.push_back(Axis{name, values});
  return *this;
}

Family& Family::bool_axis(const std::string& name) {
  return string_axis(name, {"0", "1"});
}

Family& Family::filter(CaseFilter keep) {
  filters_.push_back(std::move(keep));
  return *this;
}

Family& Family::workload(WorkloadModel model) {
  model_ = std::move(model);
  return *this;
}

Family& Family::problem(ProblemFactory make) {
  problem_ = std::move(make);
  return *this;
}

Family& Family::implementation(std::string backend, std::string variant, InstanceFactory make) {
  impls_.push_back(Implementation{std::move(backend), std::move(variant), std::move(make)});
  return *this;
}

bool Family::keeps(const CaseParams& p) const {
  return std::all_of(filters_.begin(), filters_.end(), [&](const auto& f) { return f(p); });
}

Workload Family::model(const CaseParams& p) const {
  return model_ ? model_(p) : Workload{};
}

std::unique_ptr<Problem> Family::make_problem(const CaseParams& p, Rng& rng) const {
  if (!problem_) throw ToolError(fmt::format("family '{}' has no problem definition", name_));
  return problem_(p, rng);
}

Registry& Registry::instance() {
  static Registry registry;
  return registry;
}

Family& Registry::family(const std::string& name) {
  for (auto& f : families_)
    if (f->name() == name) return *f;
  families_.push_back(std::make_unique<Family>(name));
  return *families_.back();
}

const Family* Registry::find(const std::string& name) const {
  for (const auto& f : families_)
    if (f->name() == name) return f.get();
  return nullptr;
}

void Registry::backend_probe(const std::string& backend, std::function<bool()> usable,
                             std::string missing) {
  probes_[backend] = std::move(usable);
  missing_[backend] = std::move(missing);
}

std::string Registry::backend_missing(const std::string& backend) const {
  const auto it = missing_.find(backend);
  if (it != missing_.end() && !it->second.empty()) return it->second;
  return fmt::format("backend '{}' is not usable here", backend);
}

std::vector<const Family*> Registry::families() const {
  std::vector<const Family*> out;
  for (const auto& f : families_) out.push_back(f.get());
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->name() < b->name(); });
  return out;
}

}  // namespace perfgate::microbench
