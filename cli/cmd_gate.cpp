// `perfgate gate`: the pre-merge gate. Runs the premerge suite of the candidate build, either
// interleaved with a baseline build (A B A B …, one process per block, samples pooled per side)
// or against the store's baseline for the same fingerprint (store opened read-only), writes
// Markdown + JUnit + JSON and exits 0 pass, 1 regression, 2 usage/tool error, 3 not comparable.
#include <filesystem>
#include <iostream>
#include <iterator>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "command.hpp"
#include "compare_baseline.hpp"
#include "gate_blocks.hpp"
#include "gate_pool.hpp"
#include "gate_rerun.hpp"
#include "option_checks.hpp"
#include "perfgate/baselines/store.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/microbench/plan.hpp"
#include "perfgate/regress/block_noise.hpp"
#include "perfgate/regress/confirmation.hpp"
#include "report_comparison.hpp"
#include "report_output.hpp"

namespace perfgate::cli {

namespace {

struct GateOptions {
  std::string db;
  std::string baseline_bin, candidate_bin;
  std::string baseline = "baseline:premerge";
  std::string output_dir = "perfgate-gate";
  std::string formats = "markdown,junit,json";
  std::string report_url;
  int blocks = 5;  // docs/statistics.md, "Noise between gate blocks": 3 cried wolf in 1 gate of 8
  int confirm_blocks = 5;  // docs/statistics.md, "Confirmation blocks"
  int not_comparable_exit = exit_code::not_comparable;
  int timeout_s = 1800;
  bool advisory = false;
  SuiteInvocation suite;
  ComparisonOptions compare;
};

// Runs of the store's baseline for the candidate's fingerprint (all of them when none match:
// compare then names the fingerprint keys that differ).
std::vector<Run> store_baseline(baselines::Store& store, const std::string& selector,
                                const Run& candidate) {
  const auto uuids = store.resolve(selector, candidate.suite);
  if (uuids.empty())
    throw InsufficientDataError(
        fmt::format("gate: baseline '{}' names no run in the store", selector));
  std::vector<Run> all, same_fingerprint;
  for (const auto& uuid : uuids) {
    all.push_back(store.load_run(uuid));
    if (all.back().fingerprint.digest() == candidate.fingerprint.digest())
      same_fingerprint.push_back(all.back());
  }
  return same_fingerprint.empty() ? all : same_fingerprint;
}

int run_gate(const GateOptions& o) {
  const auto formats = report::formats_from_list(o.formats);
  const auto self = std::filesystem::read_symlink("/proc/self/exe");
  const std::optional<BuildUnderTest> baseline_bin =
      o.baseline_bin.empty()
          ? std::nullopt
          : std::optional(build_from_flag("--baseline-bin", o.baseline_bin, self));
  const BuildUnderTest candidate_bin =
      o.candidate_bin.empty() ? BuildUnderTest{self, {}}
                              : build_from_flag("--candidate-bin", o.candidate_bin, self);
  // Without a baseline build the store is the baseline: open it before spending time measuring.
  std::unique_ptr<baselines::Store> store;
  if (!baseline_bin || std::filesystem::exists(o.db))
    store = baselines::Store::open(o.db, baselines::OpenMode::read_only);

  SuiteInvocation how = o.suite;
  how.timeout = std::chrono::seconds(o.timeout_s);
  const std::filesystem::path out_dir = o.output_dir;
  std::cerr << fmt::format(
      "perfgate gate: suite '{}', {} block(s), {}\n", how.suite, o.blocks,
      baseline_bin ? "A/B against " + o.baseline_bin : "against the store's " + o.baseline);
  BlockRuns runs = run_interleaved(baseline_bin, candidate_bin, how, o.blocks, out_dir / "runs");
  // One look at the blocks measured so far: each side pooled, the spread between a build's
  // processes in the tolerance, and (A/B) the block test.
  const auto judge = [&](const BlockRuns& blocks) {
    const Run candidate = pool_runs(blocks.candidate);
    if (candidate.results.empty())
      throw InsufficientDataError("gate: the candidate's suite '" + how.suite +
                                  "' produced no results");
    // The store's baseline goes through the same policy rules as `compare` (a pooled policy
    // is cut per series at its last change point).
    const BaselineSide baseline =
        baseline_bin
            ? BaselineSide{blocks.baseline, {}}
            : baseline_side(store.get(), o.baseline, store_baseline(*store, o.baseline, candidate),
                            candidate, "gate");
    using Sides = std::vector<std::vector<Run>>;
    const auto noise = regress::between_block_noise(
        baseline_bin ? Sides{blocks.baseline, blocks.candidate} : Sides{blocks.candidate});
    auto comparison =
        compare_with_store(store.get(), baseline.runs, candidate, o.compare, noise,
                           baseline_bin ? regress::block_medians(blocks.baseline, blocks.candidate)
                                        : std::map<std::string, regress::BlockMedians>{});
    record_pools(comparison, baseline.pools);
    return comparison;
  };
  regress::Comparison comparison = judge(runs);

  // An alarm is measured again in more processes of both builds, and stands only if the
  // comparison over every block raises it again (docs/statistics.md, "Confirmation blocks").
  if (const auto alarmed = regress::alarmed_series(comparison);
      o.confirm_blocks > 0 && !alarmed.empty()) {
    std::cerr << fmt::format(
        "perfgate gate: {} alarm(s); confirming with {} more block(s) of their case(s)\n",
        alarmed.size(), o.confirm_blocks);
    std::set<std::string> cases;  // several metrics of one case are one case to run
    for (const std::string& id : alarmed) cases.insert(SeriesKey::parse_id(id).name());
    SuiteInvocation again = how;
    again.filter = microbench::exact_cases_filter({cases.begin(), cases.end()});
    BlockRuns more = run_interleaved(baseline_bin, candidate_bin, again, o.confirm_blocks,
                                     out_dir / "runs", o.blocks + 1);
    const auto measured =
        regress::confirming_blocks(o.confirm_blocks, baseline_bin.has_value(), more.baseline,
                                   more.candidate, o.blocks + 1, alarmed);
    for (auto side : {&BlockRuns::baseline, &BlockRuns::candidate})
      std::move((more.*side).begin(), (more.*side).end(), std::back_inserter(runs.*side));
    comparison =
        regress::confirm_alarms(std::move(comparison), judge(runs), measured, o.compare.alpha);
  }

  report::ReportInput input;
  input.title = "perfgate gate (" + how.suite + ")";
  input.rerun_commands = rerun_commands(comparison, how);
  input.comparison = std::move(comparison);
  input.full_report_hint = o.report_url;
  emit_reports(input, formats.empty() ? formats : [&] {
    auto with_terminal = formats;
    with_terminal.push_back(report::Format::terminal);
    return with_terminal;
  }(), out_dir);

  const int code = gate_exit_code(input.comparison, o.not_comparable_exit);
  if (o.advisory && code != exit_code::pass) {
    std::cerr << fmt::format("perfgate gate: advisory mode: exit {} reported as 0\n", code);
    return exit_code::pass;
  }
  return code;
}

}  // namespace

void add_gate_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<GateOptions>();
  auto* cmd = app.add_subcommand(
      "gate", "Pre-merge performance gate (A/B against a baseline build, or the store)");
  add_db_option(*cmd, opts->db);
  cmd->add_option("--suite", opts->suite.suite, "Suite to run (default premerge)");
  cmd->add_option("--filter", opts->suite.filter, "Only the benchmarks matching this filter");
  cmd->add_option(
      "--baseline-bin", opts->baseline_bin,
      "The baseline build's perfgate (or perfgate-microbench): run A/B on this machine");
  cmd->add_option("--candidate-bin", opts->candidate_bin,
                  "The candidate build's perfgate (default: this one)");
  cmd->add_option("--baseline", opts->baseline,
                  "Store baseline when no --baseline-bin is given (default baseline:premerge)");
  cmd->add_option("--blocks", opts->blocks,
                  "Repetition blocks per side, one process each (default 5)")
      ->check(number_in(1, 100));
  cmd->add_option("--confirm-blocks", opts->confirm_blocks,
                  "More blocks per side, of the alarmed cases only, before an alarm stands "
                  "(default 5; 0: none)")
      ->check(number_in(0, 100));
  add_measure_options(*cmd, opts->suite.measure);
  cmd->add_option("--run-arg", opts->suite.extra_args,
                  "Extra argument for each `run` process (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--timeout", opts->timeout_s, "Seconds allowed per process (default 1800)")
      ->check(number_in(1, 86400));
  cmd->add_option("--output-dir", opts->output_dir,
                  "Where reports and block documents go (default perfgate-gate)");
  cmd->add_option("--format", opts->formats, "Report files to write (default markdown,junit,json)");
  cmd->add_option("--report-url", opts->report_url,
                  "Where the full report will be (linked from the Markdown)");
  cmd->add_option("--not-comparable-exit", opts->not_comparable_exit,
                  "Exit code for not comparable / insufficient data: 0, 1 or 3 (default 3)")
      ->check(CLI::IsMember({0, 1, 3}));
  cmd->add_flag("--advisory", opts->advisory, "Report, but exit 0 whatever the verdicts");
  add_comparison_options(*cmd, opts->compare);
  cmd->callback([&action, opts] { action = [opts] { return run_gate(*opts); }; });
}

}  // namespace perfgate::cli
