#include <catch2/catch.hpp>

#include <sstream>

#include "perfgate/core/error.hpp"
#include "store_fixtures.hpp"

using namespace perfgate;
using namespace perfgate::baselines;
using namespace perfgate::baselines::testing;

TEST_CASE("prune drops old raw samples and keeps every summary") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  for (int d = 1; d <= 4; ++d) store->ingest(make_run("r" + std::to_string(d), day(d)));
  const auto out = store->prune_samples(day(3));
  CHECK(out.results == 4);   // 2 runs x 2 series
  CHECK(out.samples == 10);  // 2 runs x (3 + 2)
  HistoryFilter f;
  f.with_samples = true;
  const auto h = store->history("gemm/size:1024@time", f);
  REQUIRE(h.size() == 4);
  CHECK(h[0].samples.empty());
  CHECK(h[0].summary.n == 3);
  CHECK(h[0].summary.median == 101);
  CHECK(h[3].samples.size() == 3);
  CHECK(store->load_run("r1").results[1].summary.median == 101);
}

TEST_CASE("backup is a complete, separate store and never overwrites") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  store->ingest(make_run("r1", day(1)));
  store->backup(dir.file("copy.db"));
  CHECK_THROWS_AS(store->backup(dir.file("copy.db")), InputError);
  auto copy = Store::open(dir.file("copy.db"), OpenMode::read_only);
  CHECK(copy->load_run("r1").results.size() == 2);
  // A read-only store can be backed up too.
  auto ro = Store::open(dir.file("s.db"), OpenMode::read_only);
  ro->backup(dir.file("copy2.db"));
  CHECK(Store::open(dir.file("copy2.db"), OpenMode::read_only)->resolve("latest").size() == 1);
}

TEST_CASE("export writes every result as CSV, or every run as a perfgate document") {
  TempDir dir;
  auto store = Store::open(dir.file("s.db"), OpenMode::read_write);
  Run run = make_run("r1", day(1));
  run.suite = "night,ly";  // needs quoting
  store->ingest(run);
  std::ostringstream csv;
  store->export_to(csv, ExportFormat::csv);
  const std::string text = csv.str();
  CHECK_THAT(text, Catch::StartsWith("run_uuid,suite,branch"));
  CHECK_THAT(text, Catch::Contains("r1,\"night,ly\",main"));
  CHECK_THAT(text, Catch::Contains("gemm/size:1024@time,ns,lower_is_better,ok,3,101"));
  CHECK_THAT(text, Catch::Contains("100 101 102"));
  std::ostringstream js;
  store->export_to(js, ExportFormat::json);
  const auto docs = nlohmann::json::parse(js.str());
  REQUIRE(docs.size() == 1);
  CHECK(docs[0]["perfgate"]["run"]["uuid"] == "r1");
}
