#include "command.hpp"

namespace perfgate::cli {

void add_gate_command(CLI::App& app, Action& action) {
  add_unbuilt_command(app, action, "gate", "Pre-merge performance gate");
}

}  // namespace perfgate::cli
