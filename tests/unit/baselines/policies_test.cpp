#include <catch2/catch.hpp>

#include "perfgate/core/error.hpp"
#include "store_fixtures.hpp"

using namespace perfgate;
using namespace perfgate::baselines;
using namespace perfgate::baselines::testing;

namespace {
BaselinePolicy policy(const std::string& name, BaselinePolicy::Kind kind) {
  BaselinePolicy p;
  p.name = name;
  p.kind = kind;
  return p;
}
}  // namespace

TEST_CASE("latest-nightly policy skips partial runs and runs with a REGRESSION verdict") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  store->ingest(make_run("n1", day(1)));
  store->ingest(make_run("n2", day(2)));
  Run partial = make_run("n3", day(3));
  partial.status = RunStatus::partial;
  store->ingest(partial);
  store->ingest(make_run("n4", day(4)));
  store->ingest(make_run("pm5", day(5), 100, "main", Trigger::premerge));
  store->ingest(make_run("f6", day(6), 100, "feature"));
  store->save_verdicts("n4", {make_verdict("gemm/size:1024@time", VerdictKind::regression)});

  auto p = policy("main-nightly", BaselinePolicy::Kind::latest_nightly);
  p.branch = "main";
  store->set_baseline(p);
  const auto resolved = store->resolve_baseline("main-nightly");
  CHECK(resolved.run_uuids == std::vector<std::string>{"n2"});
  CHECK_THAT(resolved.explanation, Catch::Contains("n4") && Catch::Contains("REGRESSION") &&
                                       Catch::Contains("n3") && Catch::Contains("partial"));
  CHECK(store->resolve("baseline:main-nightly") == std::vector<std::string>{"n2"});

  auto pooled = policy("pool3", BaselinePolicy::Kind::pooled_last_k);
  pooled.k = 3;
  pooled.branch = "main";
  store->set_baseline(pooled);
  const auto pool = store->resolve_baseline("pool3");
  CHECK(pool.run_uuids == std::vector<std::string>{"n2", "n1"});
  CHECK_THAT(pool.explanation, Catch::Contains("only 2 of 3"));

  const std::string other_fp = "0000000000000000";
  CHECK_THROWS_AS(store->resolve_baseline_for("main-nightly", other_fp), InsufficientDataError);
}

TEST_CASE("pinned baselines, listing, removal and unknown names") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  store->ingest(make_run("r1", day(1)));
  auto pinned = policy("release", BaselinePolicy::Kind::pinned_run);
  pinned.run_uuid = "r1";
  store->set_baseline(pinned);
  auto missing = policy("bad", BaselinePolicy::Kind::pinned_run);
  missing.run_uuid = "nope";
  CHECK_THROWS_AS(store->set_baseline(missing), InputError);
  auto no_branch = policy("nb", BaselinePolicy::Kind::latest_nightly);
  CHECK_THROWS_AS(store->set_baseline(no_branch), InputError);

  REQUIRE(store->list_baselines().size() == 1);
  CHECK(store->get_baseline("release").run_uuid == "r1");
  CHECK(store->resolve_baseline("release").run_uuids == std::vector<std::string>{"r1"});
  CHECK(describe(store->get_baseline("release")) == "pinned run r1");
  store->remove_baseline("release");
  CHECK(store->list_baselines().empty());
  CHECK_THROWS_WITH(store->remove_baseline("release"), Catch::Contains("unknown baseline"));
  CHECK_THROWS_WITH(store->resolve_baseline("release"), Catch::Contains("unknown baseline"));
}

TEST_CASE("acks are validated, listed and expire") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  Ack ack;
  ack.pattern = "gemm/*@time";
  ack.reason = "cuBLAS 12.4 heuristic change";
  ack.author = "alice";
  ack.expires_at = "2026-02-01T23:59:59Z";
  ack.expected_ratio = 1.05;
  const auto id = store->add_ack(ack);
  CHECK(id > 0);
  Ack bad = ack;
  bad.reason = "";
  CHECK_THROWS_AS(store->add_ack(bad), InputError);
  bad = ack;
  bad.pattern = "re:[";
  CHECK_THROWS_AS(store->add_ack(bad), InputError);

  const auto active = store->active_acks("2026-01-15T00:00:00Z");
  REQUIRE(active.size() == 1);
  CHECK(active[0].author == "alice");
  CHECK(active[0].expected_ratio == Approx(1.05));
  CHECK(store->active_acks("2026-02-02T00:00:00Z").empty());
  CHECK(store->list_acks().size() == 1);
}

TEST_CASE("verdicts are persisted with their evidence") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  VerdictRecord same;
  same.series_id = "attention/size:1024@time";
  same.kind = VerdictKind::same;
  same.reason = "interval_inside_tolerance";
  store->save_verdicts("cand",
                       {make_verdict("gemm/size:1024@time", VerdictKind::regression), same});
  const auto back = store->load_verdicts("cand");
  REQUIRE(back.size() == 2);
  CHECK(back[0].kind == VerdictKind::regression);
  CHECK(back[0].ratio_high == Approx(1.3));
  CHECK(back[0].baseline_runs == std::vector<std::string>{"b1"});
  CHECK(back[0].details["baseline_cut"]["pooled_runs"][0] == "b2");
  CHECK_FALSE(back[1].ratio);
}
