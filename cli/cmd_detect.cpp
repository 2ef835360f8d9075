// `perfgate detect`: change points over each series' history in the store (DESIGN.md §4).
// Exit 1 when a confirmed regression begins among the newest runs, so a nightly job can alert.
#include <cmath>
#include <iostream>
#include <map>
#include <memory>

#include "command.hpp"
#include "option_checks.hpp"
#include "perfgate/baselines/store.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/regress/changepoints.hpp"
#include "regress_detect_output.hpp"

namespace perfgate::cli {

namespace {

struct DetectOptions {
  std::string db, pattern = "*", format = "text", branch;
  std::size_t last = 0, alert_window = 0;
  regress::DetectConfig config;
};

// The metric's direction is stored with each result, not with the history: read it from the
// newest run (cached, since most series share it).
Direction series_direction(baselines::Store& store, std::map<std::string, Run>& runs,
                           const std::string& uuid, const std::string& series_id) {
  auto it = runs.find(uuid);
  if (it == runs.end()) it = runs.emplace(uuid, store.load_run(uuid)).first;
  for (const Result& r : it->second.results)
    if (r.key.id() == series_id) return r.direction;
  return Direction::lower_is_better;
}

SeriesDetection detect_series(baselines::Store& store, std::map<std::string, Run>& runs,
                              const std::string& id, const DetectOptions& o) {
  baselines::HistoryFilter filter;
  if (!o.branch.empty()) filter.branch = o.branch;
  filter.last_n = o.last;
  SeriesDetection s;
  s.series_id = id;
  std::vector<double> values;
  std::vector<std::string> labels;
  for (const auto& p : store.history(id, filter)) {
    const double v = p.summary.median;
    if (p.status != ResultStatus::ok || !std::isfinite(v) || v <= 0) {
      ++s.skipped_points;
      continue;
    }
    values.push_back(v);
    labels.push_back(p.commit.empty() ? p.run_uuid.substr(0, 8) : p.commit.substr(0, 12));
    s.run_uuids.push_back(p.run_uuid);
    s.places.push_back(p.place());
  }
  s.points = values.size();
  if (values.empty()) return s;
  regress::DetectConfig config = o.config;
  config.direction = series_direction(store, runs, s.run_uuids.back(), id);
  s.report = regress::detect_change_points(values, labels, config);
  const std::size_t window = o.alert_window ? o.alert_window : config.min_segment;
  for (const auto& cp : s.report.change_points)
    s.alert = s.alert || (cp.confirmed && cp.regression && cp.index + window >= values.size());
  return s;
}

int run_detect(const DetectOptions& o) {
  if (o.format != "text" && o.format != "json")
    throw InputError("--format: '" + o.format + "' (expected text or json)");
  if (o.config.min_segment < 2) throw InputError("--min-segment: must be at least 2");
  auto store = baselines::Store::open(o.db, baselines::OpenMode::read_only);
  const std::vector<std::string> ids = store->list_series(o.pattern);
  if (ids.empty())
    throw InsufficientDataError("detect: no series matches '" + o.pattern + "' in " + o.db);
  std::map<std::string, Run> runs;
  std::vector<SeriesDetection> results;
  bool alert = false;
  for (const std::string& id : ids) {
    results.push_back(detect_series(*store, runs, id, o));
    alert = alert || results.back().alert;
  }
  if (o.format == "json")
    std::cout << detect_json(results).dump(2) << "\n";
  else
    write_detect_text(std::cout, results);
  return alert ? exit_code::regression : exit_code::pass;
}

}  // namespace

void add_detect_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<DetectOptions>();
  auto* cmd =
      app.add_subcommand("detect", "Find change points and outliers in each series' history");
  add_db_option(*cmd, opts->db);
  cmd->add_option("--series", opts->pattern,
                  "Series pattern (glob over series ids, or re:REGEX; default *)");
  cmd->add_option("--format", opts->format, "text or json (default text)");
  cmd->add_option("--confirm", opts->config.confirm,
                  "Later runs that confirm a newest change (default 3)")
      ->check(number_in(1, 1000));
  cmd->add_option("--min-segment", opts->config.min_segment,
                  "Fewest runs on each side of a change (default 5)")
      ->check(number_in(2, 1000));
  cmd->add_option("--min-change", opts->config.min_change,
                  "Smallest relative level change (default 0.03)")
      ->check(number_in(0.0, 10.0));
  cmd->add_option("--alpha", opts->config.alpha,
                  "Permutation-test level per change point (default 0.01)")
      ->check(number_in(0.001, 0.5));
  cmd->add_option("--branch", opts->branch, "Only runs of this branch");
  cmd->add_option("--last", opts->last, "Only the newest N runs (default all)");
  cmd->add_option(
      "--alert-window", opts->alert_window,
      "Exit 1 for confirmed regressions starting within the newest N runs (default --min-segment)");
  cmd->callback([&action, opts] { action = [opts] { return run_detect(*opts); }; });
}

}  // namespace perfgate::cli
