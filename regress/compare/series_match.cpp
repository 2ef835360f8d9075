#include "series_match.hpp"

#include <map>

namespace perfgate::regress::detail {

std::vector<MatchedSeries> match_series(const std::vector<Run>& baseline, const Run& candidate) {
  using Key = std::pair<std::string, std::optional<Scale>>;
  std::map<Key, MatchedSeries> by_key;
  const auto entry = [&](const Result& r) -> MatchedSeries& {
    Key key{r.key.id(), r.scale};
    auto [it, inserted] = by_key.try_emplace(key);
    if (inserted) {
      it->second.id = key.first;
      it->second.scale = r.scale;
    }
    return it->second;
  };
  for (const Run& run : baseline)
    for (const Result& r : run.results) entry(r).baseline.push_back(&r);
  // A duplicated series in the candidate keeps its first result: a run holds one per series.
  for (const Result& r : candidate.results) {
    MatchedSeries& m = entry(r);
    if (!m.candidate) m.candidate = &r;
  }
  std::vector<MatchedSeries> out;
  out.reserve(by_key.size());
  for (auto& [key, m] : by_key) out.push_back(std::move(m));
  return out;
}

}  // namespace perfgate::regress::detail
