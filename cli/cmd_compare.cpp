#include "command.hpp"

namespace perfgate::cli {

void add_compare_command(CLI::App& app, Action& action) {
  add_unbuilt_command(app, action, "compare", "Compare two runs");
}

}  // namespace perfgate::cli
