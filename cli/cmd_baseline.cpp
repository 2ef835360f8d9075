#include "command.hpp"

namespace perfgate::cli {

void add_baseline_command(CLI::App& app, Action& action) {
  add_unbuilt_command(app, action, "baseline", "Manage baselines and acks");
}

}  // namespace perfgate::cli
