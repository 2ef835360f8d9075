#include "command.hpp"

namespace perfgate::cli {

void add_run_command(CLI::App& app, Action& action) {
  add_unbuilt_command(app, action, "run", "Run a benchmark suite");
}

}  // namespace perfgate::cli
