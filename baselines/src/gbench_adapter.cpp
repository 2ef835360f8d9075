// Google Benchmark JSON → Run. Rows are grouped by identity, never by adjacency: with
// --benchmark_enable_random_interleaving the repetitions of one benchmark are scattered.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "perfgate/baselines/gbench.hpp"
#include "perfgate/core/error.hpp"
#include "timestamps.hpp"

namespace perfgate::baselines {

using nlohmann::json;

namespace {

// Fields of a row that are not user counters.
const std::set<std::string>& known_fields() {
  static const std::set<std::string> k = {"name",
                                          "run_name",
                                          "run_type",
                                          "family_index",
                                          "per_family_instance_index",
                                          "repetitions",
                                          "repetition_index",
                                          "threads",
                                          "iterations",
                                          "real_time",
                                          "cpu_time",
                                          "time_unit",
                                          "aggregate_name",
                                          "aggregate_unit",
                                          "error_occurred",
                                          "error_message",
                                          "skipped",
                                          "skip_message",
                                          "label",
                                          "big_o",
                                          "cpu_coefficient",
                                          "real_coefficient",
                                          "rms",
                                          "complexity_n"};
  return k;
}

const char* const kOldAggregateSuffixes[] = {"_mean", "_median", "_stddev", "_cv"};

enum class RowKind { iteration, aggregate, complexity };

struct Row {
  std::size_t index;
  const json* j;
  RowKind kind;
  std::string group_name;      // run_name, or the name without an aggregate suffix
  std::string aggregate_name;  // mean, median, stddev, cv, BigO, RMS
  long long repetition = 0;    // repetition_index, validated when the row is classified
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

class RowReader {
 public:
  RowReader(const json& j, std::size_t index, const std::string& source)
      : j_(j), where_(source + ": benchmarks[" + std::to_string(index) + "]") {}
  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    throw InputError(where_ + (field.empty() ? "" : "." + field) + ": " + problem);
  }
  std::string str(const std::string& f, const std::string& def = {}) const {
    const auto it = j_.find(f);
    if (it == j_.end() || it->is_null()) return def;
    if (!it->is_string()) fail(f, "expected a string");
    return it->get<std::string>();
  }
  bool flag(const std::string& f) const {
    const auto it = j_.find(f);
    if (it == j_.end() || it->is_null()) return false;
    if (it->is_boolean()) return it->get<bool>();
    if (it->is_number()) return it->get<double>() != 0;
    fail(f, "expected a boolean");
  }
  std::optional<double> number(const std::string& f) const {
    const auto it = j_.find(f);
    if (it == j_.end() || it->is_null()) return std::nullopt;
    if (!it->is_number()) fail(f, "expected a number");
    return it->get<double>();
  }
  long long integer(const std::string& f, long long def) const {
    const auto v = number(f);
    if (!v) return def;
    if (!(*v >= -9.0e18 && *v <= 9.0e18)) fail(f, "integer out of range");  // the cast's domain
    return static_cast<long long>(*v);
  }

 private:
  const json& j_;
  std::string where_;
};

Row classify(const json& j, std::size_t index, const std::string& source) {
  const RowReader r(j, index, source);
  if (!j.is_object()) r.fail("", "expected an object");
  const std::string name = r.str("name");
  if (name.empty()) r.fail("name", "missing");
  Row row{
      index, &j, RowKind::iteration, r.str("run_name", name), {}, r.integer("repetition_index", 0)};
  const std::string run_type = r.str("run_type");
  if (run_type == "aggregate" && j.contains("aggregate_name")) {
    row.aggregate_name = r.str("aggregate_name");
    row.kind = (row.aggregate_name == "BigO" || row.aggregate_name == "RMS") ? RowKind::complexity
                                                                             : RowKind::aggregate;
  } else if (run_type.empty()) {
    // Files from before run_type existed mark aggregates only by a name suffix.
    if (ends_with(name, "_BigO") || ends_with(name, "_RMS") || j.contains("big_o") ||
        j.contains("rms")) {
      row.kind = RowKind::complexity;
      row.aggregate_name = j.contains("rms") || ends_with(name, "_RMS") ? "RMS" : "BigO";
      row.group_name = name.substr(0, name.rfind('_'));
    } else {
      for (const char* suffix : kOldAggregateSuffixes) {
        if (ends_with(name, suffix)) {
          row.kind = RowKind::aggregate;
          row.aggregate_name = std::string(suffix).substr(1);
          row.group_name = name.substr(0, name.size() - row.aggregate_name.size() - 1);
          break;
        }
      }
    }
  }
  // An "aggregate" row without an aggregate_name names no statistic: it is a measurement
  // (Google Benchmark's own compare.py treats every row of a name as a sample too).
  return row;
}

using GroupKey = std::tuple<long long, long long, std::string>;

struct MetricSeries {
  std::string unit;
  Direction direction = Direction::lower_is_better;
  std::vector<double> samples;
  std::map<std::string, double> aggregates;
  std::size_t non_finite = 0;
};

struct Group {
  std::string name;
  std::vector<const Row*> iterations;
  std::vector<const Row*> aggregates;
  std::vector<std::string> errors, skips;
  std::optional<std::string> label;
  long long repetitions = 0;
};

double time_factor(const RowReader& r) {
  const std::string unit = r.str("time_unit", "ns");
  const auto f = time_unit_to_ns(unit);
  if (!f) r.fail("time_unit", "unknown time unit '" + unit + "'");
  return *f;
}

MetricSeries& metric_slot(std::map<std::string, MetricSeries>& metrics, const std::string& name) {
  auto [it, inserted] = metrics.try_emplace(name);
  if (inserted) {
    if (name == "time" || name == "cpu_time") {
      it->second.unit = "ns";
    } else if (name == "bytes_per_second") {
      it->second.unit = "B/s";
      it->second.direction = Direction::higher_is_better;
    } else if (name == "items_per_second") {
      it->second.unit = "items/s";
      it->second.direction = Direction::higher_is_better;
    } else {
      // Custom counters carry no unit in the JSON; most report throughput, so higher is better.
      it->second.unit = "";
      it->second.direction = Direction::higher_is_better;
    }
  }
  return it->second;
}

// Every value a row carries: time, cpu_time and each numeric user counter.
std::map<std::string, double> row_values(const json& j, const RowReader& r, bool convert_time) {
  std::map<std::string, double> out;
  const double f = convert_time ? time_factor(r) : 1.0;
  if (const auto v = r.number("real_time")) out["time"] = *v * f;
  if (const auto v = r.number("cpu_time")) out["cpu_time"] = *v * f;
  for (const auto& [k, v] : j.items())
    if (!known_fields().count(k) && v.is_number()) out[k] = v.get<double>();
  return out;
}

Summary summary_from_aggregates(const MetricSeries& m, long long repetitions) {
  Summary s;
  const auto get = [&](const char* k) -> std::optional<double> {
    const auto it = m.aggregates.find(k);
    return it == m.aggregates.end() ? std::nullopt : std::optional(it->second);
  };
  const auto median = get("median"), mean = get("mean");
  if (!median && !mean) return s;
  s.n = repetitions > 0 ? static_cast<std::size_t>(repetitions) : 1;
  s.median = median.value_or(*mean);
  s.mean = mean.value_or(*median);
  s.min = s.max = s.median;
  return s;
}

void add_group_results(const Group& g, const std::string& source, Run& run) {
  std::map<std::string, MetricSeries> metrics;
  // Repetitions in repetition order when the file says it, else in file order.
  std::vector<const Row*> its = g.iterations;
  std::stable_sort(its.begin(), its.end(),
                   [](const Row* a, const Row* b) { return a->repetition < b->repetition; });
  for (const Row* row : its) {
    const RowReader r(*row->j, row->index, source);
    for (const auto& [name, value] : row_values(*row->j, r, true)) {
      auto& m = metric_slot(metrics, name);
      if (std::isfinite(value))
        m.samples.push_back(value);
      else
        ++m.non_finite;
    }
  }
  for (const Row* row : g.aggregates) {
    const RowReader r(*row->j, row->index, source);
    const bool percentage = r.str("aggregate_unit", "time") == "percentage";
    for (const auto& [name, value] : row_values(*row->j, r, !percentage))
      metric_slot(metrics, name).aggregates[row->aggregate_name] = value;
  }
  if (metrics.empty()) {  // only error/skipped rows: no numbers, but the failure is a result
    metric_slot(metrics, "time");
    metric_slot(metrics, "cpu_time");
  }
  const SplitName split = split_gbench_name(g.name);
  for (auto& [metric, m] : metrics) {
    Result res;
    res.key = {split.family, split.params, metric};
    res.unit = m.unit;
    res.direction = m.direction;
    res.samples = std::move(m.samples);
    res.extra["gbench_name"] = g.name;
    if (g.label) res.extra["label"] = *g.label;
    if (m.non_finite) res.extra["non_finite_samples"] = m.non_finite;
    if (!m.aggregates.empty()) res.extra["gbench_aggregates"] = m.aggregates;
    if (!res.samples.empty()) {
      res.summary = summarize(res.samples);
      const auto mean = m.aggregates.find("mean");
      if (mean != m.aggregates.end() &&
          std::abs(mean->second - res.summary.mean) > 1e-6 * std::abs(mean->second))
        res.extra["gbench_aggregate_mismatch"] = true;
    } else if (!m.aggregates.empty()) {
      res.summary = summary_from_aggregates(m, g.repetitions);
      res.extra["summary_from"] = "gbench_aggregates";
    }
    if (!g.errors.empty()) {
      res.status = ResultStatus::error;
      res.message = g.errors.front();
    } else if (!g.skips.empty() && res.samples.empty()) {
      res.status = ResultStatus::skipped;
      res.message = g.skips.front();
    }
    run.results.push_back(std::move(res));
  }
}

void read_context(const json& doc, Run& run) {
  if (!doc.contains("context") || !doc["context"].is_object()) return;
  const json& c = doc["context"];
  run.metadata["gbench_context"] = c;
  const auto text = [&](const char* k) -> std::optional<std::string> {
    if (!c.contains(k) || c[k].is_null()) return std::nullopt;
    return c[k].is_string() ? c[k].get<std::string>() : c[k].dump();
  };
  if (const auto date = text("date")) run.started_at = normalise_timestamp(*date).value_or("");
  if (const auto v = text("num_cpus")) run.fingerprint.comparable["cpu.cores"] = *v;
  if (const auto v = text("mhz_per_cpu")) run.fingerprint.comparable["cpu.mhz"] = *v;
  if (const auto v = text("library_build_type")) run.fingerprint.comparable["build.type"] = *v;
  if (const auto v = text("host_name")) run.fingerprint.info["host"] = *v;
  if (const auto v = text("executable")) run.fingerprint.info["executable"] = *v;
  if (const auto v = text("library_version")) run.fingerprint.info["gbench.version"] = *v;
}

}  // namespace

bool looks_like_gbench(const json& doc) {
  return doc.is_object() && doc.contains("benchmarks") && !doc.contains("perfgate");
}

Run from_gbench_json(const json& doc, const std::string& source) {
  if (!doc.is_object()) throw InputError(source + ": expected a JSON object at the top level");
  if (!doc.contains("benchmarks") || !doc["benchmarks"].is_array())
    throw InputError(source + ": benchmarks: expected an array of Google Benchmark rows");
  Run run;
  run.suite = "gbench";
  read_context(doc, run);

  const json& rows_json = doc["benchmarks"];
  std::vector<Row> rows;
  rows.reserve(rows_json.size());
  for (std::size_t i = 0; i < rows_json.size(); ++i)
    rows.push_back(classify(rows_json[i], i, source));

  std::map<GroupKey, Group> groups;
  std::vector<GroupKey> order;  // first appearance, so results keep the file's order
  for (const Row& row : rows) {
    const RowReader r(*row.j, row.index, source);
    if (row.kind == RowKind::complexity) {
      run.metadata["gbench_complexity"][row.group_name][row.aggregate_name] = *row.j;
      continue;
    }
    const GroupKey key{r.integer("family_index", -1), r.integer("per_family_instance_index", -1),
                       row.group_name};
    auto [it, inserted] = groups.try_emplace(key);
    if (inserted) order.push_back(key);
    Group& g = it->second;
    g.name = row.group_name;
    g.repetitions = std::max(g.repetitions, r.integer("repetitions", 0));
    if (!r.str("label").empty()) g.label = r.str("label");
    if (r.flag("error_occurred")) {
      g.errors.push_back(r.str("error_message", "error_occurred"));
    } else if (r.flag("skipped") || row.j->contains("skip_message")) {
      g.skips.push_back(r.str("skip_message", "skipped"));
    } else if (row.kind == RowKind::aggregate) {
      g.aggregates.push_back(&row);
    } else {
      g.iterations.push_back(&row);
    }
  }
  std::set<std::string> seen;
  for (const auto& key : order) {
    add_group_results(groups.at(key), source, run);
  }
  for (const auto& r : run.results)
    if (!seen.insert(r.key.id()).second)
      throw InputError(source + ": two benchmarks map to series " + r.key.id());
  return run;
}

}  // namespace perfgate::baselines
