#include "report_output.hpp"

#include <unistd.h>

#include <algorithm>
#include <iostream>

namespace perfgate::cli {

void emit_reports(const report::ReportInput& input, const std::vector<report::Format>& formats,
                  const std::filesystem::path& output_dir) {
  std::vector<report::Format> files;
  bool terminal = formats.empty();
  for (auto f : formats) {
    if (f == report::Format::terminal)
      terminal = true;
    else
      files.push_back(f);
  }
  if (terminal)
    report::write_terminal(std::cout, input, report::terminal_options_for(::isatty(1) == 1));
  if (files.empty()) return;
  for (const auto& path : report::write_reports(output_dir, files, input))
    std::cerr << "perfgate: wrote " << path.string() << "\n";
}

}  // namespace perfgate::cli
