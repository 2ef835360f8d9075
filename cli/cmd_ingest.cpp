#include "command.hpp"

namespace perfgate::cli {

void add_ingest_command(CLI::App& app, Action& action) {
  add_unbuilt_command(app, action, "ingest", "Load result files into the store");
}

}  // namespace perfgate::cli
