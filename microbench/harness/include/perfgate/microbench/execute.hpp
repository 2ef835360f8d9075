#pragma once
// One case, end to end inside the measuring process: problem, check, warm-up, samples.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "perfgate/core/model.hpp"
#include "perfgate/microbench/registry.hpp"
#include "perfgate/microbench/sampling.hpp"

namespace perfgate::microbench {

// What the parent hands a measuring child (serialised as JSON on its command line).
struct CaseRequest {
  std::string family, backend, variant;
  Params params;  // the family's axes only (backend/impl are added to the series key)
  SamplingPolicy policy;
  std::uint64_t seed = 42;
  int slowdown = 1;  // test hook: every timed invocation runs the body this many times

  SeriesKey key() const;  // family + params + backend + impl, metric "time"
};

nlohmann::json to_json(const CaseRequest& c);
CaseRequest case_request_from_json(const nlohmann::json& j, const std::string& source);

// Runs the case in this process. Never throws for a failing case: a correctness failure or an
// exception from the implementation comes back as status error with the message.
// Samples are nanoseconds per invocation; extra carries counters, check and sampling notes.
Result execute_case(const CaseRequest& request, const Registry& registry = Registry::instance());

// PERFGATE_TEST_SLOWDOWN=family:factor[,family:factor...] (a test hook): the factor for `family`.
int slowdown_from_env(const std::string& family);

}  // namespace perfgate::microbench
