// `perfgate ingest FILE...`: every file is parsed before the store is opened, so a bad file
// leaves the store untouched (not even created).
#include <iostream>

#include <fmt/format.h>

#include "command.hpp"
#include "perfgate/baselines/ingest.hpp"
#include "perfgate/baselines/store.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/preflight/doctor.hpp"

namespace perfgate::cli {

namespace {
struct IngestOptions {
  std::vector<std::string> files;
  std::string db, format = "auto", suite, trigger, branch, commit, started_at;
};

// --started-at, as the store records it (UTC); checked before any file is read.
std::string started_at_of(const std::string& text) {
  if (const auto utc = baselines::utc_time_from_text(text)) return *utc;
  throw InputError("--started-at '" + text +
                   "': not a date and time with its zone (e.g. 2026-11-20T03:12:44Z or "
                   "2026-11-20T04:12:44+01:00)");
}

void apply_overrides(const IngestOptions& o, Run& run) {
  if (!o.suite.empty()) run.suite = o.suite;
  if (!o.trigger.empty()) run.trigger = trigger_from_string(o.trigger);
  if (!o.branch.empty()) run.code.branch = o.branch;
  if (!o.commit.empty()) run.code.commit = o.commit;
}
}  // namespace

void add_ingest_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<IngestOptions>();
  auto* cmd = app.add_subcommand("ingest", "Load result files into the store");
  cmd->add_option("files", opts->files,
                  "perfgate documents, Google Benchmark JSON, nccl-tests logs or JSON; - reads "
                  "standard input (zcat LOG.gz | perfgate ingest -)")
      ->required();
  add_db_option(*cmd, opts->db);
  cmd->add_option("--format", opts->format,
                  "auto|perfgate|gbench|nccl-tests (its log or JSON; default: auto)");
  cmd->add_option("--suite", opts->suite,
                  "suite name to record (foreign files: gbench, nccl-tests)");
  cmd->add_option("--trigger", opts->trigger, "nightly|premerge|adhoc");
  cmd->add_option("--branch", opts->branch, "branch of the code under test");
  cmd->add_option("--commit", opts->commit, "commit of the code under test");
  cmd->add_option("--started-at", opts->started_at,
                  "when the runs started, with its zone (2026-11-20T03:12:44Z), for files "
                  "ingested after the fact; default: the time the file records (perfgate "
                  "documents, Google Benchmark's context.date, the zoned stamp on an nccl-tests "
                  "log's first table header), else now");
  cmd->callback([opts, &action] {
    action = [opts] {
      const auto format = baselines::format_from_string(opts->format);
      const std::string started_at =
          opts->started_at.empty() ? "" : started_at_of(opts->started_at);
      std::vector<Run> runs;
      for (const auto& f : opts->files) {
        runs.push_back(baselines::read_results_file(f, format));
        apply_overrides(*opts, runs.back());
        if (!started_at.empty()) runs.back().started_at = started_at;
      }
      preflight::require_local_store(opts->db);  // SQLite locking fails on network file systems
      auto store = baselines::Store::open(opts->db, baselines::OpenMode::read_write);
      for (const auto& run : runs) {
        const auto out = store->ingest(run);
        if (out.inserted)
          std::cout << fmt::format("ingested {} ({} series, {} samples)\n", out.run_uuid,
                                   out.series, out.samples);
        else
          std::cout << "already stored: " << out.run_uuid << "\n";
      }
      return exit_code::pass;
    };
  });
}

}  // namespace perfgate::cli
