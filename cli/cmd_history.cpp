#include "command.hpp"

namespace perfgate::cli {

void add_history_command(CLI::App& app, Action& action) {
  add_unbuilt_command(app, action, "history", "Show a series over runs");
}

}  // namespace perfgate::cli
