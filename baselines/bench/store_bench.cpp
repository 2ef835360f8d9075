// Speed and size of the baseline store (figures in docs/store.md).
//   BM_Ingest          one run of SERIES x SAMPLES through Store::ingest into a fresh store
//   BM_PlainSqliteFloor the same samples as (run, series, value) rows through one prepared
//                      statement in one transaction, no indexes: what SQLite itself costs
//   BM_History         one series' history in a store of HISTORY_RUNS nightlies x HISTORY_SERIES
// Sizes come from the environment so ctest can run a tiny smoke of the same code:
// PERFGATE_BENCH_SERIES (10000), PERFGATE_BENCH_SAMPLES (30), PERFGATE_BENCH_HISTORY_RUNS (365),
// PERFGATE_BENCH_HISTORY_SERIES (5000).
#include <benchmark/benchmark.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "perfgate/baselines/store.hpp"

namespace {

using namespace perfgate;
using namespace perfgate::baselines;

std::size_t env_size(const char* name, std::size_t def) {
  const char* v = std::getenv(name);
  return v && *v ? static_cast<std::size_t>(std::stoul(v)) : def;
}
const std::size_t kSeries = env_size("PERFGATE_BENCH_SERIES", 10000);
const std::size_t kSamples = env_size("PERFGATE_BENCH_SAMPLES", 30);
const std::size_t kHistoryRuns = env_size("PERFGATE_BENCH_HISTORY_RUNS", 365);
const std::size_t kHistorySeries = env_size("PERFGATE_BENCH_HISTORY_SERIES", 5000);

std::filesystem::path scratch(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         fmt::format("perfgate-store-bench-{}-{}", ::getpid(), name);
}

void remove_store(const std::filesystem::path& p) {
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(p.string() + suffix);
}

// Night `index` since 2025-01-01, 02:00 UTC.
std::string nightly_start(std::size_t index) {
  const std::time_t t = 1735696800 + static_cast<std::time_t>(index) * 86400;
  std::tm utc{};
  gmtime_r(&t, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", utc.tm_year + 1900, utc.tm_mon + 1,
                     utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec);
}

SeriesKey series_key(std::size_t s) {
  return {fmt::format("family{}", s % 50), {{"m", std::to_string(s)}, {"dtype", "bf16"}}, "time"};
}

Run make_run(std::size_t index, std::size_t series, std::size_t samples, std::mt19937_64& rng) {
  std::normal_distribution<double> noise(1.0, 0.02);
  Run run;
  run.uuid = fmt::format("bench-{:08}", index);
  run.suite = "nightly";
  run.trigger = Trigger::nightly;
  run.code = {"perfgate", "main", fmt::format("{:040x}", index), false};
  run.started_at = nightly_start(index);
  run.fingerprint.comparable = {{"gpu.model", "NVIDIA H100 80GB HBM3"}, {"gpu.count", "8"}};
  run.results.reserve(series);
  for (std::size_t s = 0; s < series; ++s) {
    Result r;
    r.key = series_key(s);
    r.unit = "ns";
    r.samples.resize(samples);
    for (auto& v : r.samples) v = 1000.0 * static_cast<double>(s % 97 + 1) * noise(rng);
    run.results.push_back(std::move(r));
  }
  return run;
}

void BM_Ingest(benchmark::State& state) {
  std::mt19937_64 rng(42);
  const Run run = make_run(0, kSeries, kSamples, rng);
  const auto path = scratch("ingest.db");
  std::uintmax_t bytes = 0;
  for (auto _ : state) {
    state.PauseTiming();
    remove_store(path);
    auto store = Store::open(path, OpenMode::read_write);
    state.ResumeTiming();
    store->ingest(run);
    state.PauseTiming();
    store.reset();  // closes the connection and checkpoints the WAL into the file
    bytes = std::filesystem::file_size(path);
    state.ResumeTiming();
  }
  remove_store(path);
  const double samples = static_cast<double>(kSeries * kSamples);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kSeries * kSamples));
  state.counters["bytes_per_sample"] = static_cast<double>(bytes) / samples;
}
BENCHMARK(BM_Ingest)->Unit(benchmark::kMillisecond)->UseRealTime();

void exec(sqlite3* db, const char* sql) {
  if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
    throw std::runtime_error(sqlite3_errmsg(db));
}

void BM_PlainSqliteFloor(benchmark::State& state) {
  std::mt19937_64 rng(42);
  const Run run = make_run(0, kSeries, kSamples, rng);
  const auto path = scratch("floor.db");
  for (auto _ : state) {
    state.PauseTiming();
    remove_store(path);
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    exec(db,
         "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;"
         "CREATE TABLE samples (run_id INTEGER, series_id INTEGER, value REAL)");
    state.ResumeTiming();
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO samples VALUES (?1, ?2, ?3)", -1, &st, nullptr);
    exec(db, "BEGIN IMMEDIATE");
    for (std::size_t s = 0; s < run.results.size(); ++s)
      for (double v : run.results[s].samples) {
        sqlite3_bind_int64(st, 1, 1);
        sqlite3_bind_int64(st, 2, static_cast<sqlite3_int64>(s));
        sqlite3_bind_double(st, 3, v);
        sqlite3_step(st);
        sqlite3_reset(st);
      }
    exec(db, "COMMIT");
    sqlite3_finalize(st);
    state.PauseTiming();
    sqlite3_close(db);
    state.ResumeTiming();
  }
  remove_store(path);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kSeries * kSamples));
}
BENCHMARK(BM_PlainSqliteFloor)->Unit(benchmark::kMillisecond)->UseRealTime();

// Built once per process: HISTORY_RUNS nightly runs of HISTORY_SERIES series.
const std::filesystem::path& history_store() {
  static const std::filesystem::path path = [] {
    const auto p = scratch("history.db");
    remove_store(p);
    auto store = Store::open(p, OpenMode::read_write);
    std::mt19937_64 rng(7);
    for (std::size_t i = 0; i < kHistoryRuns; ++i)
      store->ingest(make_run(i, kHistorySeries, kSamples, rng));
    return p;
  }();
  return path;
}

void BM_History(benchmark::State& state) {
  auto store = Store::open(history_store(), OpenMode::read_only);
  const std::string series = series_key(kHistorySeries / 2).id();
  HistoryFilter filter;
  filter.branch = "main";
  std::size_t points = 0;
  for (auto _ : state) {
    points = store->history(series, filter).size();
    benchmark::DoNotOptimize(points);
  }
  if (points != kHistoryRuns) state.SkipWithError("history returned the wrong number of points");
  state.counters["points"] = static_cast<double>(points);
  state.counters["store_bytes_per_sample"] =
      static_cast<double>(std::filesystem::file_size(history_store())) /
      static_cast<double>(kHistoryRuns * kHistorySeries * kSamples);
}
BENCHMARK(BM_History)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  remove_store(scratch("history.db"));
  return 0;
}
