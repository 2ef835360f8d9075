// nccl-tests logs whose every line a CI system or a filter stamped with the time it was printed
// (GitHub Actions' raw logs, moreutils' ts): read as the log under the stamps, dated by them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "nccl_log_text.hpp"
#include "perfgate/baselines/ingest.hpp"
#include "perfgate/baselines/nccl_tests.hpp"
#include "perfgate/core/error.hpp"

using namespace perfgate;
using namespace perfgate::baselines;
using namespace perfgate::test;

namespace {

const std::filesystem::path kData = std::filesystem::path(PERFGATE_TEST_DATA) / "baselines";

// Each line of `text` behind stamp(i), i counting the lines from 0.
std::string stamped(const std::string& text, const std::function<std::string(int)>& stamp) {
  std::string out;
  int i = 0;
  for (const std::string& line : lines_of(text)) out += stamp(i++) + line + "\n";
  return out;
}

// The line holding the first table header, counted from 0.
int header_index(const std::string& text) {
  int i = 0;
  for (const std::string& line : lines_of(text)) {
    if (line.find("#       size ") != std::string::npos) return i;
    ++i;
  }
  return -1;
}

std::string two_digits(int n) {
  return std::string(n < 10 ? "0" : "") + std::to_string(n);
}

}  // namespace

TEST_CASE("a log stamped line by line reads as the log under the stamps, dated by them") {
  const std::string plain = read_text(kData / "nccl_single_node.log");
  const Run expected = from_nccl_tests_log(plain, "plain.log");
  const int header = header_index(plain);
  REQUIRE(header > 0);
  struct Case {
    std::string name;
    std::function<std::string(int)> stamp;
    std::string started_at;  // empty: the stamps name no zone, the store dates it on ingest
  };
  const std::vector<Case> cases = {
      // GitHub Actions: UTC with 7 decimals, a second a line
      {"github", [](int i) { return "2026-12-07T21:58:" + two_digits(i) + ".1234567Z "; },
       "2026-12-07T21:58:" + two_digits(header) + "Z"},
      // ts '%Y-%m-%dT%H:%M:%.S%z' in Berlin's winter, across midnight UTC
      {"ts %z", [](int i) { return "2026-12-08T00:59:" + two_digits(i) + ".000123+0100 "; },
       "2026-12-07T23:59:" + two_digits(header) + "Z"},
      {"offset with colon", [](int) { return "2026-07-01T09:00:00-04:00 "; },
       "2026-07-01T13:00:00Z"},
      // Jenkins' Timestamper, in brackets
      {"jenkins", [](int i) { return "[2026-12-07T21:58:" + two_digits(i) + ".123Z] "; },
       "2026-12-07T21:58:" + two_digits(header) + "Z"},
      // a date and time with a space between, no zone, no fraction
      {"local", [](int) { return "2026-12-07 21:58:26 "; }, ""},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const Run run = ingest_text(stamped(plain, c.stamp), "stamped.log");
    CHECK(described(run) == described(expected));
    CHECK(run.fingerprint.comparable == expected.fingerprint.comparable);
    CHECK(run.started_at == c.started_at);
    std::string printed = c.stamp(header);  // without Jenkins' brackets and the space
    printed = printed.substr(printed.front() == '[' ? 1 : 0,
                             printed.size() - (printed.front() == '[' ? 3 : 1));
    CHECK(run.metadata["nccl_tests"]["line_timestamps"]["first_table"] == printed);
  }
}

TEST_CASE("a GitLab log's lines cut where the job flushed are joined before they are read") {
  // GitLab with FF_TIMESTAMPS: after the time, two hex digits naming the stream, O or E, and ' '
  // for a new line or '+' for the rest of that stream's previous line. A pipe's buffer cuts
  // nccl-tests' lines anywhere; here every table row is cut in two, with a line of standard
  // error (NCCL's warning) between the parts.
  const std::string plain = read_text(kData / "nccl_single_node.log");
  std::string log =
      "\x1b[0KRunning with gitlab-runner 17.5.0 (abcdef12)\n"
      "2026-12-07T21:57:59.000001Z 00O section_start:1796680679:step_script\r\x1b[0K"
      "\x1b[32;1m$ all_reduce_perf -b 8 -e 128M -f 2 -g 8\x1b[0;m\n";
  std::size_t row_start = 0;  // the file line of the first row's first part
  int second = 0;
  const auto stamp = [&](const char* marker) {
    return "2026-12-07T21:58:" + two_digits(second++ % 60) + ".123456Z " + marker;
  };
  for (const std::string& line : lines_of(plain)) {
    const bool row = line.find("float") != std::string::npos && line.find('#') != 0;
    if (!row) {
      log += stamp("00O ") + line + "\n";
      continue;
    }
    if (row_start == 0)
      row_start = static_cast<std::size_t>(std::count(log.begin(), log.end(), '\n')) + 1;
    const std::size_t cut = line.size() / 2;
    log += stamp("00O ") + line.substr(0, cut) + "\n";
    log += stamp("00E ") + "NCCL WARN Cuda failure 'out of memory'\n";
    log += stamp("00O+") + line.substr(cut) + "\n";
  }
  const Run expected = from_nccl_tests_log(plain, "plain.log");
  const Run run = ingest_text(log, "gitlab.log");
  CHECK(described(run) == described(expected));
  CHECK(run.started_at.rfind("2026-12-07T21:58:", 0) == 0);
  // A fault in a joined row names the file's line where that row began.
  std::string broken = log;
  REQUIRE(row_start > 0);
  const std::vector<std::string> lines = lines_of(log);
  const std::string& part = lines[row_start - 1];
  broken.replace(broken.find(part), part.size(), part + " N/A N/A N/A N/A N/A");
  CHECK_THROWS_WITH(from_nccl_tests_log(broken, "gitlab.log"),
                    Catch::StartsWith("gitlab.log: line " + std::to_string(row_start) + ": ") &&
                        Catch::Contains("row has 18 columns"));
}

TEST_CASE("stamps come off before launcher tags and node blocks") {
  const std::string plain = read_text(kData / "nccl_single_node.log");
  const Run expected = from_nccl_tests_log(plain, "plain.log");
  const auto github = [](int i) { return "2026-12-07T21:58:" + two_digits(i % 60) + ".5Z "; };
  // GitHub Actions' log opens with a byte order mark and the runner's own lines, unstamped ones
  // among them.
  const std::string runner =
      "\xEF\xBB\xBF"
      "2026-12-07T21:57:00.0000000Z ##[group]Run ./all_reduce_perf\n"
      "##[endgroup]\n";
  const std::vector<std::string> logs = {
      runner + stamped(plain, github),
      stamped(stamped(plain, [](int) { return "[1,0]<stdout>:"; }), github),  // mpirun --tag-output
      stamped("---------------\ndgx-a01\n---------------\n" + plain, github),  // clush -b
  };
  for (const std::string& log : logs) {
    INFO(log.substr(0, 120));
    const Run run = ingest_text(log, "stamped.log");
    CHECK(described(run) == described(expected));
    CHECK(run.started_at.rfind("2026-12-07T21:58:", 0) == 0);
  }
}

TEST_CASE("stamps elsewhere than on the table's header leave a log as it is") {
  const std::string plain = read_text(kData / "nccl_single_node.log");
  // The job's own lines stamped, the test's output not: nothing to take off, no date.
  const std::string log = "2026-12-07T21:57:00Z starting the nightly\n" + plain;
  const Run run = ingest_text(log, "partly.log");
  CHECK(described(run) == described(from_nccl_tests_log(plain, "plain.log")));
  CHECK(run.started_at.empty());
  CHECK_FALSE(run.metadata.at("nccl_tests").contains("line_timestamps"));
  // Not stamps: a date without its time, a time without a space after it, a bracket left open
  // or around a date alone. Each is refused, as whatever its first character makes it.
  for (const std::string prefix :
       {"2026-12-07 ", "2026-12-07T21:58:26.5Z", "[2026-12-07T21:58:26.5Z ", "[2026-12-07] "}) {
    INFO(prefix);
    CHECK_THROWS_AS(ingest_text(stamped(plain, [&](int) { return prefix; }), "odd.log"),
                    InputError);
  }
}

TEST_CASE("real capture: perfgate-collectives' output through moreutils' ts with its zone") {
  // mpirun -np 2 perfgate-collectives --collective all_reduce,broadcast | TZ=Europe/Berlin
  //   ts '%Y-%m-%dT%H:%M:%.S%z'
  const std::string log = read_text(kData / "nccl_ts_stamped.log");
  std::string plain;
  for (const std::string& line : lines_of(log)) plain += line.substr(line.find(' ') + 1) + "\n";
  const Run run = read_results_file(kData / "nccl_ts_stamped.log");
  CHECK(described(run) == described(from_nccl_tests_log(plain, "plain.log")));
  CHECK(run.results.size() == 2 * 3 * 2 * 3);
  CHECK(run.started_at == "2026-12-07T22:12:58Z");  // printed 23:12:58 in Berlin
  CHECK(run.metadata["nccl_tests"]["line_timestamps"]["first_table"] ==
        "2026-12-07T23:12:58.702407+0100");
}

TEST_CASE("a byte order mark before a file's content is no part of it") {
  // GitHub's log downloads and Windows editors begin files with one. Before, a JSON file with
  // it was no format at all, and a log's first line (nccl-tests' version) was lost unread.
  for (const char* name : {"nccl_single_node.log", "gbench_new_interleaved.json"}) {
    INFO(name);
    const std::string content = read_text(kData / name);
    const Run plain = ingest_text(content, std::string("plain-") + name);
    const Run marked = ingest_text("\xEF\xBB\xBF" + content, std::string("marked-") + name);
    CHECK(described(marked) == described(plain));
    CHECK(marked.fingerprint.info == plain.fingerprint.info);
    CHECK(marked.uuid == plain.uuid);  // the same content: stored once
  }
  const Run log = ingest_text("\xEF\xBB\xBF" + read_text(kData / "nccl_single_node.log"), "m.log");
  CHECK(log.fingerprint.info.at("nccl_tests.version") == "2.17.6");
}
