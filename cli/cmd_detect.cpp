#include "command.hpp"

namespace perfgate::cli {

void add_detect_command(CLI::App& app, Action& action) {
  add_unbuilt_command(app, action, "detect", "Find change points in history");
}

}  // namespace perfgate::cli
