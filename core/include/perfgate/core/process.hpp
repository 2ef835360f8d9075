#pragma once
// Runs a child program from an argument vector (never a shell string) and captures its output.
#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

struct ProcessOptions {
  std::optional<std::chrono::milliseconds> timeout;   // SIGTERM, then SIGKILL after 2 s
  std::map<std::string, std::string> extra_env;       // added to the inherited environment
  std::string working_dir;                            // empty: inherit
  bool capture_stdout = true, capture_stderr = true;  // false: inherit the parent's stream
};

struct ProcessResult {
  int exit_code = -1;  // valid when !signaled && !timed_out
  int signal = 0;      // terminating signal, 0 if none
  bool timed_out = false;
  std::string out, err;
  bool ok() const { return !timed_out && signal == 0 && exit_code == 0; }
  std::string describe()
      const;  // "exit 3", "signal 11 (Segmentation fault)", "timed out after 5 s"
  // The end of stderr, at most `max_chars`, without trailing whitespace: for a message that
  // says why a child failed.
  std::string err_tail(std::size_t max_chars) const;
};

// Throws ToolError when the program cannot be started (names argv[0]).
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& opts = {});

// Path of a program on PATH (or `name` itself when it holds a '/'): an executable regular file,
// or nullopt.
std::optional<std::string> find_program(const std::string& name);

}  // namespace perfgate
