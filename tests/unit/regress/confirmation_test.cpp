// The gate's confirmation merge: which verdicts a second look may change, and how.
#include <cmath>

#include <catch2/catch.hpp>

#include "perfgate/core/exit_codes.hpp"
#include "perfgate/regress/confirmation.hpp"

using namespace perfgate;

namespace {

VerdictRecord verdict(const std::string& id, VerdictKind kind, const std::string& reason,
                      double ratio) {
  VerdictRecord v;
  v.series_id = id;
  v.kind = kind;
  v.reason = reason;
  v.ratio = ratio;
  v.ratio_low = ratio * 0.98;
  v.ratio_high = ratio * 1.02;
  v.details["direction"] = "lower_is_better";
  return v;
}

regress::Comparison comparison(std::vector<VerdictRecord> verdicts) {
  regress::Comparison c;
  c.verdicts = std::move(verdicts);
  for (const auto& v : c.verdicts) ++c.counts[v.kind];
  return c;
}

// Confirming blocks that measured each of `ids` `count` times on both sides.
regress::ConfirmingBlocks measured(int count, const std::vector<std::string>& ids) {
  regress::ConfirmingBlocks blocks{count, true, {}, {}, {}};
  for (const auto& id : ids)
    blocks.baseline[id] = blocks.candidate[id] = static_cast<std::size_t>(count);
  return blocks;
}

const VerdictRecord& find(const regress::Comparison& c, const std::string& id) {
  for (const auto& v : c.verdicts)
    if (v.series_id == id) return v;
  FAIL("no verdict for " << id);
  return c.verdicts.front();
}

}  // namespace

TEST_CASE("alarmed series are the REGRESSION and IMPROVEMENT verdicts") {
  const auto c = comparison({verdict("a@time", VerdictKind::regression, "x", 1.5),
                             verdict("b@time", VerdictKind::same, "x", 1.0),
                             verdict("c@time", VerdictKind::improvement, "x", 0.5),
                             verdict("d@time", VerdictKind::inconclusive, "x", 1.3)});
  CHECK(regress::alarmed_series(c) == std::set<std::string>{"a@time", "c@time"});
}

TEST_CASE("a second look keeps only the alarms it raises again") {
  const auto first = comparison({
      verdict("a@time", VerdictKind::regression, "interval_beyond_tolerance", 1.40),
      verdict("b@time", VerdictKind::same, "interval_within_tolerance", 1.00),
      verdict("c@time", VerdictKind::improvement, "interval_beyond_tolerance", 0.70),
      verdict("d@time", VerdictKind::regression, "interval_beyond_tolerance", 1.60),
  });
  auto second = comparison({
      verdict("a@time", VerdictKind::regression, "interval_beyond_tolerance", 1.35),
      // b was no alarm: whatever the second look says of it is not used.
      verdict("b@time", VerdictKind::regression, "interval_beyond_tolerance", 1.30),
      verdict("c@time", VerdictKind::same, "interval_within_tolerance", 0.99),
      // d is absent from the second look, as if the comparison had dropped it.
  });
  second.baseline_runs = {"b1", "b2"};
  const auto merged =
      regress::confirm_alarms(first, second, measured(5, {"a@time", "c@time", "d@time"}), 0.05);

  const auto& a = find(merged, "a@time");
  CHECK(a.kind == VerdictKind::regression);
  CHECK(a.ratio.value() == Approx(1.35));  // the estimate over every block
  CHECK(a.details["confirmation"]["added_blocks"] == 5);
  CHECK(a.details["confirmation"]["first"]["verdict"] == "REGRESSION");
  CHECK(a.details["confirmation"]["first"]["ratio"].get<double>() == Approx(1.40));
  CHECK(a.details["confirmation"]["second"]["verdict"] == "REGRESSION");
  CHECK(a.details["confirmation"]["outcome"] == "confirmed");
  CHECK(a.details["confirmation"]["measured_blocks"]["baseline"] == 5);
  CHECK(a.details["confirmation"]["measured_blocks"]["candidate"] == 5);

  const auto& b = find(merged, "b@time");
  CHECK(b.kind == VerdictKind::same);
  CHECK(b.ratio.value() == Approx(1.00));
  CHECK_FALSE(b.details.contains("confirmation"));

  const auto& c = find(merged, "c@time");
  CHECK(c.kind == VerdictKind::inconclusive);
  CHECK(c.reason == "alarm_not_confirmed");
  CHECK(c.ratio.value() == Approx(0.99));
  CHECK(c.details["confirmation"]["first"]["verdict"] == "IMPROVEMENT");
  CHECK(c.details["confirmation"]["second"]["verdict"] == "SAME");
  CHECK(c.details["confirmation"]["second"]["reason"] == "interval_within_tolerance");
  CHECK(c.details["confirmation"]["outcome"] == "not_confirmed");

  const auto& d = find(merged, "d@time");
  CHECK(d.kind == VerdictKind::inconclusive);
  CHECK(d.reason == "alarm_not_confirmed");
  CHECK(d.details["confirmation"]["second"]["verdict"] == "absent");
  CHECK(d.details["confirmation"]["outcome"] == "not_confirmed");

  // Recounted, worst first, and the geometric mean over the merged estimates.
  CHECK(merged.counts.at(VerdictKind::regression) == 1);
  CHECK(merged.counts.at(VerdictKind::inconclusive) == 2);
  CHECK(merged.counts.at(VerdictKind::same) == 1);
  CHECK(merged.counts.count(VerdictKind::improvement) == 0);
  CHECK(merged.verdicts.front().series_id == "a@time");
  CHECK(merged.geomean.series == 4);
  CHECK(merged.geomean.ratio == Approx(std::pow(1.35 * 1.00 * 0.99 * 1.60, 0.25)));
  CHECK(merged.baseline_runs == std::vector<std::string>{"b1", "b2"});
  CHECK(merged.exit_code() == exit_code::regression);
}

TEST_CASE("an alarm the second look turns around is withdrawn, not reversed") {
  const auto first =
      comparison({verdict("a@time", VerdictKind::regression, "interval_beyond_tolerance", 1.4)});
  const auto second =
      comparison({verdict("a@time", VerdictKind::improvement, "interval_beyond_tolerance", 0.8)});
  const auto merged = regress::confirm_alarms(first, second, measured(3, {"a@time"}), 0.05);
  CHECK(merged.verdicts.at(0).kind == VerdictKind::inconclusive);
  CHECK(merged.verdicts.at(0).reason == "alarm_not_confirmed");
  CHECK(merged.exit_code() == exit_code::pass);
}

TEST_CASE("a confirming block that fails, or differs, is reported, not withdrawn") {
  const auto first = comparison({
      verdict("a@time", VerdictKind::regression, "interval_beyond_tolerance", 1.4),
      verdict("b@time", VerdictKind::regression, "ack_exceeded", 1.9),
  });
  auto failed = verdict("a@time", VerdictKind::failed, "candidate_error", 1.4);
  failed.ratio.reset();
  auto second =
      comparison({failed, verdict("b@time", VerdictKind::acknowledged, "acknowledged", 1.5)});
  second.differing_keys = {"gpu.driver"};
  // a's candidate failed in the confirming blocks, so none of them has an ok result of it.
  auto blocks = measured(2, {"b@time"});
  blocks.baseline["a@time"] = 2;
  const auto merged = regress::confirm_alarms(first, second, blocks, 0.05);
  const auto& a = find(merged, "a@time");
  CHECK(a.kind == VerdictKind::failed);  // a slower build that also fails must not pass
  CHECK(a.reason == "candidate_error");
  CHECK(a.details["confirmation"]["first"]["verdict"] == "REGRESSION");
  CHECK(a.details["confirmation"]["outcome"] == "second_look_stands");
  CHECK(find(merged, "b@time").kind == VerdictKind::acknowledged);
  CHECK(merged.differing_keys == std::vector<std::string>{"gpu.driver"});
  CHECK(merged.exit_code() == exit_code::not_comparable);
}

TEST_CASE("a second look is matched by series and scale") {
  auto at = [](int ranks, VerdictKind kind, double ratio) {
    auto v = verdict("sweep@time", kind, "interval_beyond_tolerance", ratio);
    v.details["scale"] = {{"nodes", 1}, {"gpus_per_node", 0}, {"ranks", ranks}};
    return v;
  };
  const auto first =
      comparison({at(2, VerdictKind::same, 1.0), at(4, VerdictKind::regression, 1.5)});
  const auto second =
      comparison({at(2, VerdictKind::regression, 1.3), at(4, VerdictKind::same, 1.01)});
  const auto merged = regress::confirm_alarms(first, second, measured(2, {"sweep@time"}), 0.05);
  CHECK(merged.counts.count(VerdictKind::regression) == 0);
  for (const auto& v : merged.verdicts) {
    const int ranks = v.details["scale"]["ranks"];
    CHECK(v.kind == (ranks == 2 ? VerdictKind::same : VerdictKind::inconclusive));
    if (ranks == 4) CHECK(v.ratio.value() == Approx(1.01));
  }
}

TEST_CASE("an alarm the confirming blocks did not measure is not judged on the first blocks") {
  // The second look pools every block, so a series the confirming processes never measured
  // (a backend gone, a case skipped) would raise its alarm again from the first blocks alone.
  const auto first = comparison({
      verdict("a@time", VerdictKind::regression, "interval_beyond_tolerance", 1.4),
      verdict("b@time", VerdictKind::regression, "interval_beyond_tolerance", 1.4),
      verdict("c@time", VerdictKind::regression, "interval_beyond_tolerance", 1.4),
  });
  const auto second = comparison({
      verdict("a@time", VerdictKind::regression, "interval_beyond_tolerance", 1.4),
      verdict("b@time", VerdictKind::regression, "interval_beyond_tolerance", 1.4),
      verdict("c@time", VerdictKind::regression, "interval_beyond_tolerance", 1.4),
  });
  regress::ConfirmingBlocks blocks{5,
                                   true,
                                   {{"a@time", 5}, {"b@time", 5}, {"c@time", 4}},
                                   {{"a@time", 5}, {"c@time", 5}},
                                   {{"c@time", {"baseline block 9: crashed (signal 11)"}}}};
  const auto merged = regress::confirm_alarms(first, second, blocks, 0.05);
  CHECK(find(merged, "a@time").kind == VerdictKind::regression);
  for (const char* id : {"b@time", "c@time"}) {
    const auto& v = find(merged, id);
    INFO(id);
    CHECK(v.kind == VerdictKind::not_comparable);
    CHECK(v.reason == "confirmation_not_measured");
    CHECK(v.details["confirmation"]["outcome"] == "not_measured");
  }
  CHECK(find(merged, "b@time").details["confirmation"]["measured_blocks"]["candidate"] == 0);
  CHECK(find(merged, "c@time").details["confirmation"]["measured_blocks"]["baseline"] == 4);
  CHECK(find(merged, "c@time").details["confirmation"]["unmeasured"] ==
        nlohmann::json::array({"baseline block 9: crashed (signal 11)"}));
  CHECK_FALSE(find(merged, "a@time").details["confirmation"].contains("unmeasured"));

  // Against the store there are no baseline processes: only the candidate's blocks count.
  regress::ConfirmingBlocks store{5, false, {}, {{"a@time", 5}, {"b@time", 5}, {"c@time", 5}}, {}};
  const auto against_store = regress::confirm_alarms(first, second, store, 0.05);
  CHECK(against_store.counts.at(VerdictKind::regression) == 3);
  CHECK_FALSE(find(against_store, "a@time")
                  .details["confirmation"]["measured_blocks"]
                  .contains("baseline"));
}

TEST_CASE("the blocks that did not measure an alarmed series are named with the reason") {
  const auto result = [](const std::string& name, ResultStatus status, std::size_t n,
                         std::string message = {}) {
    Result r;
    r.key = SeriesKey::parse_id(name + "@time");
    r.status = status;
    r.message = std::move(message);
    r.summary.n = n;
    return r;
  };
  std::vector<Run> blocks(3);
  blocks[0].results = {result("a", ResultStatus::ok, 9), result("b", ResultStatus::ok, 9)};
  blocks[1].results = {
      result("a", ResultStatus::crashed, 0, "measuring process ended by signal 11"),
      result("b", ResultStatus::ok, 0)};
  blocks[2].results = {result("b", ResultStatus::timeout, 0)};
  const std::set<std::string> series{"a@time", "b@time"};
  const auto c = regress::confirming_blocks(3, true, blocks, {blocks[0], blocks[0]}, 6, series);
  CHECK(c.requested == 3);
  CHECK(c.baseline == std::map<std::string, std::size_t>{{"a@time", 1}, {"b@time", 1}});
  CHECK(c.candidate == std::map<std::string, std::size_t>{{"a@time", 2}, {"b@time", 2}});
  // The candidate's blocks measured both series: every line is the baseline's.
  CHECK(c.unmeasured.size() == 2);
  CHECK(c.unmeasured.at("a@time") ==
        std::vector<std::string>{"baseline block 7: crashed (measuring process ended by signal 11)",
                                 "baseline block 8: absent"});
  CHECK(c.unmeasured.at("b@time") ==
        std::vector<std::string>{"baseline block 7: no samples", "baseline block 8: timeout"});
  // A series asked about that no block holds is counted nowhere and named in every block.
  const auto none = regress::confirming_blocks(1, false, {}, {blocks[2]}, 4, {"z@time"});
  CHECK(none.candidate.empty());
  CHECK(none.unmeasured.at("z@time") == std::vector<std::string>{"candidate block 4: absent"});
}
