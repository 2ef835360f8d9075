#include "perfgate/core/model.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "perfgate/core/error.hpp"
#include "perfgate/core/identity.hpp"

namespace perfgate {

std::string SeriesKey::name() const {
  std::string out = family;
  for (const auto& [k, v] : params) out += "/" + k + ":" + v;
  return out;
}

std::string SeriesKey::id() const {
  return name() + "@" + metric;
}

SeriesKey SeriesKey::parse_id(const std::string& text) {
  const auto at = text.rfind('@');
  if (at == std::string::npos || at == 0 || at + 1 == text.size())
    throw InputError("series '" + text + "': expected FAMILY[/KEY:VALUE...]@METRIC");
  SeriesKey key;
  key.metric = text.substr(at + 1);
  const std::string name = text.substr(0, at);
  std::size_t pos = name.find('/');
  key.family = name.substr(0, pos);
  while (pos != std::string::npos) {
    const std::size_t next = name.find('/', pos + 1);
    const std::string part =
        name.substr(pos + 1, next == std::string::npos ? next : next - pos - 1);
    const auto colon = part.find(':');
    if (colon == std::string::npos || colon == 0)
      throw InputError("series '" + text + "': parameter '" + part + "' is not KEY:VALUE");
    key.params[part.substr(0, colon)] = part.substr(colon + 1);
    pos = next;
  }
  return key;
}

namespace {
template <typename Enum, std::size_t N>
Enum parse_enum(std::string_view s, const std::array<Enum, N>& values, const char* what) {
  for (Enum v : values)
    if (to_string(v) == s) return v;
  std::string expected;
  for (Enum v : values) expected += (expected.empty() ? "" : ", ") + std::string(to_string(v));
  throw InputError("unknown " + std::string(what) + " '" + std::string(s) + "' (expected " +
                   expected + ")");
}
}  // namespace

std::string_view to_string(ResultStatus s) {
  switch (s) {
    case ResultStatus::ok:
      return "ok";
    case ResultStatus::error:
      return "error";
    case ResultStatus::skipped:
      return "skipped";
    case ResultStatus::timeout:
      return "timeout";
    case ResultStatus::crashed:
      return "crashed";
  }
  return "error";
}
ResultStatus result_status_from_string(std::string_view s) {
  return parse_enum(s,
                    std::array{ResultStatus::ok, ResultStatus::error, ResultStatus::skipped,
                               ResultStatus::timeout, ResultStatus::crashed},
                    "result status");
}

std::string_view to_string(RunStatus s) {
  switch (s) {
    case RunStatus::complete:
      return "complete";
    case RunStatus::partial:
      return "partial";
    case RunStatus::failed:
      return "failed";
  }
  return "failed";
}
RunStatus run_status_from_string(std::string_view s) {
  return parse_enum(s, std::array{RunStatus::complete, RunStatus::partial, RunStatus::failed},
                    "run status");
}

std::string_view to_string(Trigger t) {
  switch (t) {
    case Trigger::nightly:
      return "nightly";
    case Trigger::premerge:
      return "premerge";
    case Trigger::adhoc:
      return "adhoc";
  }
  return "adhoc";
}
Trigger trigger_from_string(std::string_view s) {
  return parse_enum(s, std::array{Trigger::nightly, Trigger::premerge, Trigger::adhoc}, "trigger");
}

Summary summarize(const std::vector<double>& samples) {
  Summary s;
  s.n = samples.size();
  if (samples.empty()) return s;
  std::vector<double> v = samples;
  std::sort(v.begin(), v.end());
  auto median_of_sorted = [](const std::vector<double>& x) {
    const std::size_t n = x.size();
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
  };
  s.min = v.front();
  s.max = v.back();
  s.median = median_of_sorted(v);
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  for (double& x : v) x = std::fabs(x - s.median);
  std::sort(v.begin(), v.end());
  s.mad = median_of_sorted(v);
  return s;
}

std::string Fingerprint::digest() const {
  const nlohmann::json canonical(comparable);  // std::map: keys already sorted
  return fnv1a64_hex(canonical.dump());
}

std::vector<std::string> differing_keys(const Fingerprint& a, const Fingerprint& b,
                                        const std::vector<std::string>& ignored) {
  std::set<std::string> keys;
  for (const auto& [k, _] : a.comparable) keys.insert(k);
  for (const auto& [k, _] : b.comparable) keys.insert(k);
  std::vector<std::string> out;
  for (const auto& k : keys) {
    if (std::find(ignored.begin(), ignored.end(), k) != ignored.end()) continue;
    const auto ia = a.comparable.find(k);
    const auto ib = b.comparable.find(k);
    const bool same =
        ia != a.comparable.end() && ib != b.comparable.end() && ia->second == ib->second;
    if (!same) out.push_back(k);
  }
  return out;
}

}  // namespace perfgate
