#pragma once
// The progress line of `perfgate run` on a terminal: case i/N, elapsed, ETA.
#include <chrono>
#include <cstdio>
#include <string>

namespace perfgate::cli {

class ProgressLine {
 public:
  ProgressLine(std::FILE* stream, std::size_t total);  // silent when `stream` is not a TTY
  void start_case(std::size_t index, const std::string& name);
  void finish();  // clears the line

 private:
  std::FILE* stream_;
  bool tty_;
  std::size_t total_;
  std::chrono::steady_clock::time_point t0_;
};

std::string format_duration(double seconds);  // "42 s", "3 min 05 s"

}  // namespace perfgate::cli
