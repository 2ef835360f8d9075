#include "perfgate/regress/confirmation.hpp"

#include <algorithm>

#include "comparison_summary.hpp"

namespace perfgate::regress {

namespace {

bool is_alarm(VerdictKind k) {
  return k == VerdictKind::regression || k == VerdictKind::improvement;
}

// Verdicts that say something other than "faster or slower": a candidate that failed in a
// confirming block, fingerprints that differ, a series gone, an ack that now covers it. They
// stand as the second look gives them (a failure must not pass as a withdrawn alarm).
bool stands_as_is(VerdictKind k) {
  return k == VerdictKind::failed || k == VerdictKind::not_comparable ||
         k == VerdictKind::missing || k == VerdictKind::acknowledged;
}

nlohmann::json look(const VerdictRecord& v) {
  nlohmann::json j = {{"verdict", std::string(to_string(v.kind))}, {"reason", v.reason}};
  if (v.ratio) j["ratio"] = *v.ratio;
  return j;
}

// compare_runs gives one verdict per series and scale.
bool same_series(const VerdictRecord& a, const VerdictRecord& b) {
  return a.series_id == b.series_id &&
         a.details.value("scale", nlohmann::json()) == b.details.value("scale", nlohmann::json());
}

}  // namespace

std::set<std::string> alarmed_series(const Comparison& c) {
  std::set<std::string> ids;
  for (const VerdictRecord& v : c.verdicts)
    if (is_alarm(v.kind)) ids.insert(v.series_id);
  return ids;
}

Comparison confirm_alarms(Comparison first, const Comparison& second, int added_blocks,
                          double alpha) {
  for (VerdictRecord& v : first.verdicts) {
    if (!is_alarm(v.kind)) continue;
    const auto again = std::find_if(second.verdicts.begin(), second.verdicts.end(),
                                    [&](const VerdictRecord& s) { return same_series(s, v); });
    nlohmann::json record = {{"added_blocks", added_blocks}, {"first", look(v)}};
    if (again == second.verdicts.end()) {
      record["second"] = {{"verdict", "absent"}};
      v.kind = VerdictKind::inconclusive;
      v.reason = "alarm_not_confirmed";
      v.details["confirmation"] = record;
      continue;
    }
    record["second"] = look(*again);
    const VerdictKind first_kind = v.kind;
    v = *again;
    if (v.kind != first_kind && !stands_as_is(v.kind)) {
      v.kind = VerdictKind::inconclusive;
      v.reason = "alarm_not_confirmed";
    }
    v.details["confirmation"] = record;
  }
  // The second look covers every block: its runs, and any fingerprint key a confirming
  // process differs in, describe the whole gate.
  first.baseline_runs = second.baseline_runs;
  first.candidate_run = second.candidate_run;
  for (const std::string& key : second.differing_keys)
    if (std::find(first.differing_keys.begin(), first.differing_keys.end(), key) ==
        first.differing_keys.end())
      first.differing_keys.push_back(key);
  detail::summarise(first, alpha);
  return first;
}

}  // namespace perfgate::regress
