#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/identity.hpp"

using namespace perfgate;

namespace {
Run sample_run() {
  Run run;
  run.uuid = new_uuid();
  run.suite = "smoke";
  run.trigger = Trigger::nightly;
  run.code = {"git@example:org/repo", "main", "0123abcd", true};
  run.started_at = "2026-11-29T22:00:00Z";
  run.ended_at = "2026-11-29T22:01:00Z";
  run.status = RunStatus::partial;
  run.fingerprint.comparable = {{"cpu.model", "Test CPU"}, {"build.type", "Release"}};
  run.fingerprint.info = {{"host", "node17"}};
  run.labels = {{"pr", "42"}};
  Result ok;
  ok.key = {"gemm", {{"m", "64"}, {"n", "32"}}, "time"};
  ok.unit = "ns";
  ok.samples = {10.5, 11.0, 10.75};
  ok.summary = summarize(ok.samples);
  Result failed;
  failed.key = {"attention", {{"causal", "1"}}, "time"};
  failed.status = ResultStatus::error;
  failed.message = "correctness: max rel error 3.2e-1 > 1e-2";
  Result bw;
  bw.key = {"gemm", {{"m", "64"}, {"n", "32"}}, "bandwidth"};
  bw.unit = "GB/s";
  bw.direction = Direction::higher_is_better;
  bw.samples = {100, 101};
  bw.summary = summarize(bw.samples);
  bw.scale = Scale{2, 8, 16};
  run.results = {ok, failed, bw};
  return run;
}
}  // namespace

TEST_CASE("a result document round-trips every field") {
  const Run run = sample_run();
  const Run back = from_document(to_document(run), "mem");
  CHECK(back.uuid == run.uuid);
  CHECK(back.suite == "smoke");
  CHECK(back.trigger == Trigger::nightly);
  CHECK(back.code.commit == "0123abcd");
  CHECK(back.code.dirty);
  CHECK(back.status == RunStatus::partial);
  CHECK(back.labels == run.labels);
  CHECK(back.fingerprint.comparable == run.fingerprint.comparable);
  CHECK(back.fingerprint.digest() == run.fingerprint.digest());
  REQUIRE(back.results.size() == 3);
  CHECK(back.results[0].key == run.results[0].key);
  CHECK(back.results[0].samples == run.results[0].samples);
  CHECK(back.results[0].summary.median == Approx(10.75));
  CHECK(back.results[1].status == ResultStatus::error);
  CHECK(back.results[1].message == run.results[1].message);
  CHECK(back.results[2].direction == Direction::higher_is_better);
  REQUIRE(back.results[2].scale.has_value());
  CHECK(back.results[2].scale->ranks == 16);
}

TEST_CASE("the document is readable as Google Benchmark JSON") {
  const auto doc = to_document(sample_run());
  REQUIRE(doc.contains("context"));
  const auto& rows = doc["benchmarks"];
  // Three samples of the time series plus one error row; the bandwidth series is not a time.
  REQUIRE(rows.size() == 4);
  CHECK(rows[0]["name"] == "gemm/m:64/n:32");
  CHECK(rows[0]["run_type"] == "iteration");
  CHECK(rows[0]["real_time"].get<double>() == Approx(10.5));
  CHECK(rows[3]["error_occurred"] == true);
}

TEST_CASE("files round-trip atomically and bad files name the problem") {
  const auto dir = std::filesystem::temp_directory_path() / ("pg-doc-" + new_uuid());
  std::filesystem::create_directories(dir);
  const auto path = dir / "run.json";
  write_document_file(path, sample_run());
  CHECK(read_document_file(path).results.size() == 3);
  CHECK(std::distance(std::filesystem::directory_iterator(dir), {}) == 1);  // no temp file left

  CHECK_THROWS_WITH(read_document_file(dir / "missing.json"), Catch::Contains("no such file"));
  std::ofstream(dir / "bad.json") << "{\"perfgate\": {";
  CHECK_THROWS_AS(read_document_file(dir / "bad.json"), InputError);
  auto doc = to_document(sample_run());
  doc["perfgate"]["results"][1]["status"] = "fine";
  CHECK_THROWS_WITH(from_document(doc, "x.json"),
                    Catch::Contains("x.json: perfgate.results[1].status") &&
                        Catch::Contains("unknown result status 'fine'"));
  doc = to_document(sample_run());
  doc["perfgate"]["results"][0]["samples"][1] = "fast";
  CHECK_THROWS_WITH(from_document(doc, "x.json"),
                    Catch::Contains("perfgate.results[0].samples[1]"));
  doc = to_document(sample_run());
  doc["perfgate"]["schema_version"] = 99;
  CHECK_THROWS_WITH(from_document(doc, "x.json"), Catch::Contains("newer than this perfgate"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("Google Benchmark's bare NaN and Infinity are accepted") {
  const auto j = parse_json_text(R"({"a": NaN, "b": -Infinity, "c": Infinity, "s": "NaN"})", "t");
  CHECK(std::isnan(j["a"].get<double>()));
  CHECK(j["b"].get<double>() == -INFINITY);
  CHECK(j["c"].get<double>() == INFINITY);
  CHECK(j["s"] == "NaN");
  CHECK_THROWS_WITH(parse_json_text("{\n\"a\": nope}", "f.json"), Catch::StartsWith("f.json:2:"));
}
