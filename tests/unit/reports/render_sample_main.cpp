// Writes the reporters' sample input (every verdict kind, hostile names, every chart) as the
// files of the formats named on the command line: render_sample DIR html,markdown,...
// Used by the browser test, which must not depend on a populated store.
#include <iostream>

#include "perfgate/report/report.hpp"
#include "sample_comparison.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: perfgate_render_sample DIR FORMATS\n";
    return 2;
  }
  try {
    using namespace perfgate::report;
    for (const auto& path :
         write_reports(argv[1], formats_from_list(argv[2]), testing::sample_input()))
      std::cout << path.string() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "perfgate_render_sample: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
