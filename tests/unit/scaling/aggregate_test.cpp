#include <catch2/catch.hpp>

#include "perfgate/scaling/aggregate.hpp"

using namespace perfgate;
using namespace perfgate::scaling;

namespace {

SweepPlan all_reduce_plan() {
  SweepPlan p = parse_plan_text(R"(
[[sweep]]
name = "ar"
workload = "all_reduce"
nodes = [1, 2, 4]
sizes = [1024]
)",
                                "p.toml")
                    .front();
  return p;
}

// What perfgate-collectives writes for one size (docs/collectives.md), out-of-place only.
Run collectives_doc(int ranks, double time_us, double busbw, std::vector<double> per_rank,
                    std::vector<int> stragglers = {}) {
  Run run;
  run.fingerprint.comparable["cpu.model"] = "test cpu";
  const Params params{{"backend", "mpi"}, {"bytes", "1024"}, {"dtype", "float"},
                      {"inplace", "0"},   {"redop", "sum"},  {"root", "-1"}};
  Result t;
  t.key = {"collectives.all_reduce", params, "time"};
  t.samples = {time_us, time_us * 1.01, time_us * 0.99};
  t.summary = summarize(t.samples);
  t.extra["per_rank_us"] = per_rank;
  t.extra["stragglers"] = stragglers;
  Result b;
  b.key = {"collectives.all_reduce", params, "busbw"};
  b.samples = {busbw, busbw, busbw};
  b.summary = summarize(b.samples);
  run.results = {t, b};
  nlohmann::json rank_list = nlohmann::json::array();
  for (int r = 0; r < ranks; ++r) rank_list.push_back({{"rank", r}, {"host", "vm"}});
  run.metadata["collectives"] = {{"ranks", rank_list}};
  return run;
}

PointRecord point_with(const SweepPlan& plan, int nodes, const Run& doc) {
  PointRecord rec;
  rec.point = {nodes, 1, 0};
  rec.launch.ok = true;
  for (int r = 0; r < nodes; ++r) rec.launch.rank_hosts[r] = "n" + std::to_string(r + 1);
  rec.readout = read_point(plan, doc, "doc.json");
  return rec;
}

const Result* find(const Run& run, int nodes, const std::string& metric) {
  for (const Result& r : run.results)
    if (r.key.metric == metric && r.scale && r.scale->nodes == nodes) return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("weak scaling efficiency is per-rank busbw against the smallest multi-rank point") {
  const SweepPlan plan = all_reduce_plan();
  std::vector<PointRecord> points{
      point_with(plan, 1, collectives_doc(1, 1.0, 0.0, {1.0})),
      point_with(plan, 2, collectives_doc(2, 10.0, 2.0, {10, 10})),
      point_with(plan, 4, collectives_doc(4, 20.0, 1.5, {20, 20, 20, 20}))};
  Run run;
  aggregate_sweep(plan, points, {"local", {}, {}}, run);
  CHECK(run.status == RunStatus::complete);
  CHECK(find(run, 1, "efficiency") == nullptr);  // busbw 0 at one rank: no reference there
  REQUIRE(find(run, 2, "efficiency") != nullptr);
  CHECK(find(run, 2, "efficiency")->summary.median == Approx(1.0));
  CHECK(find(run, 4, "efficiency")->summary.median == Approx(0.75));
  CHECK(find(run, 4, "efficiency")->unit == "ratio");
  CHECK(find(run, 4, "efficiency")->direction == Direction::higher_is_better);
  CHECK(find(run, 4, "efficiency")->key.params.at("nodes") == "4");
  CHECK(find(run, 4, "efficiency")->scale->ranks == 4);
  CHECK(find(run, 4, "busbw")->summary.median == Approx(1.5));
  CHECK(run.metadata["sweep"]["points"].size() == 3);
  CHECK(run.fingerprint.comparable.at("scaling.points") == "N1xR1,N2xR1,N4xR1");
  CHECK(run.fingerprint.comparable.at("cpu.model") == "test cpu");
}

TEST_CASE("a slow rank shows as an efficiency drop with its straggler named") {
  const SweepPlan plan = all_reduce_plan();
  std::vector<PointRecord> points{
      point_with(plan, 2, collectives_doc(2, 10.0, 2.0, {10, 10})),
      point_with(plan, 4, collectives_doc(4, 40.0, 1.0, {10, 10, 40, 10}, {2}))};
  Run run;
  aggregate_sweep(plan, points, {"local", {}, {}}, run);
  CHECK(find(run, 4, "efficiency")->summary.median == Approx(0.5));
  const auto& stragglers = find(run, 4, "time")->extra["stragglers"];
  REQUIRE(stragglers.size() == 1);
  CHECK(stragglers[0]["rank"] == 2);
  CHECK(stragglers[0]["host"] == "n3");
}

TEST_CASE("a failed point is recorded and the others are kept") {
  const SweepPlan plan = all_reduce_plan();
  PointRecord missing;
  missing.point = {4, 1, 0};
  missing.failure = "exit 1";
  missing.launch.job_id = "17";
  std::vector<PointRecord> points{point_with(plan, 2, collectives_doc(2, 10.0, 2.0, {10, 10})),
                                  missing};
  Run run;
  aggregate_sweep(plan, points, {"sbatch", {{"slurm.mpi", "pmix"}}, {"NCCL_ALGO=Ring"}}, run);
  CHECK(run.status == RunStatus::partial);
  const auto& m = run.metadata["sweep"]["missing"];
  REQUIRE(m.size() == 1);
  CHECK(m[0]["point"] == "N4xR1");
  CHECK(m[0]["reason"] == "exit 1");
  CHECK(m[0]["job_id"] == "17");
  const Result* failed = find(run, 4, "efficiency");
  REQUIRE(failed != nullptr);
  CHECK(failed->status == ResultStatus::error);
  CHECK(failed->message == "scale point N4xR1 missing: exit 1");
  CHECK(run.fingerprint.info.at("slurm.mpi") == "pmix");
  CHECK(run.fingerprint.info.at("env.NCCL_ALGO") == "Ring");
}

TEST_CASE("strong scaling efficiency is speed-up over ideal") {
  // Fixed total work W: per-rank throughput W/(T·R); 1 rank 100 us, 4 ranks 50 us -> 2x of an ideal
  // 4x.
  CHECK(scaling_efficiency(1.0 / (50 * 4), 1.0 / (100 * 1)) == Approx(0.5));
  CHECK(scaling_efficiency(1.0, 0.0) == 0.0);
}

TEST_CASE("a document without the planned size is unreadable for the sweep") {
  const SweepPlan plan = all_reduce_plan();
  Run doc = collectives_doc(2, 10.0, 2.0, {10, 10});
  for (Result& r : doc.results) r.key.params["bytes"] = "2048";
  CHECK_THROWS_WITH(read_point(plan, doc, "d.json"),
                    "d.json: collectives.all_reduce: no out-of-place result for 1024 bytes");
}

TEST_CASE("a point document with a field of the wrong type is refused, naming the field") {
  // Until 2026-12-01 each of these escaped as a JSON type error, past the sweep's handling of an
  // unreadable point, and ended the whole sweep without its document.
  const SweepPlan plan = all_reduce_plan();
  Run doc = collectives_doc(2, 10.0, 2.0, {10, 10});
  doc.metadata["collectives"]["ranks"][1]["rank"] = "one";
  CHECK_THROWS_WITH(read_point(plan, doc, "d.json"),
                    Catch::StartsWith("d.json: metadata.collectives.ranks[1]: expected {\"rank\": "
                                      "0 to 2147483647, \"host\": a name}, not {\"host\":\"vm\","
                                      "\"rank\":\"one\"}"));
  doc = collectives_doc(2, 10.0, 2.0, {10, 10});
  doc.metadata["collectives"]["ranks"][0]["host"] = 7;
  CHECK_THROWS_WITH(read_point(plan, doc, "d.json"),
                    Catch::StartsWith("d.json: metadata.collectives.ranks[0]:"));
  doc.metadata["collectives"]["ranks"] = "everyone";
  CHECK_THROWS_WITH(read_point(plan, doc, "d.json"),
                    "d.json: metadata.collectives.ranks: expected an array");

  SweepPlan buckets =
      parse_plan_text("[[sweep]]\nname = \"b\"\nworkload = \"buckets\"\n", "p.toml").front();
  doc = collectives_doc(2, 10.0, 2.0, {10, 10});
  for (Result& r : doc.results) {
    r.key.family = "collectives.bucket_all_reduce";
    r.extra["best"] = "yes";
  }
  CHECK_THROWS_WITH(read_point(buckets, doc, "d.json"),
                    "d.json: collectives.bucket_all_reduce: extra.best: expected true or false, "
                    "not \"yes\"");
  for (Result& r : doc.results) r.extra["best"] = true;
  CHECK(read_point(buckets, doc, "d.json").cases.at(0).case_name == "best_bucket");
}

TEST_CASE("straggler ranks outside 0..INT_MAX are not ranks, and are passed over") {
  const SweepPlan plan = all_reduce_plan();
  Run doc = collectives_doc(2, 10.0, 2.0, {10, 30});
  doc.results[0].extra["stragglers"] = nlohmann::json::array(
      {1, {{"rank", 0}}, 4000000000LL, -1, {{"rank", "x"}}, "2", 2147483648LL});
  CHECK(read_point(plan, doc, "d.json").cases.at(0).straggler_ranks == std::vector<int>{1, 0});
}
