// Persisted verdicts: the round trip with every field of the evidence, replacement of a
// comparison saved again, and the window of nightlies a pooled policy's change-point cut reads.
#include <catch2/catch.hpp>

#include "perfgate/core/error.hpp"
#include "store_fixtures.hpp"

using namespace perfgate;
using namespace perfgate::baselines;
using namespace perfgate::baselines::testing;

TEST_CASE("a saved verdict comes back with every field of its evidence") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  store->save_verdicts(
      "cand", {make_verdict("gemm/size:1024@time", VerdictKind::regression, {"b1", "b2"})});
  const auto back = store->load_verdicts("cand");
  REQUIRE(back.size() == 1);
  const VerdictRecord& v = back[0];
  CHECK(v.candidate_run == "cand");
  CHECK(v.series_id == "gemm/size:1024@time");
  CHECK(v.kind == VerdictKind::regression);
  CHECK(v.reason == "interval_above_tolerance");
  CHECK(*v.ratio == Approx(1.25));
  CHECK(*v.ratio_low == Approx(1.2));
  CHECK(*v.ratio_high == Approx(1.3));
  CHECK(*v.p_value == Approx(0.0002));
  CHECK(*v.p_adjusted == Approx(0.0004));
  CHECK(v.tolerance == Approx(0.03));
  CHECK(v.n_baseline == 40);
  CHECK(v.n_candidate == 10);
  CHECK(v.baseline_runs == std::vector<std::string>{"b1", "b2"});
  CHECK(v.details["baseline_cut"]["pooled_runs"][0] == "b2");
  CHECK(store->load_verdicts("other").empty());
}

TEST_CASE("saving a comparison again replaces its verdicts, other baselines' verdicts stay") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  store->save_verdicts("cand",
                       {make_verdict("gemm/size:1024@time", VerdictKind::regression, {"b1", "b2"}),
                        make_verdict("attention/size:1024@time", VerdictKind::same, {"b1", "b2"})});
  store->save_verdicts("cand",
                       {make_verdict("gemm/size:1024@time", VerdictKind::regression, {"b3"})});
  REQUIRE(store->load_verdicts("cand").size() == 3);

  // Same candidate, same baseline runs in another order: the same comparison, replaced whole.
  store->save_verdicts("cand",
                       {make_verdict("gemm/size:1024@time", VerdictKind::same, {"b2", "b1"})});
  const auto back = store->load_verdicts("cand");
  REQUIRE(back.size() == 2);
  CHECK(back[0].baseline_runs == std::vector<std::string>{"b3"});
  CHECK(back[0].kind == VerdictKind::regression);
  CHECK(back[1].kind == VerdictKind::same);
  CHECK(back[1].series_id == "gemm/size:1024@time");
}

TEST_CASE("a read-only store refuses to save verdicts and keeps the ones it has") {
  TempDir dir;
  const auto path = dir.file("s.db");
  Store::open(path, OpenMode::read_write)
      ->save_verdicts("cand",
                      {make_verdict("gemm/size:1024@time", VerdictKind::regression, {"b1"})});
  auto ro = Store::open(path, OpenMode::read_only);
  CHECK_THROWS_AS(ro->save_verdicts("cand", {}), ToolError);
  CHECK(ro->load_verdicts("cand").size() == 1);
}

TEST_CASE("the window of eligible nightlies skips what the policy skips and runs past K") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  for (int d = 1; d <= 6; ++d) store->ingest(make_run("n" + std::to_string(d), day(d)));
  store->save_verdicts("n5",
                       {make_verdict("gemm/size:1024@time", VerdictKind::regression, {"n4"})});
  BaselinePolicy p;
  p.name = "pool2";
  p.kind = BaselinePolicy::Kind::pooled_last_k;
  p.k = 2;
  p.branch = "main";
  store->set_baseline(p);
  CHECK(store->resolve_baseline("pool2").run_uuids == std::vector<std::string>{"n6", "n4"});
  CHECK(store->eligible_nightlies("pool2", std::nullopt, 4) ==
        std::vector<std::string>{"n6", "n4", "n3", "n2"});
  CHECK(store->eligible_nightlies("pool2", std::string("no-such-digest"), 4).empty());
  CHECK_THROWS_AS(store->eligible_nightlies("absent", std::nullopt, 4), InputError);
}
