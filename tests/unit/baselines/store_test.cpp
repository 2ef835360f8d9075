#include <sqlite3.h>
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "perfgate/core/error.hpp"
#include "store_fixtures.hpp"

using namespace perfgate;
using namespace perfgate::baselines;
using namespace perfgate::baselines::testing;

namespace {
void run_sql_file(const std::filesystem::path& db, const std::filesystem::path& sql_file) {
  std::ifstream in(sql_file);
  std::stringstream text;
  text << in.rdbuf();
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &h) == SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(h, text.str().c_str(), nullptr, nullptr, &err);
  INFO((err ? err : ""));
  sqlite3_free(err);
  sqlite3_close(h);
  REQUIRE(rc == SQLITE_OK);
}
}  // namespace

TEST_CASE("a run round-trips through the store with samples, summary, fingerprint and labels") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  Run run = make_run("aaaa0001-0000-4000-8000-000000000001", day(1));
  run.results[0].scale = Scale{2, 8, 16};
  run.results[0].extra = {{"per_rank", {1, 2}}};
  run.results[1].status = ResultStatus::error;
  run.results[1].message = "kernel failed";
  const auto out = store->ingest(run);
  CHECK(out.inserted);
  CHECK(out.series == 2);
  CHECK(out.samples == 5);

  const Run back = store->load_run(run.uuid);
  CHECK(back.suite == "nightly");
  CHECK(back.code.branch == "main");
  CHECK(back.fingerprint.digest() == run.fingerprint.digest());
  CHECK(back.fingerprint.info.at("host") == "node-1");
  CHECK(back.labels.at("purpose") == "test");
  CHECK(back.metadata["ceiling_gbs"] == 1000);
  REQUIRE(back.results.size() == 2);
  // load_run orders results by series id: attention before gemm.
  CHECK(back.results[0].key.family == "attention");
  CHECK(back.results[0].status == ResultStatus::error);
  CHECK(back.results[0].message == "kernel failed");
  CHECK(back.results[1].samples == std::vector<double>{100, 101, 102});
  CHECK(back.results[1].summary.median == 101);
  REQUIRE(back.results[1].scale);
  CHECK(back.results[1].scale->ranks == 16);
  CHECK(back.results[1].extra["per_rank"][1] == 2);
  CHECK(store->schema_version() == 2);
}

TEST_CASE("re-ingesting a stored uuid is a no-op") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  Run run = make_run("aaaa0002-0000-4000-8000-000000000002", day(1));
  REQUIRE(store->ingest(run).inserted);
  run.results[0].samples = {1, 2, 3};  // different content, same uuid: still ignored
  const auto again = store->ingest(run);
  CHECK_FALSE(again.inserted);
  CHECK(store->load_run(run.uuid).results[1].samples == std::vector<double>{100, 101, 102});
}

TEST_CASE("a run that fails inside its transaction leaves nothing behind") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  Run run = make_run("aaaa0003-0000-4000-8000-000000000003", day(1));
  run.results.push_back(run.results[0]);  // the same series twice
  CHECK_THROWS_AS(store->ingest(run), InputError);
  CHECK_THROWS_AS(store->load_run(run.uuid), InputError);
  CHECK(store->list_series("*").empty());
}

TEST_CASE("a series keeps one unit") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  store->ingest(make_run("u1", day(1)));
  Run other = make_run("u2", day(2));
  other.results[0].unit = "us";
  CHECK_THROWS_WITH(store->ingest(other), Catch::Contains("differs from the stored 'ns'"));
}

TEST_CASE("selectors resolve uuids, prefixes, latest~N and branches") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  store->ingest(make_run("abc00001", day(1)));
  store->ingest(make_run("abc00002", day(2)));
  Run partial = make_run("def00003", day(3));
  partial.status = RunStatus::partial;
  store->ingest(partial);
  store->ingest(make_run("fff00004", day(4), 100, "feature"));

  CHECK(store->resolve("latest") == std::vector<std::string>{"fff00004"});
  CHECK(store->resolve("latest~1") == std::vector<std::string>{"def00003"});
  CHECK(store->resolve("branch:main") == std::vector<std::string>{"abc00002"});  // skips partial
  CHECK(store->resolve("def") == std::vector<std::string>{"def00003"});
  CHECK_THROWS_WITH(store->resolve("abc"), Catch::Contains("ambiguous"));
  CHECK_THROWS_WITH(store->resolve("zzz"), Catch::Contains("no run"));
  CHECK_THROWS_WITH(store->resolve("latest~9"), Catch::Contains("only 4 run"));
  CHECK_THROWS_AS(store->load_run("nope"), InputError);
  CHECK(store->latest_complete_run("nightly", "main", make_run("x", day(1)).fingerprint.digest()) ==
        std::optional<std::string>("abc00002"));
}

TEST_CASE("history is oldest first and honours branch, time range and last N") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  for (int d = 1; d <= 6; ++d)
    store->ingest(
        make_run("run" + std::to_string(d), day(d), 100 + d, d == 3 ? "feature" : "main"));
  const std::string id = "gemm/size:1024@time";
  CHECK(store->list_series("gemm/*") == std::vector<std::string>{id});
  CHECK(store->list_series("*").size() == 2);

  auto all = store->history(id, {});
  REQUIRE(all.size() == 6);
  CHECK(all.front().run_uuid == "run1");
  CHECK(all.back().summary.median == 107);
  CHECK(all.front().samples.empty());

  HistoryFilter f;
  f.branch = "main";
  f.last_n = 2;
  f.with_samples = true;
  auto last = store->history(id, f);
  REQUIRE(last.size() == 2);
  CHECK(last[0].run_uuid == "run5");
  CHECK(last[1].samples == std::vector<double>{106, 107, 108});

  HistoryFilter range;
  range.since = "2026-01-02";
  range.until = "2026-01-04";
  CHECK(store->history(id, range).size() == 3);
  CHECK_THROWS_WITH(store->history("nope@time", {}), Catch::Contains("unknown series 'nope@time'"));
}

TEST_CASE("history says where each run measured: its host, and its GPU where it had one") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  Run cpu_only = make_run("run1", day(1));
  Run on_gpu = make_run("run2", day(2));
  on_gpu.fingerprint.info = {{"host", "node07"}, {"gpu.pci_bus_id", "00000000:18:00.0"}};
  Run nowhere = make_run("run3", day(3));
  nowhere.fingerprint.info.clear();
  for (const Run* r : {&cpu_only, &on_gpu, &nowhere}) store->ingest(*r);
  const auto points = store->history("gemm/size:1024@time", {});
  REQUIRE(points.size() == 3);
  CHECK(points[0].host == "node-1");
  CHECK(points[0].place() == "node-1");
  CHECK(points[1].gpu_pci_bus_id == "00000000:18:00.0");
  CHECK(points[1].place() == "node07 GPU 00000000:18:00.0");
  CHECK(points[2].place().empty());
}

TEST_CASE("run-to-run noise needs five complete runs of the fingerprint") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  const double levels[] = {100, 102, 98, 101, 99, 500};
  for (int d = 1; d <= 6; ++d) {
    Run run = make_run("n" + std::to_string(d), day(d), levels[d - 1]);
    if (d == 6) run.status = RunStatus::failed;  // not complete: ignored
    store->ingest(run);
  }
  const std::string fp = make_run("x", day(1)).fingerprint.digest();
  auto noise = store->run_to_run_noise({"gemm/size:1024@time", "unknown@time"}, fp, 10);
  REQUIRE(noise.count("gemm/size:1024@time"));
  // medians 101, 103, 99, 102, 100: median 101, MAD 1.
  CHECK(noise["gemm/size:1024@time"] == Approx(1.4826 / 101));
  CHECK_FALSE(noise.count("unknown@time"));
  CHECK(store->run_to_run_noise({"gemm/size:1024@time"}, fp, 4).empty());
}

TEST_CASE("pooled samples gather a series over runs") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  store->ingest(make_run("p1", day(1), 10));
  store->ingest(make_run("p2", day(2), 20));
  auto pooled = store->pooled_samples({"p1", "p2"});
  CHECK(pooled["gemm/size:1024@time"] == std::vector<double>{10, 11, 12, 20, 21, 22});
}

TEST_CASE("read-only stores refuse every write with a clear error") {
  TempDir dir;
  const auto path = dir.file("s.db");
  Store::open(path, OpenMode::read_write)->ingest(make_run("r1", day(1)));
  auto ro = Store::open(path, OpenMode::read_only);
  CHECK(ro->load_run("r1").results.size() == 2);
  const auto refused = Catch::Contains("read-only");
  CHECK_THROWS_WITH(ro->ingest(make_run("r2", day(2))), refused);
  CHECK_THROWS_WITH(ro->save_verdicts("r1", {}), refused);
  CHECK_THROWS_WITH(ro->add_ack(Ack{0, "x*", "r", "a", "", "2099-01-01T00:00:00Z", {}}), refused);
  CHECK_THROWS_WITH(
      ro->set_baseline(BaselinePolicy{"b", BaselinePolicy::Kind::pinned_run, "r1", {}, {}, 0, ""}),
      refused);
  CHECK_THROWS_WITH(ro->remove_baseline("b"), refused);
  CHECK_THROWS_WITH(ro->prune_samples("2030-01-01"), refused);
  CHECK_THROWS_AS(Store::open(dir.file("missing.db"), OpenMode::read_only), ToolError);
  CHECK_FALSE(std::filesystem::exists(dir.file("missing.db")));
}

TEST_CASE("a store from schema 1 is migrated forward with its data") {
  TempDir dir;
  const auto path = dir.file("old.db");
  run_sql_file(path, std::filesystem::path(PERFGATE_TEST_DATA) / "baselines/store_v1.sql");
  // Read-only openers cannot migrate and say so.
  CHECK_THROWS_WITH(Store::open(path, OpenMode::read_only), Catch::Contains("needs upgrading"));
  auto store = Store::open(path, OpenMode::read_write);
  CHECK(store->schema_version() == 2);
  const Run run = store->load_run("11111111-1111-4111-8111-111111111111");
  REQUIRE(run.results.size() == 1);
  CHECK(run.results[0].samples == std::vector<double>{10, 11, 12});
  const auto acks = store->list_acks();
  REQUIRE(acks.size() == 1);
  CHECK_FALSE(acks[0].expected_ratio);
  store->save_verdicts(run.uuid, {});  // the verdicts table exists now
}

TEST_CASE("stores written by a newer perfgate, or not by perfgate, are refused") {
  TempDir dir;
  const auto path = dir.file("new.db");
  Store::open(path, OpenMode::read_write);
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &h) == SQLITE_OK);
  REQUIRE(sqlite3_exec(h, "UPDATE perfgate_schema SET version = 99", nullptr, nullptr, nullptr) ==
          SQLITE_OK);
  sqlite3_close(h);
  CHECK_THROWS_WITH(Store::open(path, OpenMode::read_write), Catch::Contains("newer perfgate"));
  CHECK_THROWS_WITH(Store::open(path, OpenMode::read_only), Catch::Contains("newer perfgate"));

  const auto other = dir.file("other.db");
  REQUIRE(sqlite3_open(other.c_str(), &h) == SQLITE_OK);
  REQUIRE(sqlite3_exec(h, "CREATE TABLE t (x)", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(h);
  CHECK_THROWS_WITH(Store::open(other, OpenMode::read_write),
                    Catch::Contains("not a perfgate store"));

  const auto text = dir.file("text.db");
  std::ofstream(text) << "this is not a database at all, just some text long enough\n";
  CHECK_THROWS_AS(Store::open(text, OpenMode::read_write), ToolError);
}
