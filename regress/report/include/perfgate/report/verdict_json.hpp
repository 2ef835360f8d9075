#pragma once
// One verdict with its full evidence as JSON: the shape `compare --format json`, the JSON report
// and `perfgate verdicts` share.
#include <nlohmann/json.hpp>

#include "perfgate/core/verdict.hpp"

namespace perfgate::report {

nlohmann::json verdict_json(const VerdictRecord& v);

}  // namespace perfgate::report
