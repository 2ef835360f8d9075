// nccl-tests logs as dshbak and clush -b gather them: each node's lines under a header naming
// it. One node's block reads as its plain log; a second node's table is named, with how to split.
#include <catch2/catch.hpp>

#include <filesystem>
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

// A block header as clush prints it (15 dashes; dshbak prints 16).
std::string header(const std::string& nodes, std::size_t dashes = 15) {
  const std::string rule(dashes, '-');
  return rule + "\n" + nodes + "\n" + rule + "\n";
}

// A line of 15 dashes or more, as a terminal shows it (after a counter rewritten in place).
bool is_rule(const std::string& line) {
  const std::string shown =
      line.substr(line.rfind('\r') == std::string::npos ? 0 : line.rfind('\r') + 1);
  return shown.size() >= 15 && shown.find_first_not_of('-') == std::string::npos;
}

// The lines under `host`'s header in a gathered log, up to the next header.
std::string block_of(const std::string& log, const std::string& host) {
  const std::vector<std::string> lines = lines_of(log);
  std::string block;
  bool inside = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (is_rule(lines[i]) && i + 2 < lines.size()) {
      inside = lines[i + 1] == host;
      i += 2;
      continue;
    }
    if (inside) block += lines[i] + "\n";
  }
  return block;
}

std::size_t line_of(const std::string& log, const std::string& host, const std::string& text) {
  const std::vector<std::string> lines = lines_of(log);
  bool inside = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] == host) inside = true;
    if (inside && lines[i].find(text) != std::string::npos) return i + 1;
  }
  return 0;
}

const std::string kGatheredHint =
    "each host ran its own test (pdsh, clush) and a log ingests as one run; ingest each host's "
    "block, the lines under its header, as a file of its own";

}  // namespace

TEST_CASE("real captures: clush -b and dshbak gathered two nodes' tests") {
  // clush -R exec -w node-a,node-b -b (standard error caught too: its progress counter shares
  // the first rule's line) and pdsh -R exec | dshbak, each node running perfgate-collectives
  // on 2 ranks, 3 sizes.
  for (const char* name : {"nccl_clush_gathered.log", "nccl_dshbak_two_nodes.log"}) {
    INFO(name);
    const std::string log = read_text(kData / name);
    const std::size_t second_header = line_of(log, "node-b", "redop");
    REQUIRE(second_header > 0);
    CHECK_THROWS_WITH(
        read_results_file(kData / name),
        Catch::EndsWith(std::string(name) + ": line " + std::to_string(second_header) +
                        ": host node-b printed an nccl-tests table of its own "
                        "beside node-a's: " +
                        kGatheredHint));
    // Each node's block, split as the hint says, is its plain log; before, the two blocks read
    // as one log whose series appeared twice.
    for (const std::string host : {"node-a", "node-b"}) {
      INFO(host);
      const Run run = ingest_text(block_of(log, host), host + ".log");
      CHECK(run.results.size() == 3 * 2 * 3);
      CHECK_FALSE(run.metadata.at("nccl_tests").contains("launcher_tags"));
    }
  }
}

TEST_CASE("one node's gathered block reads as its plain log, named by its header") {
  const std::string plain = read_text(kData / "nccl_single_node.log");
  const Run expected = from_nccl_tests_log(plain, "plain.log");
  struct Case {
    std::string before, header, tagged;
  };
  const std::vector<Case> cases = {
      {"", header("dgx-a01"), "dgx-a01"},
      {"", header("dgx-a01.cluster", 16), "dgx-a01.cluster"},
      // several nodes printed the same lines: clush counts them, dshbak -c folds ranges
      {"", header("dgx-a[01-02],dgx-b07 (3)"), "dgx-a[01-02],dgx-b07"},
      {"", header("dgx-a[01-02],dgx-b07", 16), "dgx-a[01-02],dgx-b07"},
      // a job's own lines first, clush's counter rewritten in place before the first rule
      {"+ clush -b -w dgx-a01 all_reduce_perf -g 8\nclush: 0/1\r          \rclush: 1/1\r",
       header("dgx-a01"), "dgx-a01"},
  };
  for (const Case& c : cases) {
    INFO(c.header);
    // Another node's block before, with no table: its lines are that node's, not this run's.
    const std::string log = c.before + c.header + plain + header("dgx-b09") +
                            "ssh: connect to host dgx-b09 port 22: No route to host\n";
    const Run run = ingest_text(log, "gathered.log");
    CHECK(described(run) == described(expected));
    CHECK(run.fingerprint.comparable == expected.fingerprint.comparable);
    CHECK(run.metadata["nccl_tests"]["launcher_tags"] ==
          nlohmann::json{{"style", "host"}, {"host", c.tagged}, {"gathered", true}});
  }
}

TEST_CASE("dashes that head no node's block leave a log as it is") {
  const std::string plain = read_text(kData / "nccl_single_node.log");
  const std::vector<std::string> described_plain = described(from_nccl_tests_log(plain, "p.log"));
  // After the table: a summary boxed in rules is no gathered block of the table's node.
  const std::string after = plain + header("summary") + "all ranks passed\n";
  CHECK(described(from_nccl_tests_log(after, "after.log")) == described_plain);
  CHECK_FALSE(
      from_nccl_tests_log(after, "after.log").metadata.at("nccl_tests").contains("launcher_tags"));
  // Rules too short (14 dashes), or a middle line that names no host.
  for (const std::string& boxed : {header("dgx-a01", 14), header("Test summary: 8 GPUs")}) {
    INFO(boxed);
    const Run run = from_nccl_tests_log(boxed + plain, "boxed.log");
    CHECK(described(run) == described_plain);
    CHECK_FALSE(run.metadata.at("nccl_tests").contains("launcher_tags"));
  }
}
