#include "run_progress.hpp"

#include <unistd.h>

#include <fmt/format.h>

namespace perfgate::cli {

std::string format_duration(double seconds) {
  const auto s = static_cast<long>(seconds + 0.5);
  if (s < 60) return fmt::format("{} s", s);
  return fmt::format("{} min {:02} s", s / 60, s % 60);
}

ProgressLine::ProgressLine(std::FILE* stream, std::size_t total)
    : stream_(stream),
      tty_(isatty(fileno(stream)) != 0),
      total_(total),
      t0_(std::chrono::steady_clock::now()) {}

void ProgressLine::start_case(std::size_t index, const std::string& name) {
  if (!tty_) return;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  const std::string eta = index == 0 ? "?"
                                     : format_duration(elapsed / static_cast<double>(index) *
                                                       static_cast<double>(total_ - index));
  const std::string shown = name.size() > 60 ? name.substr(0, 57) + "..." : name;
  fmt::print(stream_, "\r\033[K[{}/{}] {}  elapsed {}  ETA {}", index + 1, total_, shown,
             format_duration(elapsed), eta);
  std::fflush(stream_);
}

void ProgressLine::finish() {
  if (!tty_) return;
  fmt::print(stream_, "\r\033[K");
  std::fflush(stream_);
}

}  // namespace perfgate::cli
