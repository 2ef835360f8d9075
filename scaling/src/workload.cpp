#include "perfgate/scaling/workload.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <set>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate::scaling {

namespace {

std::string str(long long v) {
  return std::to_string(v);
}

std::vector<std::string> collectives_argv(const SweepPlan& plan, const ProgramPaths& programs,
                                          const std::filesystem::path& output) {
  const Workload& w = plan.workload;
  const auto [lo, hi] = std::minmax_element(w.sizes.begin(), w.sizes.end());
  std::vector<std::string> argv{programs.collectives, "--backend", w.backend};
  switch (w.kind) {
    case WorkloadKind::collective:
      argv.insert(argv.end(),
                  {"--collective", w.collective, "-b", str(*lo), "-e", str(*hi), "-f", "2"});
      break;
    case WorkloadKind::overlap:
      argv.insert(argv.end(), {"--mode", "overlap", "-b", str(*hi), "-e", str(*hi)});
      break;
    case WorkloadKind::buckets:
      argv.insert(argv.end(), {"--mode", "buckets", "--bucket-total", str(*hi)});
      break;
    case WorkloadKind::step_proxy:
      break;
  }
  argv.insert(argv.end(),
              {"-w", std::to_string(w.warmup), "-n", std::to_string(w.iters), "--repetitions",
               std::to_string(w.repetitions), "--suite", plan.name, "--output", output.string()});
  return argv;
}

std::vector<std::string> step_proxy_argv(const SweepPlan& plan, const ScalePoint& point,
                                         const ProgramPaths& programs,
                                         const std::filesystem::path& output) {
  const StepProxyShape& m = plan.workload.proxy;
  int batch = m.batch;
  if (plan.mode == ScalingMode::strong) {
    if (m.batch % point.ranks() != 0)
      throw InputError(
          fmt::format("{}: model.batch: strong scaling needs the global batch {} to divide "
                      "over {} ranks",
                      plan.source, m.batch, point.ranks()));
    batch = m.batch / point.ranks();
  }
  const Workload& w = plan.workload;
  return {programs.step_proxy,
          "--backend",
          w.backend,
          "--layers",
          std::to_string(m.layers),
          "--hidden",
          std::to_string(m.hidden),
          "--heads",
          std::to_string(m.heads),
          "--seq",
          std::to_string(m.seq),
          "--batch",
          std::to_string(batch),
          "--bucket-bytes",
          str(m.bucket_bytes),
          "--warmup",
          std::to_string(w.warmup),
          "--iters",
          std::to_string(w.iters),
          "--repetitions",
          std::to_string(w.repetitions),
          "--suite",
          plan.name,
          "--output",
          output.string()};
}

double median_of(const Result& r) {
  return r.summary.n ? r.summary.median : summarize(r.samples).median;
}

std::vector<double> doubles(const nlohmann::json& j) {
  std::vector<double> out;
  if (j.is_array())
    for (const auto& v : j)
      if (v.is_number()) out.push_back(v.get<double>());
  return out;
}

// A rank as a document writes it: an integer from 0 to INT_MAX; nullopt for anything else.
std::optional<int> rank_value(const nlohmann::json& v) {
  if (!v.is_number_integer()) return std::nullopt;
  // A parser makes a non-negative integer unsigned; one set in code may be signed.
  const bool fits = v.is_number_unsigned()
                        ? v.get<std::uint64_t>() <= std::uint64_t(INT_MAX)
                        : v.get<std::int64_t>() >= 0 && v.get<std::int64_t>() <= INT_MAX;
  return fits ? std::optional<int>(static_cast<int>(v.get<std::int64_t>())) : std::nullopt;
}

// Straggler ranks, as bare ranks or {"rank": r, ...}; entries of another shape are passed over.
std::vector<int> ranks_of(const nlohmann::json& j) {
  std::vector<int> out;
  if (!j.is_array()) return out;
  for (const auto& v : j) {
    const auto rank = v.is_object() && v.contains("rank") ? rank_value(v["rank"]) : rank_value(v);
    if (rank) out.push_back(*rank);
  }
  return out;
}

// extra.best of a bucket result: absent is false; any other type than a boolean is refused (the
// document came from another program, and a wrong type must refuse the point, not end the sweep).
bool marked_best(const Result& r, const std::string& source, const std::string& family) {
  const auto best = r.extra.find("best");
  if (best == r.extra.end()) return false;
  if (!best->is_boolean())
    throw InputError(fmt::format("{}: {}: extra.best: expected true or false, not {}", source,
                                 family, best->dump()));
  return best->get<bool>();
}

// Results of one family keyed by (params minus `drop`, metric).
struct Found {
  std::map<Params, std::map<std::string, const Result*>> by_case;
};

Found collect(const Run& doc, const std::string& family,
              const std::map<std::string, std::string>& where, const std::set<std::string>& drop) {
  Found f;
  for (const Result& r : doc.results) {
    if (r.key.family != family || r.status != ResultStatus::ok) continue;
    bool match = true;
    for (const auto& [k, v] : where) {
      auto it = r.key.params.find(k);
      if (it == r.key.params.end() || it->second != v) match = false;
    }
    if (!match) continue;
    Params p = r.key.params;
    for (const auto& k : drop) p.erase(k);
    f.by_case[p][r.key.metric] = &r;
  }
  return f;
}

const Result& need(const std::map<std::string, const Result*>& metrics, const std::string& metric,
                   const std::string& source, const std::string& family) {
  auto it = metrics.find(metric);
  if (it == metrics.end())
    throw InputError(fmt::format("{}: {}: no '{}' result", source, family, metric));
  return *it->second;
}

std::vector<PointMeasure> read_collective(const SweepPlan& plan, const Run& doc,
                                          const std::string& source) {
  const std::string family = "collectives." + plan.workload.collective;
  const Found f = collect(doc, family, {{"inplace", "0"}}, {"inplace"});
  std::vector<PointMeasure> out;
  for (long long bytes : plan.workload.sizes) {
    bool found = false;
    for (const auto& [params, metrics] : f.by_case) {
      auto b = params.find("bytes");
      if (b == params.end() || b->second != std::to_string(bytes)) continue;
      const Result& t = need(metrics, "time", source, family);
      const Result& bw = need(metrics, "busbw", source, family);
      PointMeasure m;
      m.case_name = "bytes:" + std::to_string(bytes);
      m.params = params;
      m.time_us = t.samples;
      m.busbw_gbps = median_of(bw);
      m.per_rank_throughput = *m.busbw_gbps;
      m.throughput_unit = "GB/s";
      m.per_rank_us = doubles(t.extra.value("per_rank_us", nlohmann::json()));
      m.straggler_ranks = ranks_of(t.extra.value("stragglers", nlohmann::json()));
      out.push_back(std::move(m));
      found = true;
      break;
    }
    if (!found)
      throw InputError(
          fmt::format("{}: {}: no out-of-place result for {} bytes", source, family, bytes));
  }
  return out;
}

PointMeasure read_overlap(const Run& doc, const std::string& source) {
  const std::string family = "collectives.overlap";
  const Found f = collect(doc, family, {}, {});
  if (f.by_case.empty()) throw InputError(fmt::format("{}: {}: no results", source, family));
  const auto& [params, metrics] = *f.by_case.rbegin();
  const Result& both = need(metrics, "both_time", source, family);
  PointMeasure m;
  m.case_name = "overlap";
  m.params = params;
  m.time_us = both.samples;
  m.per_rank_throughput = 1e6 / median_of(both);
  m.throughput_unit = "steps/s";
  m.per_rank_us = doubles(both.extra.value("per_rank_us", nlohmann::json()));
  m.straggler_ranks = ranks_of(both.extra.value("stragglers", nlohmann::json()));
  if (auto e = metrics.find("overlap_efficiency"); e != metrics.end())
    m.decomposition = {{"overlap_efficiency", median_of(*e->second)}};
  return m;
}

PointMeasure read_buckets(const Run& doc, const std::string& source) {
  const std::string family = "collectives.bucket_all_reduce";
  const Found f = collect(doc, family, {}, {});
  for (const auto& [params, metrics] : f.by_case) {
    auto bw = metrics.find("busbw");
    if (bw == metrics.end() || !marked_best(*bw->second, source, family)) continue;
    const Result& t = need(metrics, "time", source, family);
    PointMeasure m;
    m.case_name = "best_bucket";
    m.params = params;
    m.time_us = t.samples;
    m.busbw_gbps = median_of(*bw->second);
    m.per_rank_throughput = *m.busbw_gbps;
    m.throughput_unit = "GB/s";
    m.per_rank_us = doubles(t.extra.value("per_rank_us", nlohmann::json()));
    m.straggler_ranks = ranks_of(t.extra.value("stragglers", nlohmann::json()));
    return m;
  }
  throw InputError(fmt::format("{}: {}: no result marked best", source, family));
}

PointMeasure read_step_proxy(const Run& doc, const std::string& source) {
  const std::string family = "step_proxy";
  const Found f = collect(doc, family, {}, {});
  if (f.by_case.empty()) throw InputError(fmt::format("{}: {}: no results", source, family));
  const auto& [params, metrics] = *f.by_case.begin();
  const Result& step = need(metrics, "step_time", source, family);
  PointMeasure m;
  m.case_name = "step";
  m.params = params;
  m.time_us = step.samples;
  m.per_rank_throughput = median_of(need(metrics, "throughput", source, family));
  m.throughput_unit = "samples/s";
  m.per_rank_us = doubles(step.extra.value("per_rank_us", nlohmann::json()));
  m.straggler_ranks = ranks_of(step.extra.value("stragglers", nlohmann::json()));
  // The decomposition comes from one repetition (the median step), so its parts add up:
  // medians taken part by part would not.
  const double median_step = median_of(step);
  std::size_t rep = 0;
  for (std::size_t i = 1; i < step.samples.size(); ++i)
    if (std::abs(step.samples[i] - median_step) < std::abs(step.samples[rep] - median_step))
      rep = i;
  m.decomposition = nlohmann::json::object();
  for (const char* k : {"step_time", "compute_time", "comm_time", "exposed_comm_time", "other_time",
                        "overlap_fraction", "mfu"}) {
    auto it = metrics.find(k);
    if (it == metrics.end()) {
      if (std::string(k) == "other_time") continue;
      need(metrics, k, source, family);
    }
    const Result& r = *it->second;
    m.decomposition[k] = rep < r.samples.size() ? r.samples[rep] : median_of(r);
  }
  // What the proxy verified before timing (documents from before the checks have none).
  const auto proxy = doc.metadata.find("step_proxy");
  if (proxy != doc.metadata.end() && proxy->is_object()) {
    m.checks = nlohmann::json::object();
    for (const char* check : {"gradient_check", "model_check"})
      if (proxy->contains(check)) m.checks[check] = (*proxy)[check];
  }
  return m;
}

// Each rank's identity from the program's metadata ("collectives" or "step_proxy" block).
std::vector<RankInfo> read_ranks(const Run& doc, const std::string& source) {
  std::vector<RankInfo> out;
  for (const char* block : {"collectives", "step_proxy"}) {
    const auto it = doc.metadata.find(block);
    if (it == doc.metadata.end() || !it->is_object() || !it->contains("ranks")) continue;
    const nlohmann::json& ranks = (*it)["ranks"];
    if (!ranks.is_array())
      throw InputError(fmt::format("{}: metadata.{}.ranks: expected an array", source, block));
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      const nlohmann::json& r = ranks[i];
      const auto rank = r.is_object() && r.contains("rank") ? rank_value(r["rank"]) : std::nullopt;
      const auto host = r.is_object() ? r.find("host") : r.end();
      if (!rank || (host != r.end() && !host->is_string()))
        throw InputError(fmt::format(
            "{}: metadata.{}.ranks[{}]: expected {{\"rank\": 0 to {}, \"host\": a name}}, not {}",
            source, block, i, INT_MAX, r.dump()));
      out.push_back({*rank, host != r.end() ? host->get<std::string>() : std::string()});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const RankInfo& a, const RankInfo& b) { return a.rank < b.rank; });
  return out;
}

}  // namespace

std::vector<std::string> workload_argv(const SweepPlan& plan, const ScalePoint& point,
                                       const ProgramPaths& programs,
                                       const std::filesystem::path& output) {
  std::vector<std::string> argv = plan.workload.kind == WorkloadKind::step_proxy
                                      ? step_proxy_argv(plan, point, programs, output)
                                      : collectives_argv(plan, programs, output);
  argv.insert(argv.end(), plan.workload.extra_args.begin(), plan.workload.extra_args.end());
  return argv;
}

PointReadout read_point(const SweepPlan& plan, const Run& doc, const std::string& source) {
  PointReadout out;
  out.fingerprint = doc.fingerprint;
  out.ranks = read_ranks(doc, source);
  switch (plan.workload.kind) {
    case WorkloadKind::collective:
      out.cases = read_collective(plan, doc, source);
      break;
    case WorkloadKind::overlap:
      out.cases = {read_overlap(doc, source)};
      break;
    case WorkloadKind::buckets:
      out.cases = {read_buckets(doc, source)};
      break;
    case WorkloadKind::step_proxy:
      out.cases = {read_step_proxy(doc, source)};
      break;
  }
  return out;
}

}  // namespace perfgate::scaling
