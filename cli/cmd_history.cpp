// `perfgate history SERIES`: one series' per-run summaries, oldest first.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "perfgate/baselines/store.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"

namespace perfgate::cli {

namespace {
struct HistoryOptions {
  std::string series, db, format = "text", branch, suite, fingerprint, since, until;
  std::size_t last = 0;
  bool samples = false;
};

std::optional<std::string> given(const std::string& s) {
  return s.empty() ? std::nullopt : std::optional(s);
}

// A series id, or a pattern ("gemm/*@time"; without '@': every metric of that name).
std::vector<std::string> series_to_show(baselines::Store& store, const std::string& text) {
  auto ids = store.list_series(text);
  if (ids.empty())
    throw InputError("unknown series '" + text + "' in store " + store.path().string());
  return ids;
}

nlohmann::json point_json(const baselines::HistoryPoint& p, bool samples) {
  nlohmann::json j = {{"run", p.run_uuid},
                      {"started_at", p.started_at},
                      {"branch", p.branch},
                      {"commit", p.commit},
                      {"status", to_string(p.status)},
                      {"n", p.summary.n},
                      {"median", p.summary.median},
                      {"mad", p.summary.mad},
                      {"mean", p.summary.mean},
                      {"min", p.summary.min},
                      {"max", p.summary.max},
                      {"host", p.host},
                      {"gpu_pci_bus_id", p.gpu_pci_bus_id}};
  if (samples) j["samples"] = p.samples;
  return j;
}
}  // namespace

void add_history_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<HistoryOptions>();
  auto* cmd = app.add_subcommand("history", "Show a series over runs");
  cmd->add_option("series", o->series, "series id (family/k:v@metric) or pattern")->required();
  add_db_option(*cmd, o->db);
  cmd->add_option("--format", o->format, "text|json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--branch", o->branch, "only runs on this branch");
  cmd->add_option("--suite", o->suite, "only runs of this suite");
  cmd->add_option("--fingerprint", o->fingerprint, "only runs with this fingerprint digest");
  cmd->add_option("--since", o->since, "ISO-8601 date or time");
  cmd->add_option("--until", o->until, "ISO-8601 date or time (a date includes that day)");
  cmd->add_option("--last", o->last, "only the last N runs");
  cmd->add_flag("--samples", o->samples, "include raw samples (json)");
  cmd->callback([o, &action] {
    action = [o] {
      auto store = baselines::Store::open(o->db, baselines::OpenMode::read_only);
      baselines::HistoryFilter f;
      f.branch = given(o->branch);
      f.suite = given(o->suite);
      f.fingerprint_digest = given(o->fingerprint);
      f.since = given(o->since);
      f.until = given(o->until);
      f.last_n = o->last;
      f.with_samples = o->samples;
      nlohmann::json all = nlohmann::json::array();
      for (const auto& id : series_to_show(*store, o->series)) {
        const auto points = store->history(id, f);
        if (o->format == "json") {
          nlohmann::json pts = nlohmann::json::array();
          for (const auto& p : points) pts.push_back(point_json(p, o->samples));
          all.push_back({{"series", id}, {"points", pts}});
          continue;
        }
        std::cout << id << "\n";
        std::cout << fmt::format("  {:<8}  {:<20}  {:<10}  {:>4}  {:>14}  {:>12}  {:<8}  {}\n",
                                 "run", "date", "commit", "n", "median", "MAD", "status", "where");
        for (const auto& p : points)
          std::cout << fmt::format(
              "  {:<8}  {:<20}  {:<10}  {:>4}  {:>14.6g}  {:>12.4g}  {:<8}  {}\n",
              p.run_uuid.substr(0, 8), p.started_at, p.commit.substr(0, 10), p.summary.n,
              p.summary.median, p.summary.mad, to_string(p.status), p.place());
      }
      if (o->format == "json") std::cout << all.dump(2) << "\n";
      return exit_code::pass;
    };
  });
}

}  // namespace perfgate::cli
