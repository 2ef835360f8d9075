// A store opened read-only (as the gate opens it) cannot be written through any member of
// baselines::Store: every writer throws, and the file's bytes are unchanged.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "perfgate/baselines/store.hpp"
#include "perfgate/core/identity.hpp"

namespace fs = std::filesystem;
using namespace perfgate;
using namespace perfgate::baselines;

namespace {

std::string file_digest(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return fnv1a64_hex(s.str()) + "/" + std::to_string(s.str().size());
}

Run small_run() {
  Run run;
  run.uuid = new_uuid();
  run.suite = "reliability";
  run.trigger = Trigger::nightly;
  run.started_at = run.ended_at = "2026-11-29T22:00:00Z";
  Result r;
  r.key = {"copy", {{"n", "1024"}}, "time"};
  r.samples = {1.0, 2.0, 3.0};
  r.summary = summarize(r.samples);
  run.results.push_back(r);
  return run;
}

}  // namespace

TEST_CASE("read-only store: every writing member throws and the file is unchanged") {
  const fs::path dir = fs::temp_directory_path() / ("perfgate-ro-" + new_uuid());
  fs::create_directories(dir);
  const fs::path db = dir / "store.db";
  const Run stored = small_run();
  Store::open(db, OpenMode::read_write)->ingest(stored);
  const std::string before = file_digest(db);

  auto store = Store::open(db, OpenMode::read_only);
  CHECK_THROWS(store->ingest(small_run()));
  CHECK_THROWS(store->save_verdicts(stored.uuid, {VerdictRecord{}}));
  BaselinePolicy policy;
  policy.name = "pinned";
  policy.kind = BaselinePolicy::Kind::pinned_run;
  policy.run_uuid = stored.uuid;
  CHECK_THROWS(store->set_baseline(policy));
  CHECK_THROWS(store->remove_baseline("pinned"));
  Ack ack;
  ack.pattern = "copy/*";
  ack.reason = "r";
  ack.author = "a";
  ack.expires_at = "2099-01-01T00:00:00Z";
  CHECK_THROWS(store->add_ack(ack));
  CHECK_THROWS(store->prune_samples("2099-01-01T00:00:00Z"));
  // Reading still works.
  CHECK(store->load_run(stored.uuid).results.size() == 1);
  store.reset();

  CHECK(file_digest(db) == before);
  CHECK_THROWS(Store::open(dir / "missing.db", OpenMode::read_only));  // never created
  CHECK_FALSE(fs::exists(dir / "missing.db"));
  fs::remove_all(dir);
}
