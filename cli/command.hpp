#pragma once
// How a subcommand plugs into the `perfgate` front end. Each command lives in its own file:
// it declares its options on `app` and, when chosen, stores its action in `action`.
// The action returns an exit code (core/exit_codes.hpp); errors are thrown and mapped by main.
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace perfgate::cli {

using Action = std::function<int()>;

// `--db PATH` (default: $PERFGATE_DB, else ./perfgate.db) on a command that touches the store.
void add_db_option(CLI::App& cmd, std::string& db);
std::string default_db_path();

// Commands (one file each: cmd_<name>.cpp).
void add_run_command(CLI::App& app, Action& action);
void add_ingest_command(CLI::App& app, Action& action);
void add_compare_command(CLI::App& app, Action& action);
void add_history_command(CLI::App& app, Action& action);
void add_baseline_command(CLI::App& app, Action& action);
void add_store_command(CLI::App& app, Action& action);
void add_report_command(CLI::App& app, Action& action);
void add_sweep_command(CLI::App& app, Action& action);
void add_gate_command(CLI::App& app, Action& action);
void add_detect_command(CLI::App& app, Action& action);
void add_doctor_command(CLI::App& app, Action& action);
void add_verdicts_command(CLI::App& app, Action& action);

// For commands that are not built yet: says so and exits 2.
void add_unbuilt_command(CLI::App& app, Action& action, const std::string& name,
                         const std::string& description);

}  // namespace perfgate::cli
