#pragma once
// Error types shared by every perfgate library. Libraries throw; only cli/ prints and exits.
#include <stdexcept>
#include <string>

namespace perfgate {

// Bad external input (a file, a flag, a config value). The message names the input and the
// problem, e.g. "run.json: perfgate.results[3].samples: expected an array of numbers".
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The tool itself could not do its job (store locked, disk full, child process failed).
class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Two runs cannot be compared, or there is not enough data to decide (exit code 3).
class InsufficientDataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A backend that was asked for needs hardware this machine does not have (`--backend cuda`
// without a GPU): nothing was measured (exit code 4, not a usage error, not "not comparable").
class NoDeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace perfgate
