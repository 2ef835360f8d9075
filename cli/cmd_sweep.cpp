#include "command.hpp"

namespace perfgate::cli {

void add_sweep_command(CLI::App& app, Action& action) {
  add_unbuilt_command(app, action, "sweep", "Run a scaling sweep");
}

}  // namespace perfgate::cli
