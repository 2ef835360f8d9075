// `perfgate store prune|backup|export|info`: retention and maintenance of the store.
#include <ctime>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "command.hpp"
#include "perfgate/baselines/store.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"

namespace perfgate::cli {

namespace {

struct StoreOptions {
  std::string db, file, format = "csv", output;
  int keep_days = -1;
};

std::string days_ago_iso8601(int days) {
  const std::time_t t = std::time(nullptr) - static_cast<std::time_t>(days) * 86400;
  std::tm utc{};
  gmtime_r(&t, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", utc.tm_year + 1900, utc.tm_mon + 1,
                     utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec);
}

int prune(const StoreOptions& o) {
  if (o.keep_days < 0) throw InputError("store prune: --keep-samples-days N (N >= 0) is required");
  auto store = baselines::Store::open(o.db, baselines::OpenMode::read_write);
  const std::string cutoff = days_ago_iso8601(o.keep_days);
  const auto out = store->prune_samples(cutoff);
  std::cout << fmt::format("pruned {} samples of {} results from runs before {} (summaries kept)\n",
                           out.samples, out.results, cutoff);
  return exit_code::pass;
}

int export_store(const StoreOptions& o) {
  auto store = baselines::Store::open(o.db, baselines::OpenMode::read_only);
  const auto format =
      o.format == "json" ? baselines::ExportFormat::json : baselines::ExportFormat::csv;
  if (o.output.empty() || o.output == "-") {
    store->export_to(std::cout, format);
    return exit_code::pass;
  }
  const std::string tmp = o.output + ".partial";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw ToolError("export: cannot write " + tmp);
    store->export_to(out, format);
    if (!out.flush()) throw ToolError("export: write to " + tmp + " failed");
  }
  std::filesystem::rename(tmp, o.output);
  return exit_code::pass;
}

}  // namespace

void add_store_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<StoreOptions>();
  auto* cmd = app.add_subcommand("store", "Maintain the store");
  cmd->require_subcommand(1);
  add_db_option(*cmd, o->db);

  auto* prune_cmd = cmd->add_subcommand("prune", "Drop old raw samples; per-run summaries stay");
  prune_cmd->add_option("--keep-samples-days", o->keep_days, "keep raw samples of the last N days")
      ->required();
  prune_cmd->callback([o, &action] { action = [o] { return prune(*o); }; });

  auto* backup = cmd->add_subcommand("backup", "Online copy of the store into FILE");
  backup->add_option("file", o->file, "destination (must not exist)")->required();
  backup->callback([o, &action] {
    action = [o] {
      baselines::Store::open(o->db, baselines::OpenMode::read_only)->backup(o->file);
      std::cout << "backed up " << o->db << " to " << o->file << "\n";
      return exit_code::pass;
    };
  });

  auto* exp = cmd->add_subcommand("export", "Every result as CSV, or every run as JSON documents");
  exp->add_option("--format", o->format, "csv|json")->check(CLI::IsMember({"csv", "json"}));
  exp->add_option("--output,-o", o->output, "file (default: stdout)");
  exp->callback([o, &action] { action = [o] { return export_store(*o); }; });

  cmd->add_subcommand("info", "Schema version and size of the store")->callback([o, &action] {
    action = [o] {
      auto store = baselines::Store::open(o->db, baselines::OpenMode::read_only);
      std::cout << fmt::format("store {}: schema {}, {} series, {} bytes\n", o->db,
                               store->schema_version(), store->list_series("*").size(),
                               std::filesystem::file_size(o->db));
      return exit_code::pass;
    };
  });
}

}  // namespace perfgate::cli
