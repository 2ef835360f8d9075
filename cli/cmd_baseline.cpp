// `perfgate baseline set|list|show|rm|ack`: named baseline policies and acknowledged regressions.
#include <cstdlib>
#include <iostream>
#include <regex>

#include <fmt/format.h>

#include "command.hpp"
#include "perfgate/baselines/store.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/process.hpp"

namespace perfgate::cli {

namespace {

struct BaselineOptions {
  std::string db, name, run, nightly_branch, branch, suite;
  std::size_t pooled_last = 0;
  // ack
  std::string pattern, reason, expires, author;
  std::optional<double> expected_ratio;
};

std::unique_ptr<baselines::Store> open_rw(const BaselineOptions& o) {
  return baselines::Store::open(o.db, baselines::OpenMode::read_write);
}

// $USER, else git's user.name: who acknowledged it should never be blank.
std::string default_author() {
  if (const char* user = std::getenv("USER"); user && *user) return user;
  if (find_program("git")) {
    const auto r = run_process({"git", "config", "user.name"});
    if (r.ok() && !r.out.empty()) return r.out.substr(0, r.out.find('\n'));
  }
  return "unknown";
}

// --expires YYYY-MM-DD: the ack holds through that whole day (UTC).
std::string expiry_from_date(const std::string& date) {
  static const std::regex re(R"(\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]))");
  if (!std::regex_match(date, re))
    throw InputError("--expires '" + date + "': expected a date YYYY-MM-DD");
  return date + "T23:59:59Z";
}

int set_baseline(const BaselineOptions& o) {
  const int chosen = !o.run.empty() + !o.nightly_branch.empty() + (o.pooled_last > 0);
  if (chosen != 1)
    throw InputError("baseline set " + o.name +
                     ": give exactly one of --run, --latest-nightly-on, --pooled-last");
  auto store = open_rw(o);
  baselines::BaselinePolicy p;
  p.name = o.name;
  if (!o.suite.empty()) p.suite = o.suite;
  if (!o.run.empty()) {
    const auto runs = store->resolve(o.run, p.suite);
    if (runs.size() != 1)
      throw InputError("--run " + o.run + " names " + std::to_string(runs.size()) +
                       " runs; pin exactly one");
    p.kind = baselines::BaselinePolicy::Kind::pinned_run;
    p.run_uuid = runs.front();
  } else if (!o.nightly_branch.empty()) {
    p.kind = baselines::BaselinePolicy::Kind::latest_nightly;
    p.branch = o.nightly_branch;
  } else {
    p.kind = baselines::BaselinePolicy::Kind::pooled_last_k;
    p.k = o.pooled_last;
    if (!o.branch.empty()) p.branch = o.branch;
  }
  store->set_baseline(p);
  std::cout << "baseline " << p.name << ": " << describe(p) << "\n";
  return exit_code::pass;
}

int list_baselines(const BaselineOptions& o) {
  auto store = baselines::Store::open(o.db, baselines::OpenMode::read_only);
  for (const auto& p : store->list_baselines())
    std::cout << fmt::format("{:<20} {}\n", p.name, describe(p));
  const auto acks = store->list_acks();
  if (!acks.empty()) std::cout << "\nacks:\n";
  for (const auto& a : acks)
    std::cout << fmt::format(
        "  #{} {} (by {}, until {}{}): {}\n", a.id, a.pattern, a.author, a.expires_at.substr(0, 10),
        a.expected_ratio ? fmt::format(", expected ratio {}", *a.expected_ratio) : "", a.reason);
  return exit_code::pass;
}

int show_baseline(const BaselineOptions& o) {
  auto store = baselines::Store::open(o.db, baselines::OpenMode::read_only);
  const auto resolved = store->resolve_baseline(o.name);
  std::cout << resolved.explanation << "\n";
  for (const auto& uuid : resolved.run_uuids) std::cout << uuid << "\n";
  return exit_code::pass;
}

int ack(const BaselineOptions& o) {
  Ack a;
  a.pattern = o.pattern;
  a.reason = o.reason;
  a.expires_at = expiry_from_date(o.expires);
  a.author = o.author.empty() ? default_author() : o.author;
  a.expected_ratio = o.expected_ratio;
  const auto id = open_rw(o)->add_ack(a);
  std::cout << fmt::format("ack #{}: {} until {} ({})\n", id, a.pattern, o.expires, a.author);
  return exit_code::pass;
}

}  // namespace

void add_baseline_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<BaselineOptions>();
  auto* cmd = app.add_subcommand("baseline", "Manage baselines and acks");
  cmd->require_subcommand(1);
  add_db_option(*cmd, o->db);

  auto* set = cmd->add_subcommand("set", "Define a named baseline policy");
  set->add_option("name", o->name, "baseline name")->required();
  set->add_option("--run", o->run, "pin one run (uuid, prefix, latest, latest~N, branch:B)");
  set->add_option("--latest-nightly-on", o->nightly_branch, "latest complete nightly on BRANCH");
  set->add_option("--pooled-last", o->pooled_last, "pool the samples of the last K nightlies");
  set->add_option("--branch", o->branch, "with --pooled-last: only nightlies on this branch");
  set->add_option("--suite", o->suite, "only runs of this suite");
  set->callback([o, &action] { action = [o] { return set_baseline(*o); }; });

  cmd->add_subcommand("list", "List baselines and acks")->callback([o, &action] {
    action = [o] { return list_baselines(*o); };
  });
  auto* show = cmd->add_subcommand("show", "Show the runs a baseline resolves to, and why");
  show->add_option("name", o->name, "baseline name")->required();
  show->callback([o, &action] { action = [o] { return show_baseline(*o); }; });
  auto* rm = cmd->add_subcommand("rm", "Remove a baseline");
  rm->add_option("name", o->name, "baseline name")->required();
  rm->callback([o, &action] {
    action = [o] {
      open_rw(*o)->remove_baseline(o->name);
      std::cout << "removed baseline " << o->name << "\n";
      return exit_code::pass;
    };
  });

  auto* ack_cmd = cmd->add_subcommand("ack", "Acknowledge a regression for matching series");
  ack_cmd->add_option("pattern", o->pattern, "series pattern, e.g. 'gemm/*@time'")->required();
  ack_cmd->add_option("--reason", o->reason, "why this is expected")->required();
  ack_cmd->add_option("--expires", o->expires, "last day the ack holds (YYYY-MM-DD)")->required();
  ack_cmd->add_option("--expected-ratio", o->expected_ratio,
                      "expected new level (candidate/baseline)");
  ack_cmd->add_option("--author", o->author, "default: $USER, else git config user.name");
  ack_cmd->callback([o, &action] { action = [o] { return ack(*o); }; });
}

}  // namespace perfgate::cli
