#pragma once
// Acknowledged regressions: ACKNOWLEDGED while within the ack's expected level, else re-alert.
#include <string>
#include <utility>
#include <vector>

#include "perfgate/core/model.hpp"
#include "perfgate/core/series_pattern.hpp"
#include "perfgate/core/verdict.hpp"

namespace perfgate::regress::detail {

class AckRules {
 public:
  AckRules(const std::vector<Ack>& acks, const std::string& now);  // drops expired acks
  // Turns a REGRESSION into ACKNOWLEDGED ("acknowledged") or keeps it with "ack_exceeded".
  void apply(VerdictRecord& verdict, Direction direction) const;

 private:
  std::vector<std::pair<SeriesPattern, Ack>> active_;
};

}  // namespace perfgate::regress::detail
