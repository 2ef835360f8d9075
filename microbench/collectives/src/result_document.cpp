#include "perfgate/collectives/result_document.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace perfgate::collectives {
namespace {

// `backend` goes into extra, not the key: the run's labels carry it too, and keeping it out of
// the id is what lets NCCL results line up with nccl-tests logs.
Result make_result(SeriesKey key, std::string unit, Direction direction,
                   std::vector<double> samples, const Scale& scale, const std::string& backend) {
  Result r;
  r.key = std::move(key);
  r.unit = std::move(unit);
  r.direction = direction;
  r.samples = std::move(samples);
  r.summary = summarize(r.samples);
  r.scale = scale;
  r.extra["backend"] = backend;
  return r;
}

std::vector<double> bandwidths(const std::vector<double>& times_us, std::size_t bytes,
                               double factor) {
  std::vector<double> bw;
  for (double t : times_us) bw.push_back(algbw_gbps(bytes, t) * factor);
  return bw;
}

}  // namespace

SeriesKey case_key(const CaseMeasurement& m, const std::string& metric) {
  const CollectiveInfo& ci = info(m.shape.collective);
  SeriesKey key;
  key.family = fmt::format("collectives.{}", ci.name);
  key.params = {{"dtype", std::string(series_dtype(m.shape.dtype))},
                {"redop", ci.reduces ? std::string(op_name(m.shape.op)) : "none"},
                {"root", std::to_string(ci.has_root ? m.shape.root : -1)},
                {"bytes", std::to_string(m.bytes)},
                {"inplace", m.in_place ? "1" : "0"}};
  key.metric = metric;
  return key;
}

std::vector<Result> case_results(const CaseMeasurement& m, const Scale& scale) {
  const double factor = busbw_factor(m.shape.collective, m.shape.ranks);
  Result time = make_result(case_key(m, "time"), "us", Direction::lower_is_better, m.sample_us,
                            scale, m.backend);
  time.extra["per_rank_us"] = m.per_rank_us;
  time.extra["avg_us"] = m.avg_us;
  time.extra["min_us"] = m.min_us;
  time.extra["max_us"] = m.max_us;
  time.extra["count"] = m.shape.count;
  time.extra["iterations"] = m.iterations;
  time.extra["busbw_factor"] = factor;
  time.extra["wrong"] = m.wrong ? nlohmann::json(*m.wrong) : nlohmann::json();
  time.extra["stragglers"] = m.stragglers;
  // One entry a cycle, with nccl-tests' JSON keys and the slowest rank's time of each iteration
  // (per_rank_us above has each rank's mean); perfgate's nccl-tests reader keeps the four a
  // table prints.
  if (!m.per_iteration.empty()) {
    nlohmann::json& cycles = time.extra["per_iteration"] = nlohmann::json::array();
    for (const IterationTimes& t : m.per_iteration)
      cycles.push_back(nlohmann::json(iteration_times_json(t, false)));
  }
  if (m.bitwise) {
    time.extra["bitdiff"] = m.bitwise->bits;
    time.extra["bitwise"] = {
        {"different_elements", m.bitwise->elements}, {"different_bits", m.bitwise->bits},
        {"first_repeat", m.bitwise->first_repeat},   {"first_rank", m.bitwise->first_rank},
        {"first_element", m.bitwise->first_element}, {"first_bit", m.bitwise->first_bit}};
  }
  std::vector<std::string> failures;
  if (m.wrong && *m.wrong > 0) failures.push_back(fmt::format("{} wrong elements", *m.wrong));
  if (m.bitwise && m.bitwise->any())
    failures.push_back(fmt::format("{} bits that differed between repeated runs", m.bitwise->bits));
  if (!failures.empty()) {
    time.status = ResultStatus::error;
    time.message =
        "data check: " + failures.front() + (failures.size() > 1 ? " and " + failures.back() : "");
  }
  const double share = algbw_share(m.shape.collective, m.shape.ranks);
  Result alg = make_result(case_key(m, "algbw"), "GB/s", Direction::higher_is_better,
                           bandwidths(m.sample_us, m.bytes, share), scale, m.backend);
  Result bus = make_result(case_key(m, "busbw"), "GB/s", Direction::higher_is_better,
                           bandwidths(m.sample_us, m.bytes, share * factor), scale, m.backend);
  alg.status = bus.status = time.status;
  alg.message = bus.message = time.message;
  std::vector<Result> results{std::move(time), std::move(alg), std::move(bus)};
  if (!m.launch_us.empty()) {
    Result launch = make_result(case_key(m, "cputime"), "us", Direction::lower_is_better,
                                m.launch_us, scale, m.backend);
    launch.status = results.front().status;
    launch.message = results.front().message;
    results.push_back(std::move(launch));
  }
  return results;
}

void absorb_cycle(CaseMeasurement& into, const CaseMeasurement& more) {
  const auto had = static_cast<double>(into.sample_us.size());
  const auto adds = static_cast<double>(more.sample_us.size());
  const auto blend = [&](double a, double b) { return (a * had + b * adds) / (had + adds); };
  for (std::size_t r = 0; r < into.per_rank_us.size() && r < more.per_rank_us.size(); ++r)
    into.per_rank_us[r] = blend(into.per_rank_us[r], more.per_rank_us[r]);
  into.avg_us = blend(into.avg_us, more.avg_us);
  into.min_us = blend(into.min_us, more.min_us);
  into.max_us = blend(into.max_us, more.max_us);
  into.sample_us.insert(into.sample_us.end(), more.sample_us.begin(), more.sample_us.end());
  into.launch_us.insert(into.launch_us.end(), more.launch_us.begin(), more.launch_us.end());
  if (more.wrong) into.wrong = into.wrong.value_or(0) + *more.wrong;
  if (more.bitwise)
    add_later_run(into.bitwise ? *into.bitwise : into.bitwise.emplace(), *more.bitwise);
  into.per_iteration.insert(into.per_iteration.end(), more.per_iteration.begin(),
                            more.per_iteration.end());
}

Result timeout_result(const CaseMeasurement& m, const Scale& scale, int rank,
                      const std::string& host, double timeout_s) {
  Result r =
      make_result(case_key(m, "time"), "us", Direction::lower_is_better, {}, scale, m.backend);
  r.status = ResultStatus::timeout;
  r.message = fmt::format("{} of {} B ({}) did not complete within {} s on rank {} ({})",
                          info(m.shape.collective).name, m.bytes,
                          m.in_place ? "in-place" : "out-of-place", timeout_s, rank, host);
  r.extra["rank"] = rank;
  r.extra["host"] = host;
  r.extra["bytes"] = m.bytes;
  return r;
}

std::vector<Result> bucket_results(const BucketMeasurement& m, const Scale& scale) {
  SeriesKey key;
  key.family = "collectives.bucket_all_reduce";
  key.params = {{"dtype", std::string(series_dtype(m.dtype))},
                {"total_bytes", std::to_string(m.total_bytes)},
                {"bucket_bytes", std::to_string(m.bucket_bytes)}};
  key.metric = "time";
  Result time = make_result(key, "us", Direction::lower_is_better, m.sample_us, scale, m.backend);
  key.metric = "busbw";
  Result bus = make_result(
      key, "GB/s", Direction::higher_is_better,
      bandwidths(m.sample_us, m.total_bytes, busbw_factor(Collective::all_reduce, m.ranks)), scale,
      m.backend);
  time.extra["best"] = m.best;
  bus.extra["best"] = m.best;
  return {std::move(time), std::move(bus)};
}

double overlap_efficiency(double compute_us, double comm_us, double both_us) {
  const double shorter = std::min(compute_us, comm_us);
  return shorter > 0 ? (compute_us + comm_us - both_us) / shorter : 0;
}

std::vector<Result> overlap_results(const OverlapMeasurement& m, const Scale& scale) {
  SeriesKey key;
  key.family = "collectives.overlap";
  key.params = {{"bytes", std::to_string(m.bytes)}, {"gemm_n", std::to_string(m.gemm_n)}};
  std::vector<Result> out;
  const std::pair<const char*, double> times[] = {
      {"compute_time", m.compute_us}, {"comm_time", m.comm_us}, {"both_time", m.both_us}};
  for (const auto& [metric, value] : times) {
    key.metric = metric;
    out.push_back(make_result(key, "us", Direction::lower_is_better, {value}, scale, m.backend));
  }
  key.metric = "overlap_efficiency";
  out.push_back(make_result(key, "ratio", Direction::higher_is_better,
                            {overlap_efficiency(m.compute_us, m.comm_us, m.both_us)}, scale,
                            m.backend));
  return out;
}

std::vector<Result> reference_results(const ReferenceMeasurement& m, const Scale& scale) {
  SeriesKey key;
  key.family = "collectives.reference_all_reduce";
  key.params = {{"bytes", std::to_string(m.bytes)},
                {"dtype", std::string(series_dtype(DataType::f32))}};
  key.metric = "time";
  // The reference loop is plain MPI_Allreduce, whatever --backend says.
  Result time = make_result(key, "us", Direction::lower_is_better, m.sample_us, scale, "mpi");
  key.metric = "busbw";
  Result bus =
      make_result(key, "GB/s", Direction::higher_is_better,
                  bandwidths(m.sample_us, m.bytes, busbw_factor(Collective::all_reduce, m.ranks)),
                  scale, "mpi");
  return {std::move(time), std::move(bus)};
}

}  // namespace perfgate::collectives
