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

int severity_rank(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::regression:
      return 0;
    case VerdictKind::failed:
      return 1;
    case VerdictKind::not_comparable:
      return 2;
    case VerdictKind::missing:
      return 3;
    case VerdictKind::inconclusive:
      return 4;
    case VerdictKind::acknowledged:
      return 5;
    case VerdictKind::new_series:
      return 6;
    case VerdictKind::improvement:
      return 7;
    case VerdictKind::same:
      return 8;
  }
  return 9;
}

}  // namespace perfgate
