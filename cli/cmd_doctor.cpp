#include "command.hpp"

namespace perfgate::cli {

void add_doctor_command(CLI::App& app, Action& action) {
  add_unbuilt_command(app, action, "doctor", "Check the machine for untrustworthy conditions");
}

}  // namespace perfgate::cli
