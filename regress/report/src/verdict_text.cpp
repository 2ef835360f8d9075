#include "verdict_text.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace perfgate::report::detail {

namespace {
double change_size(const VerdictRecord& v) {
  if (!v.ratio || !(*v.ratio > 0) || !std::isfinite(*v.ratio)) return 0;
  return std::fabs(std::log(*v.ratio));
}
bool usable(const std::optional<double>& x) {
  return x && std::isfinite(*x);
}
}  // namespace

std::vector<const VerdictRecord*> worst_first(const std::vector<VerdictRecord>& verdicts) {
  std::vector<const VerdictRecord*> out;
  out.reserve(verdicts.size());
  for (const auto& v : verdicts) out.push_back(&v);
  std::stable_sort(out.begin(), out.end(), [](const VerdictRecord* a, const VerdictRecord* b) {
    const int ra = severity_rank(a->kind), rb = severity_rank(b->kind);
    if (ra != rb) return ra < rb;
    return change_size(*a) > change_size(*b);
  });
  return out;
}

std::map<VerdictKind, std::size_t> count_verdicts(const std::vector<VerdictRecord>& verdicts) {
  std::map<VerdictKind, std::size_t> counts;
  for (const auto& v : verdicts) ++counts[v.kind];
  return counts;
}

std::string format_change(const std::optional<double>& ratio) {
  if (!usable(ratio)) return "n/a";
  return fmt::format("{:+.1f}%", (*ratio - 1.0) * 100.0);
}

std::string format_interval(const std::optional<double>& low, const std::optional<double>& high) {
  if (!usable(low) || !usable(high)) return "n/a";
  return fmt::format("[{:+.1f}%, {:+.1f}%]", (*low - 1.0) * 100.0, (*high - 1.0) * 100.0);
}

std::string format_p(const std::optional<double>& p) {
  if (!usable(p)) return "n/a";
  if (*p < 1e-6) return "<1e-6";
  if (*p < 0.001) return fmt::format("{:.1e}", *p);
  return fmt::format("{:.4f}", *p);
}

std::string format_tolerance(double tolerance) {
  return fmt::format("±{:.1f}%", tolerance * 100.0);
}

std::string format_counts(const VerdictRecord& v) {
  return fmt::format("{}/{}", v.n_baseline, v.n_candidate);
}

std::string evidence_sentence(const VerdictRecord& v) {
  std::string s = usable(v.ratio) ? fmt::format("{} {}", format_change(v.ratio),
                                                format_interval(v.ratio_low, v.ratio_high))
                                  : std::string("no estimate");
  s += fmt::format(", p_adj {}, tolerance {}, n {}",
                   format_p(v.p_adjusted ? v.p_adjusted : v.p_value), format_tolerance(v.tolerance),
                   format_counts(v));
  if (v.repetitions_needed > 0)
    s += fmt::format(", needs {} repetitions per side", v.repetitions_needed);
  s += gate_evidence(v.details);
  if (!v.reason.empty()) s += " (" + v.reason + ")";
  return s;
}

std::string gate_evidence(const nlohmann::json& details) {
  std::string s;
  const auto number = [](const nlohmann::json& j, const char* key) -> std::optional<double> {
    if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return std::nullopt;
    return j[key].get<double>();
  };
  const auto text = [](const nlohmann::json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>()
                                                                  : std::string("?");
  };
  if (const auto it = details.find("block_test"); it != details.end() && it->is_object()) {
    const auto blocks = fmt::format("{} vs {}", number(*it, "baseline_blocks").value_or(0),
                                    number(*it, "candidate_blocks").value_or(0));
    if (const auto p = number(*it, "p_value"))
      s += fmt::format(", blocks p {} ({})", format_p(p), blocks);
    else if (it->contains("skipped"))
      s += fmt::format(", block test skipped ({} blocks)", blocks);
  }
  const auto it = details.find("confirmation");
  if (it == details.end() || !it->is_object() || !it->contains("first")) return s;
  const nlohmann::json& first = (*it)["first"];
  const nlohmann::json second = it->value("second", nlohmann::json::object());
  const std::string first_look = fmt::format("first look {} {}", text(first, "verdict"),
                                             format_change(number(first, "ratio")));
  const int added = static_cast<int>(number(*it, "added_blocks").value_or(0));
  const std::string outcome = text(*it, "outcome");
  if (outcome == "confirmed")
    return s + fmt::format(", confirmed with {} more blocks ({})", added, first_look);
  if (outcome == "not_measured") {
    const nlohmann::json measured = it->value("measured_blocks", nlohmann::json::object());
    std::string counts = fmt::format("candidate {}", number(measured, "candidate").value_or(0));
    if (const auto baseline = number(measured, "baseline"))
      counts = fmt::format("baseline {}, ", *baseline) + counts;
    s += fmt::format(", {}, not measured again: {} of {} confirming blocks", first_look, counts,
                     added);
    // The first block that missed it says why (a crash, a timeout, a skip); the rest are counted.
    const nlohmann::json why = it->value("unmeasured", nlohmann::json::array());
    if (why.is_array() && !why.empty() && why.front().is_string())
      s += fmt::format(" ({}{})", why.front().get<std::string>(),
                       why.size() > 1 ? fmt::format(", and {} more", why.size() - 1) : "");
    return s;
  }
  if (outcome == "second_look_stands")
    return s + fmt::format(", {}, second look {} with {} more blocks", first_look,
                           text(second, "verdict"), added);
  return s + fmt::format(", {}, not raised again with {} more blocks", first_look, added);
}

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace perfgate::report::detail
