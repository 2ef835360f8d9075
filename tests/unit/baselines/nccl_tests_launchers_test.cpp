// nccl-tests logs as launchers and scripts leave them: lines tagged with the rank that printed
// them, several runs in one file, and processes that each ran the test alone.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
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

const std::filesystem::path kLog =
    std::filesystem::path(PERFGATE_TEST_DATA) / "baselines" / "nccl_single_node.log";

// `text` as a launcher prints it: each line behind tag(rank 0); after the fourth, a line of rank
// 3 (NCCL's start-up report) and one of the launcher's own, untagged.
std::string tagged(const std::string& text, const std::function<std::string(int)>& tag) {
  std::string out;
  const std::vector<std::string> lines = lines_of(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += tag(0) + lines[i] + "\n";
    if (i != 3) continue;
    out +=
        tag(3) + "dgx-a01:41214:41300 [3] NCCL INFO comm 0x5581 rank 3 nranks 8 - Init COMPLETE\n";
    out += "Warning: Permanently added 'dgx-a01' to the list of known hosts.\n";
  }
  return out;
}

}  // namespace

TEST_CASE("a log whose launcher tagged every line ingests as the untagged log") {
  const std::string plain = read_text(kLog);
  const Run expected = from_nccl_tests_log(plain, "plain.log");
  REQUIRE(expected.results.size() == 24);
  struct Style {
    const char* name;  // as the run's metadata records it
    std::function<std::string(int)> tag;
    bool ranked = true;  // the tag names the rank
  };
  const std::vector<Style> styles{
      // mpirun --tag-output (Open MPI 4), --output tag (Open MPI 5), also with a space after it
      {"open-mpi", [](int r) { return "[1," + std::to_string(r) + "]<stdout>:"; }},
      {"open-mpi", [](int r) { return "[40312," + std::to_string(r) + "]<stdout>: "; }},
      // --output tag-detailed: the process's host and pid too
      {"open-mpi",
       [](int r) { return "[prterun-n1-4410@1," + std::to_string(r) + "][n1:4420]<stdout>: "; }},
      // --timestamp-output with --tag-output (the day padded, then two digits), and alone
      {"open-mpi",
       [](int r) {
         return std::string(r == 0 ? "Mon Dec  7" : "Sat Nov 28") + " 15:00:43 2026[1," +
                std::to_string(r) + "]<stdout>:";
       }},
      {"open-mpi", [](int) { return "Tue Jan 12 09:05:01 2027<stdout>:"; }, false},
      // srun --label on 16 tasks: ranks right-aligned to two digits
      {"slurm", [](int r) { return (r < 10 ? " " : "") + std::to_string(r) + ": "; }},
      // mpiexec -l (MPICH's Hydra, Intel MPI)
      {"mpich", [](int r) { return "[" + std::to_string(r) + "] "; }},
      // pdsh or clush on one node: its host name (another node's line beside it)
      {"host", [](int r) { return r == 0 ? "dgx-a01.cluster: " : "dgx_b07: "; }},
  };
  for (const Style& style : styles) {
    const std::string text = tagged(plain, style.tag);
    INFO(text.substr(0, 80));
    const Run run = ingest_text(text, "perfgate-tagged.log");
    CHECK(described(run) == described(expected));
    CHECK(run.fingerprint.comparable == expected.fingerprint.comparable);
    const nlohmann::json& tags = run.metadata["nccl_tests"]["launcher_tags"];
    CHECK(tags["style"] == style.name);
    if (style.name == std::string("host"))
      CHECK(tags["host"] == "dgx-a01.cluster");
    else if (style.ranked)
      CHECK(tags["rank"] == "0");
    else
      CHECK_FALSE(tags.contains("rank"));
    CHECK(run.metadata["nccl_tests"]["avg_busbw"] == expected.metadata["nccl_tests"]["avg_busbw"]);
  }
  CHECK_FALSE(expected.metadata["nccl_tests"].contains("launcher_tags"));
}

TEST_CASE("processes that each ran the test alone are named, not merged") {
  // What nccl-tests built without MPI=1 prints under mpirun: every process is rank 0 of a
  // one-rank job. Two such outputs, line by line.
  std::string one_rank;
  for (const std::string& line : lines_of(read_text(kLog)))
    if (line.rfind("#  Rank", 0) != 0 || line.find("Rank  0 ") != std::string::npos)
      one_rank += line + "\n";
  const Run alone = from_nccl_tests_log(one_rank, "alone.log");
  CHECK(alone.fingerprint.comparable.at("gpu.count") == "1");

  std::string interleaved, tagged_twice, dated_twice;
  for (const std::string& line : lines_of(one_rank)) {
    interleaved += line + "\n" + line + "\n";
    tagged_twice += "[1,0]<stdout>:" + line + "\n[1,1]<stdout>:" + line + "\n";
    dated_twice += "Mon Dec  7 15:00:43 2026[1,0]<stdout>:" + line +
                   "\nMon Dec  7 15:00:44 2026[1,1]<stdout>:" + line + "\n";
  }
  // Untagged, the second "Rank 0" gives them away; before, their rows merged into one series
  // of twice the samples, on as many GPUs as rank lines.
  CHECK_THROWS_WITH(
      from_nccl_tests_log(interleaved, "twice.log"),
      Catch::StartsWith("twice.log: line 12: rank 0 is listed twice (first at line 11): the "
                        "processes each ran the test alone") &&
          Catch::Contains("built without MPI=1"));
  // Tagged, the second table's rank does.
  CHECK_THROWS_WITH(from_nccl_tests_log(tagged_twice, "tagged.log"),
                    Catch::StartsWith("tagged.log: line 20: rank 1 printed an nccl-tests table of "
                                      "its own beside rank 0's: the processes each ran"));
  CHECK_THROWS_WITH(from_nccl_tests_log(dated_twice, "dated.log"),
                    Catch::StartsWith("dated.log: line 20: rank 1 printed an nccl-tests table of "
                                      "its own beside rank 0's: the processes each ran"));
}

TEST_CASE("nodes that each ran a test of their own under pdsh are named, with how to split") {
  // A health check across nodes: `pdsh -w dgx-a0[1-2] all_reduce_perf -g 8` runs one
  // single-node test on each, every line behind its host's name.
  const std::string node_a = read_text(kLog);
  std::string node_b = node_a;
  for (std::size_t at = node_b.find("dgx-a01"); at != std::string::npos;
       at = node_b.find("dgx-a01", at))
    node_b.replace(at, 7, "dgx-a02");
  const std::vector<std::string> a = lines_of(node_a), b = lines_of(node_b);
  REQUIRE(a.size() == b.size());
  std::string both, one;
  std::size_t second_header = 0;  // the line of dgx-a02's table header
  for (std::size_t i = 0; i < a.size(); ++i) {
    both += "dgx-a01: " + a[i] + "\ndgx-a02: " + b[i] + "\n";
    one += "dgx-a01: " + a[i] + "\n";
    if (second_header == 0 && a[i].find("redop") != std::string::npos) second_header = 2 * i + 2;
    if (i == 2) one += "pdsh@login: dgx-a03: ssh exited with exit code 255\n";  // pdsh's own
    // A line of the launcher's own that opens with a bracket names no host, not even with a
    // table header after it.
    if (a[i].find("redop") != std::string::npos) one += "[2]: " + a[i] + "\n";
  }
  CHECK_THROWS_WITH(
      from_nccl_tests_log(both, "pdsh.log"),
      "pdsh.log: line " + std::to_string(second_header) +
          ": host dgx-a02 printed an nccl-tests table of its own beside dgx-a01's: each host ran "
          "its own test (pdsh, clush) and a log ingests as one run; split it per host (dshbak -d "
          "DIR) and ingest each host's file");
  // One node's output reads as its plain log; before, neither was found to be nccl-tests.
  const Run run = ingest_text(one, "pdsh-one-node.log");
  CHECK(described(run) == described(from_nccl_tests_log(node_a, "plain.log")));
  CHECK(run.metadata["nccl_tests"]["launcher_tags"] ==
        nlohmann::json{{"style", "host"}, {"host", "dgx-a01"}});
}

TEST_CASE("real capture: pdsh ran perfgate-collectives on two nodes, each a test of its own") {
  // pdsh -R exec -w node-a,node-b mpirun -np 2 perfgate-collectives: 2 ranks on each, 3 sizes.
  const std::filesystem::path capture = kLog.parent_path() / "nccl_pdsh_two_nodes.log";
  CHECK_THROWS_WITH(read_results_file(capture),
                    Catch::EndsWith("nccl_pdsh_two_nodes.log: line 26: host node-b printed an "
                                    "nccl-tests table of its own beside node-a's: each host ran "
                                    "its own test (pdsh, clush) and a log ingests as one run; "
                                    "split it per host (dshbak -d DIR) and ingest each host's "
                                    "file"));
  // Split as dshbak -d splits it: each node's file is its plain log.
  for (const std::string host : {"node-a", "node-b"}) {
    INFO(host);
    std::string own, plain;
    for (const std::string& line : lines_of(read_text(capture))) {
      if (line.rfind(host + ": ", 0) != 0) continue;
      own += line + "\n";
      plain += line.substr(host.size() + 2) + "\n";
    }
    const Run run = ingest_text(own, host + ".log");
    CHECK(described(run) == described(from_nccl_tests_log(plain, "plain.log")));
    CHECK(run.results.size() == 3 * 2 * 3);
    CHECK(run.metadata["nccl_tests"]["launcher_tags"]["host"] == host);
    for (const Result& r : run.results) {
      REQUIRE(r.scale);
      CHECK(r.scale->ranks == 2);
    }
  }
}

TEST_CASE("several runs in one log count their ranks once") {
  const std::string all_reduce = read_text(kLog);
  std::string all_gather = all_reduce;
  for (const std::string op : {"# Collective test starting: ", "# Collective test concluded: "})
    all_gather.replace(all_gather.find(op + "all_reduce"), op.size() + 10, op + "all_gather");
  const Run run = from_nccl_tests_log(all_reduce + all_gather, "both.log");
  CHECK(run.results.size() == 48);
  CHECK(run.fingerprint.comparable.at("gpu.count") == "8");  // was 16: each run's 8 rank lines
  CHECK(run.fingerprint.comparable.at("cluster.gpus_per_node") == "8");
  for (const Result& r : run.results) {
    REQUIRE(r.scale);
    CHECK(r.scale->ranks == 8);
  }
  // perfgate-collectives --collective all_reduce,broadcast with its MPI backend: two ranks.
  const std::string cpu_run =
      "# Collective test starting: OP_perf\n"
      "#  Rank  0 Group  0 Pid  11710 on         vm device  0 [cpu] MPI on CPU\n"
      "#  Rank  1 Group  0 Pid  11711 on         vm device  1 [cpu] MPI on CPU\n"
      "#       size         count      type   redop    root     time   algbw   busbw  #wrong     "
      "time   algbw   busbw  #wrong\n"
      "        1024           256     float     sum      -1     6.01    0.17    0.17       0     "
      "5.52    0.19    0.19       0\n";
  std::string two_ops = cpu_run + cpu_run;
  two_ops.replace(two_ops.find("OP"), 2, "all_reduce");
  two_ops.replace(two_ops.find("OP"), 2, "broadcast");
  const Run cpu = from_nccl_tests_log(two_ops, "cpu.log");
  REQUIRE(cpu.results.size() == 12);
  for (const Result& r : cpu.results) {
    REQUIRE(r.scale);
    CHECK(r.scale->ranks == 2);  // was 4
    CHECK(r.scale->gpus_per_node == 0);
  }
}

TEST_CASE("a run that failed before its table leaves its rank list out") {
  // A script's first binary failed at start-up after listing its ranks; the next one ran.
  const std::string run = read_text(kLog);
  const std::string failed = run.substr(0, run.find("NCCL version")) +
                             "dgx-a01: Test NCCL failure common.cu:958 'unhandled system error'\n"
                             " .. dgx-a01 pid 41211: Test failure common.cu:842\n";
  const Run after = from_nccl_tests_log(failed + run, "after_failure.log");
  CHECK(described(after) == described(from_nccl_tests_log(run, "run.log")));
  CHECK(after.fingerprint.comparable.at("gpu.count") == "8");
}

TEST_CASE("runs on different ranks in one log are refused: one run has one set of ranks") {
  const std::string first = read_text(kLog);
  std::string second = first;
  second.replace(second.find("on  dgx-a01 device  7"), 21, "on  dgx-a02 device  7");
  second.replace(second.find("all_reduce_perf"), 15, "all_gather_perf");
  CHECK_THROWS_WITH(from_nccl_tests_log(first + second, "mixed.log"),
                    "mixed.log: line 44: this run lists 8 ranks on dgx-a01, dgx-a02 (NVIDIA H100 "
                    "80GB HBM3), the log's first run 8 ranks on dgx-a01 (NVIDIA H100 80GB HBM3): "
                    "a log ingests as one run on one set of ranks; split it per run");
}

TEST_CASE("real captures: perfgate-collectives under mpirun's and srun's tags") {
  const std::filesystem::path data = kLog.parent_path();
  const std::string date =
      R"([A-Z][a-z]{2} [A-Z][a-z]{2} [ 1-3][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]{4})";
  struct Capture {
    std::string file;
    std::regex tag;                       // what starts each of its lines
    std::size_t results;                  // collectives x sizes x placements x (time, algbw, busbw)
    std::vector<std::string> operations;  // one run a collective, each with its footer
  };
  const std::vector<Capture> captures{
      // mpirun --tag-output, 2 ranks: all_reduce and alltoall, 3 sizes
      {"nccl_tag_output.log",
       std::regex(R"(\[1,0\]<stdout>:)"),
       2 * 3 * 2 * 3,
       {"all_reduce", "alltoall"}},
      // srun --label, 2 tasks on two nodes: 2 collectives, 2 sizes
      {"nccl_srun_label.log", std::regex("0: "), 2 * 2 * 2 * 3, {"all_reduce", "broadcast"}},
      // mpirun --timestamp-output --tag-output: as the first
      {"nccl_timestamp_tag_output.log",
       std::regex(date + R"(\[1,0\]<stdout>:)"),
       2 * 3 * 2 * 3,
       {"all_reduce", "alltoall"}},
      // mpirun --timestamp-output: all_reduce in float and bfloat16, 3 sizes
      {"nccl_timestamp_output.log", std::regex(date + "<stdout>:"), 2 * 3 * 2 * 3, {"all_reduce"}},
  };
  for (const Capture& capture : captures) {
    INFO(capture.file);
    const Run run = read_results_file(data / capture.file);
    std::string plain;
    for (const std::string& line : lines_of(read_text(data / capture.file))) {
      std::smatch tag;
      REQUIRE(std::regex_search(line, tag, capture.tag, std::regex_constants::match_continuous));
      plain += tag.suffix().str() + "\n";
    }
    CHECK(described(run) == described(from_nccl_tests_log(plain, "plain.log")));
    CHECK(run.results.size() == capture.results);
    const nlohmann::json& runs = run.metadata["nccl_tests"]["runs"];
    REQUIRE(runs.size() == capture.operations.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
      CHECK(runs[i]["operation"] == capture.operations[i]);
      CHECK(runs[i]["avg_busbw"] > 0);
    }
    for (const Result& r : run.results) {
      REQUIRE(r.scale);
      CHECK(r.scale->ranks == 2);
    }
  }
}
