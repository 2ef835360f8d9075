#include "gate_pool.hpp"

#include <algorithm>
#include <map>

#include "perfgate/core/error.hpp"
#include "perfgate/core/identity.hpp"

namespace perfgate::cli {

Run pool_runs(const std::vector<Run>& runs) {
  if (runs.empty()) throw InputError("gate: no runs to pool");
  Run pooled = runs.front();
  pooled.uuid = new_uuid();
  pooled.results.clear();
  std::string sources;
  std::map<std::string, std::size_t> index;  // series id → position in pooled.results
  for (const Run& run : runs) {
    sources += (sources.empty() ? "" : ",") + run.uuid;
    if (run.status != RunStatus::complete) pooled.status = run.status;
    pooled.ended_at = run.ended_at;
    for (const Result& r : run.results) {
      const auto [it, fresh] = index.emplace(r.key.id(), pooled.results.size());
      if (fresh) {
        pooled.results.push_back(r);
        continue;
      }
      Result& into = pooled.results[it->second];
      if (into.status == ResultStatus::ok && r.status != ResultStatus::ok) {
        into.status = r.status;
        into.message = r.message;
      }
      into.samples.insert(into.samples.end(), r.samples.begin(), r.samples.end());
    }
  }
  for (Result& r : pooled.results)
    if (!r.samples.empty()) r.summary = summarize(r.samples);
  pooled.labels["pooled_from"] = sources;
  return pooled;
}

}  // namespace perfgate::cli
