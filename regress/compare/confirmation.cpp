#include "perfgate/regress/confirmation.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "comparison_summary.hpp"

namespace perfgate::regress {

namespace {

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

std::size_t count_of(const std::map<std::string, std::size_t>& counts, const std::string& id) {
  const auto it = counts.find(id);
  return it == counts.end() ? 0 : it->second;
}

// One side's blocks: each series counted where a block holds an ok result with samples of it,
// and a line saying why where it does not.
void scan_side(const std::vector<Run>& blocks, const std::string& side, int first_block,
               const std::set<std::string>& series, std::map<std::string, std::size_t>& counts,
               std::map<std::string, std::vector<std::string>>& unmeasured) {
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const std::string block = fmt::format("{} block {}", side, first_block + int(b));
    const auto& results = blocks[b].results;
    for (const std::string& id : series) {
      const auto r = std::find_if(results.begin(), results.end(),
                                  [&](const Result& x) { return x.key.id() == id; });
      if (r == results.end())
        unmeasured[id].push_back(block + ": absent");
      else if (r->status != ResultStatus::ok)
        unmeasured[id].push_back(fmt::format("{}: {}{}", block, to_string(r->status),
                                             r->message.empty() ? "" : " (" + r->message + ")"));
      else if (r->summary.n == 0)
        unmeasured[id].push_back(block + ": no samples");
      else
        ++counts[id];
    }
  }
}

}  // namespace

ConfirmingBlocks confirming_blocks(int requested, bool has_baseline_blocks,
                                   const std::vector<Run>& baseline,
                                   const std::vector<Run>& candidate, int first_block,
                                   const std::set<std::string>& series) {
  ConfirmingBlocks out{requested, has_baseline_blocks, {}, {}, {}};
  scan_side(baseline, "baseline", first_block, series, out.baseline, out.unmeasured);
  scan_side(candidate, "candidate", first_block, series, out.candidate, out.unmeasured);
  return out;
}

std::set<std::string> alarmed_series(const Comparison& c) {
  std::set<std::string> ids;
  for (const VerdictRecord& v : c.verdicts)
    if (is_alarm(v.kind)) ids.insert(v.series_id);
  return ids;
}

Comparison confirm_alarms(Comparison first, const Comparison& second,
                          const ConfirmingBlocks& blocks, double alpha) {
  const auto requested = static_cast<std::size_t>(std::max(blocks.requested, 0));
  for (VerdictRecord& v : first.verdicts) {
    if (!is_alarm(v.kind)) continue;
    const std::size_t baseline_blocks = count_of(blocks.baseline, v.series_id);
    const std::size_t candidate_blocks = count_of(blocks.candidate, v.series_id);
    nlohmann::json measured = {{"candidate", candidate_blocks}};
    if (blocks.has_baseline_blocks) measured["baseline"] = baseline_blocks;
    nlohmann::json record = {
        {"added_blocks", blocks.requested}, {"measured_blocks", measured}, {"first", look(v)}};
    if (const auto why = blocks.unmeasured.find(v.series_id); why != blocks.unmeasured.end())
      record["unmeasured"] = why->second;
    const bool fully_measured = candidate_blocks >= requested &&
                                (!blocks.has_baseline_blocks || baseline_blocks >= requested);
    const auto again = std::find_if(second.verdicts.begin(), second.verdicts.end(),
                                    [&](const VerdictRecord& s) { return same_series(s, v); });
    const VerdictKind first_kind = v.kind;
    if (again == second.verdicts.end()) {
      record["second"] = {{"verdict", "absent"}};
      v.kind = VerdictKind::inconclusive;
      v.reason = "alarm_not_confirmed";
    } else {
      record["second"] = look(*again);
      v = *again;
    }
    std::string outcome = "confirmed";
    if (stands_as_is(v.kind)) {
      outcome = "second_look_stands";
    } else if (!fully_measured) {
      v.kind = VerdictKind::not_comparable;
      v.reason = "confirmation_not_measured";
      outcome = "not_measured";
    } else if (v.kind != first_kind) {
      v.kind = VerdictKind::inconclusive;
      v.reason = "alarm_not_confirmed";
      outcome = "not_confirmed";
    }
    record["outcome"] = outcome;
    v.details["confirmation"] = record;
  }
  // The second look covers every block: its runs and differing fingerprint keys describe the
  // whole gate (a pooled candidate carries its first block's fingerprint, so the keys are
  // those any baseline process differs in from it).
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
