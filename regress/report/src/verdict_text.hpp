#pragma once
// Wording and ordering shared by every reporter, so that all formats say the same thing.
#include <string>
#include <vector>

#include "perfgate/report/report.hpp"

namespace perfgate::report::detail {

// Verdicts sorted worst first: by severity, then by the size of the change.
std::vector<const VerdictRecord*> worst_first(const std::vector<VerdictRecord>& verdicts);
// Count per verdict kind, taken from the verdicts themselves.
std::map<VerdictKind, std::size_t> count_verdicts(const std::vector<VerdictRecord>& verdicts);

// "+12.3%" for a ratio of 1.123; "n/a" when absent.
std::string format_change(const std::optional<double>& ratio);
// "[+10.1%, +14.0%]"; "n/a" when either end is absent.
std::string format_interval(const std::optional<double>& low, const std::optional<double>& high);
// "0.0012", "<1e-6", "n/a".
std::string format_p(const std::optional<double>& p);
// "±2.0%".
std::string format_tolerance(double tolerance);
// "12/10" (baseline/candidate samples).
std::string format_counts(const VerdictRecord& v);
// One-sentence evidence: "+12.3% [+10.1%, +14.0%], p_adj 0.0012, tolerance ±2.0%, n 10/10
// (reason)", with a gate's block test and confirmation (gate_evidence) before the reason.
std::string evidence_sentence(const VerdictRecord& v);
// What a gate adds to a verdict's evidence, from its details: the block test's p and block
// counts (or that it was skipped), and what a confirming look said: confirmed, not raised
// again, not measured again, or its own verdict standing. Empty for other verdicts.
std::string gate_evidence(const nlohmann::json& details);

// Escapes & < > " ' for HTML text and attribute values.
std::string html_escape(const std::string& text);

}  // namespace perfgate::report::detail
