#include <catch2/catch.hpp>

#include "golden.hpp"
#include "perfgate/report/report.hpp"
#include "sample_comparison.hpp"

using namespace perfgate;
using namespace perfgate::report;
using namespace perfgate::report::testing;

TEST_CASE("markdown matches the golden file") {
  check_golden("report.md", render(Format::markdown, sample_input()));
}

TEST_CASE("markdown puts the summary first and hides SAME rows outside the details") {
  const std::string md = render_markdown(sample_input(), {});
  const auto summary = md.find("REGRESSION: 2 REGRESSION");
  REQUIRE(summary != std::string::npos);
  CHECK(summary < md.find("| Verdict |"));
  const auto same_details = md.find("<details><summary>2 SAME series</summary>");
  REQUIRE(same_details != std::string::npos);
  CHECK(md.find("attention/heads:16/seq:2048@time") > same_details);
  CHECK(md.find("| REGRESSION") == std::string::npos);  // bold, not plain
  CHECK(md.find("| **REGRESSION** | gemm/k:4096/m:4096/n:4096@time | +12.3% |") !=
        std::string::npos);
}

TEST_CASE("markdown escapes names that come from code under review") {
  const std::string md = render_markdown(sample_input(), {});
  CHECK(md.find("<script>") == std::string::npos);
  CHECK(md.find("&lt;script&gt;") != std::string::npos);
  CHECK(md.find("\\|x@time") != std::string::npos);  // a '|' would split the table row
}

TEST_CASE("markdown stays under its character limit and points to the full report") {
  ReportInput in = sample_input();
  for (int i = 0; i < 3000; ++i)
    in.comparison.verdicts.push_back(
        make_verdict("family_with_a_long_name/param_a:" + std::to_string(i) + "/param_b:value@time",
                     VerdictKind::regression, 1.2));
  const std::string md = render_markdown(in, {});
  CHECK(md.size() <= 60'000);
  CHECK(md.find("Truncated to stay under 60000 characters") != std::string::npos);
  CHECK(md.find("Full report: https://ci.example/artifacts/report.html") != std::string::npos);
  // The worst rows survive the cut: the +20% rows come before the +12.3% one.
  CHECK(md.find("family\\_with\\_a\\_long\\_name/param\\_a:0/") != std::string::npos);
  CHECK(md.find("gemm/k:4096/m:4096/n:4096@time") == std::string::npos);

  MarkdownOptions small;
  small.max_chars = 2'000;
  CHECK(render_markdown(in, small).size() <= 2'000);
}

TEST_CASE("markdown says so when every series is the same") {
  ReportInput in;
  in.comparison.verdicts = {make_verdict("a/x:1@time", VerdictKind::same, 1.0)};
  const std::string md = render_markdown(in, {});
  CHECK(md.find("PASS") != std::string::npos);
  CHECK(md.find("Every series is within its tolerance.") != std::string::npos);
}

TEST_CASE("markdown and JUnit show what a gate's blocks and confirming look said") {
  const auto first = [](double ratio) {
    return nlohmann::json{
        {"verdict", "REGRESSION"}, {"reason", "interval_beyond_tolerance"}, {"ratio", ratio}};
  };
  const auto confirmation = [&](const char* outcome, double ratio, const nlohmann::json& second,
                                const nlohmann::json& measured) {
    return nlohmann::json{{"added_blocks", 5},
                          {"measured_blocks", measured},
                          {"first", first(ratio)},
                          {"second", second},
                          {"outcome", outcome}};
  };
  const nlohmann::json all_measured = {{"baseline", 5}, {"candidate", 5}};
  ReportInput in;
  VerdictRecord confirmed = make_verdict("a/x:1@time", VerdictKind::regression, 1.4);
  confirmed.details["block_test"] = {
      {"baseline_blocks", 10}, {"candidate_blocks", 10}, {"p_value", 2.0 / 184756}};
  confirmed.details["confirmation"] = confirmation("confirmed", 1.45, first(1.4), all_measured);
  VerdictRecord withdrawn = make_verdict("a/x:2@time", VerdictKind::inconclusive, 1.02);
  withdrawn.reason = "alarm_not_confirmed";
  withdrawn.details["confirmation"] =
      confirmation("not_confirmed", 1.3, {{"verdict", "SAME"}, {"ratio", 1.02}}, all_measured);
  VerdictRecord failed = make_verdict("a/x:3@time", VerdictKind::failed, 1.0);
  failed.reason = "candidate_error";
  failed.details["confirmation"] = confirmation("second_look_stands", 1.2, {{"verdict", "FAILED"}},
                                                {{"baseline", 5}, {"candidate", 0}});
  VerdictRecord unmeasured = make_verdict("a/x:4@time", VerdictKind::not_comparable, 1.25);
  unmeasured.reason = "confirmation_not_measured";
  unmeasured.details["confirmation"] =
      confirmation("not_measured", 1.25, first(1.25), {{"baseline", 5}, {"candidate", 3}});
  unmeasured.details["confirmation"]["unmeasured"] = {"candidate block 7: crashed (signal 11)",
                                                      "candidate block 9: absent"};
  VerdictRecord skipped = make_verdict("a/x:5@time", VerdictKind::inconclusive, 1.0);
  skipped.details["block_test"] = {{"baseline_blocks", 3},
                                   {"candidate_blocks", 3},
                                   {"skipped", "too few blocks for the test to reach alpha"}};
  VerdictRecord plain = make_verdict("a/x:6@time", VerdictKind::regression, 1.3);
  in.comparison.verdicts = {confirmed, withdrawn, failed, unmeasured, skipped, plain};
  const std::string junit = render(Format::junit, in);
  for (const std::string& text : {render_markdown(in, {}), junit}) {
    CHECK(text.find("blocks p 1.1e-05 (10 vs 10), confirmed with 5 more blocks (first look "
                    "REGRESSION +45.0%)") != std::string::npos);
    CHECK(text.find("first look REGRESSION +30.0%, not raised again with 5 more blocks") !=
          std::string::npos);
    // A failure in the confirming blocks is not told as a withdrawn alarm.
    CHECK(text.find("first look REGRESSION +20.0%, second look FAILED with 5 more blocks") !=
          std::string::npos);
    CHECK(
        text.find("first look REGRESSION +25.0%, not measured again: baseline 5, candidate 3 "
                  "of 5 confirming blocks (candidate block 7: crashed (signal 11), and 1 more)") !=
        std::string::npos);
    CHECK(text.find("block test skipped (3 vs 3 blocks)") != std::string::npos);
    CHECK(text.find("not raised again") == text.rfind("not raised again"));  // once only
  }
  // A verdict outside a gate gets no block or confirmation text.
  auto lone = in;
  lone.comparison.verdicts = {plain};
  const std::string lone_md = render_markdown(lone, {});
  CHECK(lone_md.find("blocks") == std::string::npos);
  CHECK(lone_md.find("look") == std::string::npos);
  // Malformed details (a hand-edited document) are read as far as they go, never thrown on.
  VerdictRecord odd = make_verdict("a/x:7@time", VerdictKind::regression, 1.3);
  odd.details["confirmation"] = {{"first", 3}, {"second", "x"}, {"added_blocks", "five"}};
  lone.comparison.verdicts = {odd};
  CHECK_NOTHROW(render_markdown(lone, {}));
  odd.details["confirmation"] = {{"first", {{"verdict", "REGRESSION"}}},
                                 {"outcome", "not_measured"},
                                 {"unmeasured", {3, "x"}},
                                 {"measured_blocks", "none"}};
  odd.details["block_test"] = 7;
  lone.comparison.verdicts = {odd};
  CHECK_NOTHROW(render_markdown(lone, {}));
}
