#include "command.hpp"

namespace perfgate::cli {

void add_store_command(CLI::App& app, Action& action) {
  add_unbuilt_command(app, action, "store", "Maintain the store");
}

}  // namespace perfgate::cli
