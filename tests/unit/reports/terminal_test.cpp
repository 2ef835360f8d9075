#include <cstdlib>
#include <sstream>

#include <catch2/catch.hpp>

#include "perfgate/report/report.hpp"
#include "sample_comparison.hpp"

using namespace perfgate;
using namespace perfgate::report;
using namespace perfgate::report::testing;

namespace {
std::string terminal(const ReportInput& in, TerminalOptions opts) {
  std::ostringstream out;
  write_terminal(out, in, opts);
  return out.str();
}
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}
}  // namespace

TEST_CASE("terminal lists the worst first and ends with one summary line") {
  const auto lines = lines_of(terminal(sample_input(), {}));
  REQUIRE(lines.size() == 12);  // header, 10 rows, summary
  CHECK(lines[0].rfind("VERDICT", 0) == 0);
  CHECK(lines[1].rfind("REGRESSION    gemm/k:4096/m:4096/n:4096@time", 0) == 0);  // +12.3% first
  CHECK(lines[2].rfind("REGRESSION    gemm/k:8192", 0) == 0);
  CHECK(lines[3].rfind("FAILED", 0) == 0);
  CHECK(lines[10].rfind("SAME", 0) == 0);
  CHECK(lines[11].rfind("perfgate REGRESSION: 2 REGRESSION, 1 FAILED", 0) == 0);
}

TEST_CASE("terminal columns line up") {
  const auto lines = lines_of(terminal(sample_input(), {}));
  const auto change_column = lines[0].find("CHANGE");
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    INFO(lines[i]);
    // Every row has two spaces before the CHANGE column and a sign or 'n/a' in it.
    CHECK(lines[i].substr(change_column - 2, 2) == "  ");
    CHECK(std::string("+-n").find(lines[i][change_column]) != std::string::npos);
  }
}

TEST_CASE("terminal colours only when asked, and never lets names drive the terminal") {
  ReportInput in = sample_input();
  in.comparison.verdicts[0].series_id = "bad\033[2Jname@time";
  const std::string plain = terminal(in, {});
  CHECK(plain.find('\033') == std::string::npos);
  CHECK(plain.find("bad?[2Jname@time") != std::string::npos);
  TerminalOptions colour;
  colour.colour = true;
  CHECK(terminal(in, colour).find("\033[1;31mREGRESSION") != std::string::npos);
}

TEST_CASE("terminal can hide SAME rows") {
  TerminalOptions opts;
  opts.show_same = false;
  const std::string text = terminal(sample_input(), opts);
  CHECK(text.find("attention/heads") == std::string::npos);
  CHECK(text.find("(2 SAME series not shown)") != std::string::npos);
}

TEST_CASE("colour needs a TTY and no NO_COLOR") {
  ::unsetenv("NO_COLOR");
  CHECK(terminal_options_for(true).colour);
  CHECK_FALSE(terminal_options_for(false).colour);
  ::setenv("NO_COLOR", "1", 1);
  CHECK_FALSE(terminal_options_for(true).colour);
  ::unsetenv("NO_COLOR");
}
