// `perfgate verdicts RUN`: the verdicts comparisons saved for a run, with their evidence, so a
// decision can be re-checked later (DESIGN.md §3) and a skipped baseline explained.
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "perfgate/baselines/store.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/report/verdict_json.hpp"

namespace perfgate::cli {

namespace {

struct VerdictsOptions {
  std::string run, db, format = "text";
};

std::string optional_text(const std::optional<double>& x, const char* spec) {
  return x ? fmt::format(fmt::runtime(spec), *x) : "-";
}

// One run by its prefix; a pool by its size and newest run (the JSON lists them all).
std::string short_runs(const std::vector<std::string>& uuids) {
  if (uuids.empty()) return "-";
  if (uuids.size() == 1) return uuids.front().substr(0, 8);
  return fmt::format("{} runs, {}..", uuids.size(), uuids.front().substr(0, 8));
}

void print_text(const std::string& run, const std::vector<VerdictRecord>& verdicts) {
  std::cout << fmt::format("run {}: {} saved verdict(s)\n", run, verdicts.size());
  std::cout << fmt::format("  {:<14} {:<40} {:>8} {:>19} {:>9} {:>9} {:>6} {:>9}  {:<20} {}\n",
                           "verdict", "series", "ratio", "interval", "p", "p_adj", "tol", "n b/c",
                           "baseline", "reason");
  for (const VerdictRecord& v : verdicts) {
    const std::string interval = v.ratio_low && v.ratio_high
                                     ? fmt::format("[{:.4f}, {:.4f}]", *v.ratio_low, *v.ratio_high)
                                     : "-";
    std::cout << fmt::format(
        "  {:<14} {:<40} {:>8} {:>19} {:>9} {:>9} {:>6.3f} {:>9}  {:<20} {}\n", to_string(v.kind),
        v.series_id, optional_text(v.ratio, "{:.4f}"), interval, optional_text(v.p_value, "{:.3g}"),
        optional_text(v.p_adjusted, "{:.3g}"), v.tolerance,
        fmt::format("{}/{}", v.n_baseline, v.n_candidate), short_runs(v.baseline_runs), v.reason);
  }
}

int run_verdicts(const VerdictsOptions& o) {
  auto store = baselines::Store::open(o.db, baselines::OpenMode::read_only);
  const std::vector<std::string> uuids = store->resolve(o.run);
  if (uuids.empty()) throw InputError("verdicts: '" + o.run + "' names no run in " + o.db);
  const std::string& run = uuids.front();
  const std::vector<VerdictRecord> verdicts = store->load_verdicts(run);
  if (o.format == "json") {
    nlohmann::json all = nlohmann::json::array();
    for (const VerdictRecord& v : verdicts) all.push_back(report::verdict_json(v));
    std::cout << nlohmann::json{{"run", run}, {"verdicts", all}}.dump(2) << "\n";
  } else {
    print_text(run, verdicts);
  }
  return exit_code::pass;
}

}  // namespace

void add_verdicts_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<VerdictsOptions>();
  auto* cmd =
      app.add_subcommand("verdicts", "Show the verdicts saved for a run by `perfgate compare`");
  cmd->add_option("run", o->run, "run selector (uuid or prefix, latest, latest~N, branch:NAME)")
      ->required();
  add_db_option(*cmd, o->db);
  cmd->add_option("--format", o->format, "text|json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([o, &action] { action = [o] { return run_verdicts(*o); }; });
}

}  // namespace perfgate::cli
