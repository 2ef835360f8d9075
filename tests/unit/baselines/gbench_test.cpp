#include <catch2/catch.hpp>

#include <cmath>

#include "find_series.hpp"
#include "perfgate/baselines/gbench.hpp"
#include "perfgate/baselines/ingest.hpp"
#include "perfgate/core/error.hpp"

using namespace perfgate;
using namespace perfgate::baselines;

namespace {
const std::filesystem::path kData = std::filesystem::path(PERFGATE_TEST_DATA) / "baselines";
// Google Benchmark's own comparison inputs (google/benchmark tools/gbench/Inputs, Apache-2.0),
// copied unchanged into /work/shared/corpus/gbench.
const std::filesystem::path kCorpus = std::filesystem::path(PERFGATE_CORPUS) / "gbench";

using perfgate::test::find_series;
}  // namespace

TEST_CASE("gbench names split into family and normalised params") {
  auto s = split_gbench_name("BM_x/8/64");
  CHECK(s.family == "BM_x");
  CHECK(s.params == Params{{"arg0", "8"}, {"arg1", "64"}});
  s = split_gbench_name("fam/k:v/4/threads:2/real_time");
  CHECK(s.family == "fam");
  CHECK(s.params == Params{{"k", "v"}, {"arg0", "4"}, {"threads", "2"}, {"real_time", "true"}});
  CHECK(split_gbench_name("BM_plain").params.empty());
}

TEST_CASE("randomly interleaved repetitions are grouped by identity, in repetition order") {
  const Run run = read_results_file(kData / "gbench_new_interleaved.json");
  const auto& t = find_series(run, "BM_copy/arg0:8/arg1:64@time");
  CHECK(t.unit == "ns");
  CHECK(t.samples == std::vector<double>{1500, 1600, 1700});  // us → ns, by repetition_index
  CHECK(t.extra["gbench_name"] == "BM_copy/8/64");
  CHECK(t.extra["gbench_aggregates"]["mean"] == Approx(1600));
  CHECK(t.extra["gbench_aggregates"]["cv"] == Approx(0.0625));  // percentage: not converted
  CHECK_FALSE(t.extra.contains("gbench_aggregate_mismatch"));
  CHECK(find_series(run, "BM_copy/arg0:8/arg1:64@cpu_time").samples ==
        std::vector<double>{1400, 1500, 1600});
  CHECK(find_series(run, "BM_copy/arg0:8/arg1:128@time").samples.size() == 3);
  const auto& bytes = find_series(run, "BM_copy/arg0:8/arg1:64@bytes_per_second");
  CHECK(bytes.unit == "B/s");
  CHECK(bytes.direction == Direction::higher_is_better);
  CHECK(find_series(run, "BM_copy/arg0:8/arg1:64@items_per_second").samples.size() == 3);
  CHECK(find_series(run, "BM_sort/size:1024@time").samples == std::vector<double>{20, 22, 21});
}

TEST_CASE("NaN and Infinity counters are accepted and kept out of the samples") {
  const Run run = read_results_file(kData / "gbench_new_interleaved.json");
  const auto& flops = find_series(run, "BM_sort/size:1024@custom_flops");
  CHECK(flops.samples == std::vector<double>{123});
  CHECK(flops.extra["non_finite_samples"] == 2);
}

TEST_CASE("error and skipped rows become failed and skipped results, never samples") {
  const Run run = read_results_file(kData / "gbench_new_interleaved.json");
  const auto& failed = find_series(run, "BM_fail/threads:2@time");
  CHECK(failed.status == ResultStatus::error);
  CHECK(failed.message == "device lost");
  CHECK(failed.samples.empty());
  const auto& skipped = find_series(run, "BM_skip@time");
  CHECK(skipped.status == ResultStatus::skipped);
  CHECK(skipped.message == "needs 2 GPUs");
  CHECK(skipped.samples.empty());
}

TEST_CASE("aggregate-only benchmarks fall back to the aggregates, BigO/RMS go to metadata") {
  const Run run = read_results_file(kData / "gbench_new_interleaved.json");
  const auto& agg = find_series(run, "BM_aggonly@time");
  CHECK(agg.samples.empty());
  CHECK(agg.summary.n == 5);
  CHECK(agg.summary.median == Approx(9.5e6));
  CHECK(agg.summary.mean == Approx(10e6));
  CHECK(agg.extra["summary_from"] == "gbench_aggregates");
  CHECK(run.metadata["gbench_complexity"]["BM_Complexity"]["BigO"]["big_o"] == "N");
  CHECK(run.metadata["gbench_complexity"]["BM_Complexity"]["RMS"]["rms"] == Approx(0.01));
  CHECK(find_series(run, "BM_Complexity/arg0:1024@time").samples == std::vector<double>{1024});
}

TEST_CASE("context becomes run metadata, fingerprint keys and a UTC start time") {
  const Run run = read_results_file(kData / "gbench_new_interleaved.json");
  CHECK(run.started_at == "2024-03-05T09:15:30Z");
  CHECK(run.metadata["gbench_context"]["executable"] == "./attention_bench");
  CHECK(run.fingerprint.comparable.at("cpu.cores") == "16");
  CHECK(run.fingerprint.info.at("host") == "bench-node-7");
  CHECK(run.suite == "gbench");
  CHECK(run.uuid.size() == 36);
  CHECK(read_results_file(kData / "gbench_new_interleaved.json").uuid == run.uuid);
}

TEST_CASE("a context date that is no timestamp leaves the start time empty, even a long one") {
  nlohmann::json doc = {{"context", {{"date", std::string(200000, ' ') + "2024"}}},
                        {"benchmarks", nlohmann::json::array()}};
  // Until 2026-12-01 the run of spaces overflowed the stack inside std::regex.
  CHECK(from_gbench_json(doc, "long.json").started_at.empty());
  doc["context"]["date"] = "2024-03-05T09:15:30+00:00";
  CHECK(from_gbench_json(doc, "ok.json").started_at == "2024-03-05T09:15:30Z");
  // Until 2026-12-07 a day the month lacks was carried into the next (2023-03-02).
  doc["context"]["date"] = "2023-02-30T09:15:30+00:00";
  CHECK(from_gbench_json(doc, "no_day.json").started_at.empty());
}

TEST_CASE("old files without run_type: aggregates by name suffix, BigO/RMS by fields") {
  const Run run = read_results_file(kData / "gbench_old_no_run_type.json");
  CHECK(run.started_at == "2015-03-17T18:40:25Z");
  const auto& t = find_series(run, "BM_SetInsert/arg0:1024/arg1:1@time");
  CHECK(t.samples == std::vector<double>{29275, 29300});
  CHECK(t.extra["gbench_aggregates"]["stddev"] == 12);
  CHECK(find_series(run, "BM_SetInsert/arg0:1024/arg1:1@bytes_per_second").samples.size() == 2);
  CHECK(run.metadata["gbench_complexity"]["BM_Complexity_O1"]["BigO"]["big_o"] == "(1)");
  CHECK(run.results.size() == 4);  // time, cpu_time, bytes_per_second, items_per_second
}

TEST_CASE("Google Benchmark's own test inputs read as compare.py reads them") {
  const Run run0 = read_results_file(kCorpus / "test3_run0.json");
  const Run run1 = read_results_file(kCorpus / "test3_run1.json");
  // compare.py's repetition counts: BM_Two 2 vs 2, short 2 vs 3, medium 2 vs 1.
  CHECK(find_series(run0, "BM_Two@time").samples.size() == 2);
  CHECK(find_series(run1, "BM_Two@time").samples.size() == 2);
  CHECK(find_series(run0, "short@time").samples.size() == 2);
  CHECK(find_series(run1, "short@time").samples.size() == 3);
  CHECK(find_series(run0, "medium@time").samples.size() == 2);
  CHECK(find_series(run1, "medium@time").samples.size() == 1);
  const Run t1 = read_results_file(kCorpus / "test1_run1.json");
  CHECK(find_series(t1, "BM_2xFaster@time").samples == std::vector<double>{50});
  CHECK(t1.results.size() >= 13 * 2);
}

TEST_CASE("malformed Google Benchmark files name the file and the row") {
  CHECK_THROWS_WITH(read_results_file(kData / "gbench_truncated.json"),
                    Catch::Contains("gbench_truncated.json"));
  CHECK_THROWS_WITH(read_results_file(kData / "gbench_bad_row.json"),
                    Catch::Contains("benchmarks[0].real_time: expected a number"));
  CHECK_THROWS_AS(read_results_file(kData / "does_not_exist.json"), InputError);
  CHECK_THROWS_WITH(from_gbench_json(nlohmann::json::parse(R"({"benchmarks": 3})"), "x.json"),
                    Catch::Contains("x.json: benchmarks"));
}

// Found by fuzz_ingest_gbench: a repetition_index that is not a number escaped as a JSON library
// exception from the repetition sort instead of an InputError naming the row.
TEST_CASE("a repetition index or count that is not an integer names its row") {
  const auto read = [](const char* rows) {
    return from_gbench_json(nlohmann::json::parse(std::string(R"({"benchmarks": )") + rows + "}"),
                            "r.json");
  };
  CHECK_THROWS_WITH(read(R"([{"name": "BM_a", "real_time": 1, "repetition_index": 0},
               {"name": "BM_a", "real_time": 2, "repetition_index": "percentage"}])"),
                    "r.json: benchmarks[1].repetition_index: expected a number");
  CHECK_THROWS_WITH(read(R"([{"name": "BM_a", "real_time": 1, "repetitions": 1e300}])"),
                    "r.json: benchmarks[0].repetitions: integer out of range");
  const Run ok = read(R"([{"name": "BM_a", "real_time": 5, "repetition_index": 1},
                          {"name": "BM_a", "real_time": 4, "repetition_index": 0}])");
  CHECK(find_series(ok, "BM_a@time").samples == std::vector<double>{4, 5});  // by the index
}
