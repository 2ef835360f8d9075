#include "acks.hpp"

#include "verdict_rules.hpp"

namespace perfgate::regress::detail {

AckRules::AckRules(const std::vector<Ack>& acks, const std::string& now) {
  // ISO-8601 UTC timestamps of one format order as strings do.
  for (const Ack& a : acks) {
    if (!a.expires_at.empty() && a.expires_at <= now) continue;
    active_.emplace_back(SeriesPattern(a.pattern), a);
  }
}

void AckRules::apply(VerdictRecord& verdict, Direction direction) const {
  if (verdict.kind != VerdictKind::regression || !verdict.ratio) return;
  for (auto it = active_.rbegin(); it != active_.rend(); ++it) {  // newest ack first
    const auto& [pattern, ack] = *it;
    if (!pattern.matches(verdict.series_id)) continue;
    verdict.details["ack"] = {{"id", ack.id},
                              {"reason", ack.reason},
                              {"author", ack.author},
                              {"expires_at", ack.expires_at}};
    if (ack.expected_ratio) {
      verdict.details["ack"]["expected_ratio"] = *ack.expected_ratio;
      // Grown beyond the acknowledged level by more than the tolerance: alert again.
      const double limit = worse_ratio(*ack.expected_ratio, direction) * (1 + verdict.tolerance);
      if (worse_ratio(*verdict.ratio, direction) > limit) {
        verdict.reason = "ack_exceeded";
        return;
      }
    }
    verdict.kind = VerdictKind::acknowledged;
    verdict.reason = "acknowledged";
    return;
  }
}

}  // namespace perfgate::regress::detail
