#include "perfgate/core/verdict.hpp"

#include <array>

#include "perfgate/core/error.hpp"

namespace perfgate {

namespace {
constexpr std::array<std::pair<VerdictKind, std::string_view>, 9> kNames{{
    {VerdictKind::regression, "REGRESSION"},
    {VerdictKind::improvement, "IMPROVEMENT"},
    {VerdictKind::same, "SAME"},
    {VerdictKind::inconclusive, "INCONCLUSIVE"},
    {VerdictKind::missing, "MISSING"},
    {VerdictKind::new_series, "NEW"},
    {VerdictKind::failed, "FAILED"},
    {VerdictKind::not_comparable, "NOT_COMPARABLE"},
    {VerdictKind::acknowledged, "ACKNOWLEDGED"},
}};
}  // namespace

std::string_view to_string(VerdictKind k) {
  for (const auto& [kind, name] : kNames)
    if (kind == k) return name;
  return "INCONCLUSIVE";
}

VerdictKind verdict_kind_from_string(std::string_view s) {
  for (const auto& [kind, name] : kNames)
    if (name == s) return kind;
  throw InputError("unknown verdict '" + std::string(s) + "'");
}

}  // namespace perfgate
