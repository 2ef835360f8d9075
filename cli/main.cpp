// The `perfgate` front end: parses arguments, calls the libraries, maps errors to exit codes.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

#include "command.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"

namespace perfgate::cli {

std::string default_db_path() {
  const char* env = std::getenv("PERFGATE_DB");
  return env && *env ? env : "./perfgate.db";
}

void add_db_option(CLI::App& cmd, std::string& db) {
  db = default_db_path();
  cmd.add_option("--db", db, "SQLite store (default: $PERFGATE_DB, else ./perfgate.db)");
}

void add_unbuilt_command(CLI::App& app, Action& action, const std::string& name,
                         const std::string& description) {
  auto* cmd = app.add_subcommand(name, description + " (not built yet)");
  cmd->allow_extras();
  cmd->callback([&action, name] {
    action = [name] {
      std::cerr << "perfgate " << name << ": not built yet in this version\n";
      return exit_code::usage_or_tool_error;
    };
  });
}

}  // namespace perfgate::cli

int main(int argc, char** argv) {
  using namespace perfgate;
  CLI::App app{"perfgate: performance-regression suite for GPU training stacks"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "perfgate 0.1.0");
  cli::Action action;
  cli::add_run_command(app, action);
  cli::add_ingest_command(app, action);
  cli::add_compare_command(app, action);
  cli::add_history_command(app, action);
  cli::add_baseline_command(app, action);
  cli::add_store_command(app, action);
  cli::add_report_command(app, action);
  cli::add_sweep_command(app, action);
  cli::add_gate_command(app, action);
  cli::add_detect_command(app, action);
  cli::add_doctor_command(app, action);
  cli::add_verdicts_command(app, action);
  // CLI11 would only say "a subcommand is required"; name the word it did not know.
  if (argc > 1 && argv[1][0] != '-' &&
      app.get_subcommands([&](CLI::App* c) { return c->get_name() == argv[1]; }).empty()) {
    std::cerr << "perfgate: unknown command '" << argv[1] << "' (see perfgate --help)\n";
    return exit_code::usage_or_tool_error;
  }
  if (argc > 1 && argv[1][0] == '-') {
    const std::string flag = argv[1];
    if (flag != "-h" && flag != "--help" && flag != "--help-all" && flag != "--version") {
      std::cerr << "perfgate: unknown option '" << flag << "' (see perfgate --help)\n";
      return exit_code::usage_or_tool_error;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "perfgate: " << e.what() << "\n";
    return exit_code::usage_or_tool_error;
  } catch (const std::exception& e) {
    // Errors thrown while a subcommand's callback ran.
    std::cerr << "perfgate: " << e.what() << "\n";
    return exit_code::usage_or_tool_error;
  }
  if (!action) return exit_code::usage_or_tool_error;
  try {
    return action();
  } catch (const InsufficientDataError& e) {
    std::cerr << "perfgate: " << e.what() << "\n";
    return exit_code::not_comparable;
  } catch (const NoDeviceError& e) {
    std::cerr << "perfgate: " << e.what() << "\n";
    return exit_code::no_device;
  } catch (const InputError& e) {
    std::cerr << "perfgate: " << e.what() << "\n";
    return exit_code::usage_or_tool_error;
  } catch (const ToolError& e) {
    std::cerr << "perfgate: " << e.what() << "\n";
    return exit_code::usage_or_tool_error;
  } catch (const std::exception& e) {
    std::cerr << "perfgate: internal error: " << e.what() << "\n";
    return exit_code::usage_or_tool_error;
  }
}
