// `perfgate doctor`: prints what on this machine makes benchmark numbers untrustworthy.
// Exit 0 when nothing is at error level (with --strict: nor at warning level), else 2.
#include <iostream>

#include <fmt/format.h>

#include "command.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/preflight/doctor.hpp"

namespace perfgate::cli {

namespace {

struct DoctorArgs {
  std::string db;
  bool strict = false;
  std::string format = "text";
  std::string sysroot = "/";
};

void print_text(const std::vector<preflight::Finding>& findings) {
  for (const auto& f : findings)
    std::cout << fmt::format("{:<8} {:<18} {}\n", preflight::to_string(f.level), f.check,
                             f.message);
}

}  // namespace

void add_doctor_command(CLI::App& app, Action& action) {
  auto args = std::make_shared<DoctorArgs>();
  auto* cmd = app.add_subcommand("doctor",
                                 "Check the machine for conditions that make numbers untrustworthy "
                                 "(exit 2 on an error, or on a warning with --strict)");
  add_db_option(*cmd, args->db);
  cmd->add_flag("--strict", args->strict, "Fail (exit 2) on warnings too");
  cmd->add_option("--format", args->format, "Output format")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--sysroot", args->sysroot,
                  "Read /proc and /sys below this folder (a captured machine)")
      ->check(CLI::ExistingDirectory);
  cmd->callback([&action, args] {
    action = [args] {
      preflight::DoctorOptions options;
      options.store = args->db;
      options.sysroot = args->sysroot;
      const auto findings = preflight::run_doctor(options);
      if (args->format == "json")
        std::cout << preflight::to_json(findings).dump(2) << "\n";
      else
        print_text(findings);
      const auto worst = preflight::worst_level(findings);
      const bool fail =
          worst == preflight::Level::error || (args->strict && worst == preflight::Level::warning);
      return fail ? exit_code::usage_or_tool_error : exit_code::pass;
    };
  });
}

}  // namespace perfgate::cli
