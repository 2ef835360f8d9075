#include "command.hpp"

namespace perfgate::cli {

void add_report_command(CLI::App& app, Action& action) {
  add_unbuilt_command(app, action, "report", "Write reports");
}

}  // namespace perfgate::cli
