#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "find_series.hpp"
#include "perfgate/baselines/ingest.hpp"
#include "perfgate/baselines/nccl_tests.hpp"
#include "perfgate/core/error.hpp"

using namespace perfgate;
using namespace perfgate::baselines;

namespace {
const std::filesystem::path kData = std::filesystem::path(PERFGATE_TEST_DATA) / "baselines";

using perfgate::test::find_series;

// A one-row nccl-tests table, for logs made of a header line and it.
const std::string kOneRowTable =
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
    "time   algbw   busbw #wrong\n"
    "        1024           256     float     sum      -1    41.22    0.02    0.04      0    "
    "40.17    0.03    0.05      0\n";
}  // namespace

TEST_CASE("single-node all_reduce log: series, metrics, wrong counts and fingerprint") {
  const Run run = read_results_file(kData / "nccl_single_node.log");
  CHECK(run.suite == "nccl-tests");
  CHECK(run.results.size() == 4 * 2 * 3);  // rows x (out-of-place, in-place) x metrics
  const std::string p =
      "collectives.all_reduce/bytes:1048576/dtype:f32/inplace:0/redop:sum/root:-1";
  const auto& time = find_series(run, p + "@time");
  CHECK(time.unit == "us");
  CHECK(time.direction == Direction::lower_is_better);
  CHECK(time.samples == std::vector<double>{61.30});
  CHECK(time.extra["wrong"] == 0);
  CHECK(find_series(run, p + "@busbw").samples == std::vector<double>{29.94});
  CHECK(find_series(run, p + "@algbw").direction == Direction::higher_is_better);
  const auto& bad = find_series(
      run, "collectives.all_reduce/bytes:134217728/dtype:f32/inplace:1/redop:sum/root:-1@busbw");
  CHECK(bad.status == ResultStatus::error);
  CHECK(bad.extra["wrong"] == 3);
  CHECK(run.fingerprint.comparable.at("gpu.model") == "NVIDIA H100 80GB HBM3");
  CHECK(run.fingerprint.comparable.at("gpu.count") == "8");
  CHECK(run.fingerprint.comparable.at("cluster.nodes") == "1");
  // The library's version code, as perfgate-collectives records it (ncclGetVersion).
  CHECK(run.fingerprint.comparable.at("nccl.version") == "22603");
  CHECK(run.fingerprint.info.at("nccl.banner") == "2.21.5+cuda12.4");
  REQUIRE(time.scale);
  CHECK(time.scale->gpus_per_node == 8);
  CHECK(run.metadata["nccl_tests"]["avg_busbw"] == Approx(66.0675));
}

TEST_CASE("multi-node log with interleaved MPI noise") {
  const Run run = read_results_file(kData / "nccl_multi_node.log");
  CHECK(run.results.size() == 4 * 2 * 3);
  CHECK(run.fingerprint.comparable.at("cluster.nodes") == "2");
  CHECK(run.fingerprint.comparable.at("cluster.gpus_per_node") == "8");
  CHECK(run.fingerprint.info.at("hosts") == "gpu-node-11,gpu-node-12");
  const auto& r = find_series(
      run, "collectives.all_gather/bytes:4194304/dtype:f32/inplace:0/redop:none/root:-1@time");
  CHECK(r.samples == std::vector<double>{201.44});
  REQUIRE(r.scale);
  CHECK(r.scale->nodes == 2);
  CHECK(r.scale->ranks == 16);
}

TEST_CASE("old nccl-tests format: no root column, an error column, op from the command line") {
  const Run run = read_results_file(kData / "nccl_old_format.log");
  CHECK(run.results.size() == 5 * 2 * 3);
  // Old logs print "sum" for broadcast and have no root column: the redop becomes "none" (as in
  // perfgate-collectives), the unknown root stays out of the key.
  const auto& r =
      find_series(run, "collectives.broadcast/bytes:2048/dtype:f32/inplace:1/redop:none@time");
  CHECK(r.samples == std::vector<double>{11.80});
  CHECK(r.status == ResultStatus::ok);
  CHECK(r.extra["error"] == "0e+00");
  CHECK(run.fingerprint.comparable.at("gpu.model") == "Tesla V100-SXM2-16GB");
}

namespace {

// A one-row log of `program` whose type column says `type` (and whose redop and root say so).
Run one_row_log(const std::string& program, const std::string& type,
                const std::string& redop = "sum", const std::string& root = "-1") {
  const std::string text = "# Collective test starting: " + program +
                           "\n"
                           "#       size         count      type   redop    root     time   algbw  "
                           " busbw #wrong     time   algbw   "
                           "busbw #wrong\n"
                           "        1024           256  " +
                           type + "  " + redop + "  " + root +
                           "    41.22    0.02    0.04      0    40.17    0.03    0.05      0\n";
  return from_nccl_tests_log(text, "t.log");
}

std::string only_params(const Run& run) {
  REQUIRE_FALSE(run.results.empty());
  return run.results.front().key.name();
}

}  // namespace

TEST_CASE("nccl-tests type names become the dtype spellings of perfgate-collectives") {
  const std::vector<std::pair<std::string, std::string>> types{
      {"float", "f32"},          {"half", "f16"},      {"bfloat16", "bf16"},
      {"double", "f64"},         {"int8", "i8"},       {"uint8", "u8"},
      {"int32", "i32"},          {"uint32", "u32"},    {"int64", "i64"},
      {"uint64", "u64"},         {"f8e4m3", "f8e4m3"}, {"f8e5m2", "f8e5m2"},
      {"mystery16", "mystery16"}};  // unknown names pass through unchanged
  for (const auto& [nccl, series] : types) {
    INFO(nccl);
    CHECK(only_params(one_row_log("all_reduce_perf", nccl)) ==
          "collectives.all_reduce/bytes:1024/dtype:" + series + "/inplace:0/redop:sum/root:-1");
  }
}

TEST_CASE("redop and root follow the op: none and -1 where the op has no use for them") {
  CHECK(only_params(one_row_log("broadcast_perf", "float", "sum", "2")) ==
        "collectives.broadcast/bytes:1024/dtype:f32/inplace:0/redop:none/root:2");
  CHECK(only_params(one_row_log("reduce_perf", "float", "max", "1")) ==
        "collectives.reduce/bytes:1024/dtype:f32/inplace:0/redop:max/root:1");
  CHECK(only_params(one_row_log("alltoall_perf", "float", "none", "-1")) ==
        "collectives.alltoall/bytes:1024/dtype:f32/inplace:0/redop:none/root:-1");
  CHECK(only_params(one_row_log("./build/hypercube_perf", "float", "sum", "-1")) ==
        "collectives.hypercube/bytes:1024/dtype:f32/inplace:0/redop:none/root:-1");
  CHECK(only_params(one_row_log("gather_perf", "float", "none", "3")) ==
        "collectives.gather/bytes:1024/dtype:f32/inplace:0/redop:none/root:3");
  // An op perfgate does not know keeps its columns as printed.
  CHECK(only_params(one_row_log("fancy_perf", "float", "sum", "0")) ==
        "collectives.fancy/bytes:1024/dtype:f32/inplace:0/redop:sum/root:0");
}

TEST_CASE("ranks on \"[cpu]\" (perfgate-collectives' MPI backend) are not GPUs") {
  const Run run = from_nccl_tests_log(
      "#  Rank  0 Group  0 Pid   1619 on         vm device  0 [cpu] MPI on CPU\n"
      "#  Rank  1 Group  0 Pid   1620 on         vm device  1 [cpu] MPI on CPU\n"
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
      "time   algbw   "
      "busbw #wrong\n"
      "        1024           256     float     sum      -1    41.22    0.02    0.04      0    "
      "40.17    0.03    0.05      0\n",
      "cpu.log");
  REQUIRE(run.results.front().scale);
  CHECK(*run.results.front().scale ==
        Scale{1, 0, 2});  // as perfgate-collectives' own document says
  CHECK(run.fingerprint.comparable.count("gpu.model") == 0);
  CHECK(run.fingerprint.comparable.at("cluster.gpus_per_node") == "0");
}

TEST_CASE("without nccl-tests' version line, nccl.version is the code of NCCL's banner") {
  CHECK(from_nccl_tests_log("NCCL version 2.21.5+cuda12.4\n" + kOneRowTable, "a.log")
            .fingerprint.comparable.at("nccl.version") == "22105");
  CHECK(from_nccl_tests_log("NCCL version 2.8.4+cuda11.2\n" + kOneRowTable, "b.log")
            .fingerprint.comparable.at("nccl.version") == "2804");
}

TEST_CASE("a log measured with -m, -z or -G says so in its comparable collectives.launch") {
  const auto launch = [&](const std::string& parameters) {
    const Run run = from_nccl_tests_log(
        "# nThread 1 nGpus 1 minBytes 1024 maxBytes 1024 step: "
        "2(factor) warmup iters: 5 iters: 20 " +
            parameters + "\n" + kOneRowTable,
        "a.log");
    const auto key = run.fingerprint.comparable.find("collectives.launch");
    return key == run.fingerprint.comparable.end() ? std::string("(none)") : key->second;
  };
  CHECK(launch("agg iters: 1 validation: 1 graph: 0") == "(none)");
  CHECK(launch("agg iters: 4 validation: 1 graph: 0") == "-m 4");
  CHECK(launch("agg iters: 1 validation: 1 graph: 10") == "-G 10");
  CHECK(launch("agg iters: 08 validation: 1 graph: 2") == "-m 8 -G 2");
  // Newer nccl-tests name -z in a line of its own.
  CHECK(launch("agg iters: 1 validation: 1 graph: 0 unalign: 0\n# Blocking Enabled: wait and "
               "barrier after each inner iteration (-m) ") == "-z 1");
  CHECK(launch("agg iters: 2 validation: 1 graph: 0 unalign: 0\n# Blocking Enabled: wait after "
               "each inner iteration (-m), no barrier ") == "-m 2 -z 2");
  CHECK(launch("agg iters: 1 validation: 1 graph: 3 unalign: 0\n# Blocking Enabled: wait and "
               "barrier after each outer iteration (-n); time excludes barrier ") == "-z 3 -G 3");
  // -R: perfgate-collectives' line of its own (nccl-tests' logs do not say), read after -G.
  CHECK(launch("agg iters: 4 validation: 1 graph: 2\n# Registered buffers: ncclCommRegister "
               "(-R 1) ") == "-m 4 -G 2 -R 1");
  CHECK(launch("agg iters: 1 validation: 1 graph: 0\n# Registered buffers: symmetric windows, "
               "ncclCommWindowRegister (-R 2) ") == "-R 2");
  CHECK_THROWS_WITH(launch("agg iters: 1 validation: 1 graph: 0\n# Registered buffers: yes"),
                    "a.log: line 2: a '# Registered buffers:' line without its '(-R N)'");
  // -x: perfgate-collectives' CTA policy line, read after -R (0, NCCL's default, set all the
  // same, is a launch of its own).
  CHECK(launch("agg iters: 1 validation: 1 graph: 0 unalign: 4\n# Registered buffers: "
               "ncclCommRegister (-R 1) \n# CTA policy: efficiency (-x 1) ") == "-R 1 -x 1 -u 4");
  CHECK(launch("agg iters: 1 validation: 1 graph: 0\n# CTA policy: default (-x 0) ") == "-x 0");
  CHECK_THROWS_WITH(launch("agg iters: 1 validation: 1 graph: 0\n# CTA policy: efficiency"),
                    "a.log: line 2: a '# CTA policy:' line without its '(-x N)'");
  // The real single-node log was measured plainly.
  CHECK(read_results_file(kData / "nccl_single_node.log")
            .fingerprint.comparable.count("collectives.launch") == 0);
}

TEST_CASE("bandwidths printed as 0.00 are recomputed from size and time") {
  const Run run = read_results_file(kData / "nccl_single_node.log");
  const std::string tiny = "collectives.all_reduce/bytes:8/dtype:f32/inplace:0/redop:sum/root:-1";
  const double algbw = 8 / (41.22 * 1e3);  // GB/s: 8 bytes in 41.22 us
  const auto& alg = find_series(run, tiny + "@algbw");
  REQUIRE(alg.samples.size() == 1);
  CHECK(alg.samples.front() == Approx(algbw).epsilon(1e-12));
  CHECK(alg.extra["derived_from_time"] == true);
  // 8 ranks (one "# Rank" line each): all_reduce's bus factor 2 (n - 1) / n = 1.75.
  CHECK(find_series(run, tiny + "@busbw").samples.front() == Approx(algbw * 1.75).epsilon(1e-12));
  // Printed values above the resolution stay exactly as printed.
  const auto& printed = find_series(
      run, "collectives.all_reduce/bytes:1024/dtype:f32/inplace:0/redop:sum/root:-1@busbw");
  CHECK(printed.samples == std::vector<double>{0.04});
  CHECK(printed.extra.count("derived_from_time") == 0);

  // Without rank lines the bus factor has no n: busbw stays as printed, algbw is still derived.
  const Run bare = from_nccl_tests_log(
      "# Collective test starting: all_reduce_perf\n"
      "#       size         count      type   redop    root     time   algbw   busbw #wrong\n"
      "           8             2     float     sum      -1    41.22    0.00    0.00      0\n",
      "bare.log");
  const std::string p = "collectives.all_reduce/bytes:8/dtype:f32/inplace:0/redop:sum/root:-1";
  CHECK(find_series(bare, p + "@algbw").samples.front() == Approx(algbw).epsilon(1e-12));
  CHECK(find_series(bare, p + "@busbw").samples == std::vector<double>{0.0});

  // gather_perf and scatter_perf on 4 ranks: their bus factor (n - 1) / n = 0.75.
  for (const std::string op : {"gather", "scatter"}) {
    const Run rooted = from_nccl_tests_log(
        "# Collective test starting: " + op +
            "_perf\n"
            "#  Rank  0 Group  0 Pid   1619 on         n1 device  0 [0000:1b:00] NVIDIA H200\n"
            "#  Rank  1 Group  0 Pid   1620 on         n1 device  1 [0000:2b:00] NVIDIA H200\n"
            "#  Rank  2 Group  0 Pid   1621 on         n1 device  2 [0000:3b:00] NVIDIA H200\n"
            "#  Rank  3 Group  0 Pid   1622 on         n1 device  3 [0000:4b:00] NVIDIA H200\n"
            "#       size         count      type   redop    root     time   algbw   busbw #wrong\n"
            "           8             0     float    none       0    41.22    0.00    0.00      "
            "0\n",
        "rooted.log");
    const std::string q =
        "collectives." + op + "/bytes:8/dtype:f32/inplace:0/redop:none/root:0@busbw";
    INFO(op);
    CHECK(find_series(rooted, q).samples.front() == Approx(algbw * 0.75).epsilon(1e-12));
  }
}

TEST_CASE("hypercube_perf's rows, whose redop column is blank, ingest with its own algbw") {
  // nccl-tests' hypercube_perf prints its op name as "" (blank under redop), so each row is a
  // word short; its algbw counts the (n - 1) blocks a rank receives, so its 0.00 cells derive as
  // size x (n - 1) / n / time, and its bus factor is 1.
  std::string ranks;
  for (const std::string r : {"0", "1", "2", "3"})
    ranks += "#  Rank  " + r + " Group  0 Pid   161" + r + " on         n1 device  " + r +
             " [0000:" + r + "b:00] NVIDIA H200\n";
  const Run run = from_nccl_tests_log(
      "# Collective test starting: hypercube_perf\n" + ranks +
          "#       size         count      type   redop    root     time   algbw   busbw #wrong    "
          " time   algbw   busbw #wrong\n"
          "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)         "
          "     (us)  (GB/s)  (GB/s)\n"
          "          64             4     float              -1    41.22    0.00    0.00      0    "
          "40.17    0.00    0.00      0\n"
          "     1048576         65536     float              -1    30.00   26.21   26.21      0    "
          "29.00   27.12   27.12      0\n",
      "cube.log");
  const std::string small = "collectives.hypercube/bytes:64/dtype:f32/inplace:0/redop:none/root:-1";
  CHECK(find_series(run, small + "@time").samples == std::vector<double>{41.22});
  CHECK(find_series(run, small + "@algbw").samples.front() ==
        Approx(64 * 0.75 / 41.22e3).epsilon(1e-12));
  CHECK(find_series(run, small + "@busbw").samples.front() ==
        Approx(64 * 0.75 / 41.22e3).epsilon(1e-12));
  const std::string big =
      "collectives.hypercube/bytes:1048576/dtype:f32/inplace:1/redop:none/root:-1";
  CHECK(find_series(run, big + "@time").samples == std::vector<double>{29.00});
  CHECK(find_series(run, big + "@busbw").samples == std::vector<double>{27.12});
  CHECK(run.results.size() == 12);

  // Only hypercube's rows may lack the word: another op's row a word short is a cut line.
  std::string cut =
      "# Collective test starting: all_gather_perf\n" + ranks +
      "#       size         count      type   redop    root     time   algbw   busbw "
      "#wrong\n"
      "          64             4     float              -1    41.22    0.00    0.00  "
      "    0\n";
  CHECK_THROWS_WITH(from_nccl_tests_log(cut, "cut.log"),
                    "cut.log: line 7: nccl-tests row has 8 columns, expected 9 (truncated?)");
  // A lone in-place group of hypercube (nccl-tests' -o 0) still reads as in place.
  const Run in_place = from_nccl_tests_log(
      "# Collective test starting: hypercube_perf\n" + ranks +
          "#       size         count      type   redop    root     time   algbw   busbw #wrong    "
          " time   algbw   busbw #wrong\n"
          "     1048576         65536     float              -1                                   "
          "29.00   27.12   27.12      0\n",
      "lone.log");
  CHECK(only_params(in_place) == big);
}

namespace {

// A 4-rank all_reduce log whose rank lines are `ranks` and whose one row's 8 bytes print
// bandwidths of 0.00 (so both are derived from its time, 41.22 us).
Run split_log(const std::string& ranks) {
  return from_nccl_tests_log(
      "# Collective test starting: all_reduce_perf\n" + ranks +
          "#       size         count      type   redop    root     time   algbw   busbw #wrong    "
          " "
          "time   algbw   busbw #wrong\n"
          "           8             2     float     sum      -1    41.22    0.00    0.00      0    "
          "40.17    0.00    0.00      0\n",
      "split.log");
}

const std::string kTwoGroups =
    "#  Rank  0 Group  0 Pid   1619 on         n1 device  0 [0000:1b:00] NVIDIA H200\n"
    "#  Rank  1 Group  1 Pid   1620 on         n1 device  1 [0000:2b:00] NVIDIA H200\n"
    "#  Rank  2 Group  0 Pid   1621 on         n2 device  0 [0000:1b:00] NVIDIA H200\n"
    "#  Rank  3 Group  1 Pid   1622 on         n2 device  1 [0000:2b:00] NVIDIA H200\n";

}  // namespace

TEST_CASE("a split run (NCCL_TESTS_SPLIT_MASK): busbw of rank 0's group, series keyed by groups") {
  const Run run = split_log(kTwoGroups);
  const std::string p =
      "collectives.all_reduce/bytes:8/dtype:f32/groups:2/inplace:0/redop:sum/root:-1";
  const double algbw = 8 / (41.22 * 1e3);
  CHECK(find_series(run, p + "@algbw").samples.front() == Approx(algbw).epsilon(1e-12));
  // Each group is a communicator of 2 ranks: all_reduce's 2 (n - 1) / n is 1.0, not 4 ranks' 1.5.
  const auto& busbw = find_series(run, p + "@busbw");
  CHECK(busbw.samples.front() == Approx(algbw * 1.0).epsilon(1e-12));
  CHECK(busbw.extra["derived_from_time"] == true);
  for (const Result& r : run.results) CHECK(r.key.params.at("groups") == "2");
  CHECK(run.metadata["nccl_tests"]["split"] == nlohmann::json{{"groups", 2}, {"group_ranks", 2}});
  // The scale and fingerprint count every rank of every group.
  REQUIRE(busbw.scale);
  CHECK(*busbw.scale == Scale{2, 2, 4});
  CHECK(run.fingerprint.comparable.at("gpu.count") == "4");
  CHECK(run.fingerprint.comparable.at("cluster.nodes") == "2");
}

TEST_CASE("a split into unequal groups: rank 0's group gives the bus factor, and says so") {
  // Rank 0's group (3) holds three ranks, though its line is not the first; group 1 holds one.
  const Run run = split_log(
      "#  Rank  1 Group  1 Pid   1620 on         n1 device  1 [0000:2b:00] NVIDIA H200\n"
      "#  Rank  0 Group  3 Pid   1619 on         n1 device  0 [0000:1b:00] NVIDIA H200\n"
      "#  Rank  2 Group  3 Pid   1621 on         n2 device  0 [0000:1b:00] NVIDIA H200\n"
      "#  Rank  3 Group  3 Pid   1622 on         n2 device  1 [0000:2b:00] NVIDIA H200\n");
  const std::string p =
      "collectives.all_reduce/bytes:8/dtype:f32/groups:2/inplace:1/redop:sum/root:-1";
  // 3 ranks: 2 (n - 1) / n = 4 / 3.
  CHECK(find_series(run, p + "@busbw").samples.front() ==
        Approx(8 / (40.17 * 1e3) * 4.0 / 3.0).epsilon(1e-12));
  CHECK(run.metadata["nccl_tests"]["split"] ==
        nlohmann::json{{"groups", 2}, {"group_ranks", 3}, {"unequal_groups", true}});
}

TEST_CASE("one group, or no Group column (older nccl-tests), keeps the unsplit series") {
  const std::string p = "collectives.all_reduce/bytes:8/dtype:f32/inplace:0/redop:sum/root:-1";
  const double busbw = 8 / (41.22 * 1e3) * 1.5;  // 4 ranks in one communicator
  const std::string one_group =
      "#  Rank  0 Group  0 Pid   1619 on         n1 device  0 [0000:1b:00] NVIDIA H200\n"
      "#  Rank  1 Group  0 Pid   1620 on         n1 device  1 [0000:2b:00] NVIDIA H200\n"
      "#  Rank  2 Group  0 Pid   1621 on         n2 device  0 [0000:1b:00] NVIDIA H200\n"
      "#  Rank  3 Group  0 Pid   1622 on         n2 device  1 [0000:2b:00] NVIDIA H200\n";
  const std::string no_column =
      "#  Rank  0 Pid   1619 on         n1 device  0 [0000:1b:00] NVIDIA H200\n"
      "#  Rank  1 Pid   1620 on         n1 device  1 [0000:2b:00] NVIDIA H200\n"
      "#  Rank  2 Pid   1621 on         n2 device  0 [0000:1b:00] NVIDIA H200\n"
      "#  Rank  3 Pid   1622 on         n2 device  1 [0000:2b:00] NVIDIA H200\n";
  for (const std::string& ranks : {one_group, no_column}) {
    const Run run = split_log(ranks);
    for (const Result& r : run.results) CHECK(r.key.params.count("groups") == 0);
    CHECK(find_series(run, p + "@busbw").samples.front() == Approx(busbw).epsilon(1e-12));
    CHECK_FALSE(run.metadata.contains(nlohmann::json::json_pointer("/nccl_tests/split")));
  }
  // The same ranks split in two are another case: no series of the split run has these ids.
  const Run split = split_log(kTwoGroups);
  CHECK(std::none_of(split.results.begin(), split.results.end(),
                     [&](const Result& r) { return r.key.name() == p; }));
}

TEST_CASE("rows repeated under one header are -N cycles: one series, a sample each") {
  const std::string head =
      "# Collective test starting: all_reduce_perf\n"
      "#  Rank  0 Group  0 Pid      7 on         n1 device  0 [0000:1b:00] NVIDIA H200\n"
      "#  Rank  1 Group  0 Pid      8 on         n1 device  1 [0000:2b:00] NVIDIA H200\n"
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
      "time   algbw   busbw #wrong\n";
  const std::string cycles = head +
                             "        1024           256     float     sum      -1    41.22    "
                             "0.02    0.02      0    40.17    0.03    0.03      0\n"
                             "        1024           256     float     sum      -1    43.10    "
                             "0.02    0.02      2    40.00    0.03    0.03      0\n"
                             "        1024           256     float     sum      -1    42.00    "
                             "0.02    0.02      1    40.50    0.03    0.03      0\n";
  const Run run = from_nccl_tests_log(cycles, "cycles.log");
  CHECK(run.results.size() == 6);  // one row's series: 2 placements x 3 metrics
  const std::string p = "collectives.all_reduce/bytes:1024/dtype:f32/inplace:0/redop:sum/root:-1";
  const auto& time = find_series(run, p + "@time");
  CHECK(time.samples == std::vector<double>{41.22, 43.10, 42.00});
  CHECK(time.summary.n == 3);
  // A cycle's wrong elements make the series an error; the count is summed over the cycles.
  CHECK(time.status == ResultStatus::error);
  CHECK(time.extra["wrong"] == 3);
  CHECK(find_series(run, p + "@busbw").samples.size() == 3);
  CHECK(find_series(run,
                    "collectives.all_reduce/bytes:1024/dtype:f32/inplace:1/redop:sum/"
                    "root:-1@time")
            .status == ResultStatus::ok);

  // The same rows under a second header are a second run pasted into the log: refused.
  const std::string two_runs = cycles + head +
                               "        1024           256     float     sum      -1    41.22    "
                               "0.02    0.02      0    40.17    0.03    0.03      0\n";
  CHECK_THROWS_WITH(from_nccl_tests_log(two_runs, "two.log"),
                    Catch::Contains("two.log: line 12: series collectives.all_reduce/bytes:1024") &&
                        Catch::Contains("appears twice (several runs in one log?"));
}

TEST_CASE("a -C table's time columns are the launch time: series cputime, nothing derived") {
  const Run run = from_nccl_tests_log(
      "# Collective test starting: all_reduce_perf\n"
      "#  Rank  0 Group  0 Pid      7 on         n1 device  0 [0000:1b:00] NVIDIA H200\n"
      "#  Rank  1 Group  0 Pid      8 on         n1 device  1 [0000:2b:00] NVIDIA H200\n"
      "#       size         count      type   redop    root  cputime   algbw   busbw #wrong  "
      "cputime   algbw   busbw #wrong\n"
      "           8             2     float     sum      -1     4.10    0.00    0.00      0     "
      "4.00    0.00    0.00      0\n",
      "cpu.log");
  const std::string p = "collectives.all_reduce/bytes:8/dtype:f32/inplace:0/redop:sum/root:-1";
  CHECK(find_series(run, p + "@cputime").samples == std::vector<double>{4.10});
  CHECK(find_series(run, p + "@cputime").unit == "us");
  CHECK(std::none_of(run.results.begin(), run.results.end(),
                     [](const Result& r) { return r.key.metric == "time"; }));
  // 0.00 stays 0: bytes over a launch time would be no bandwidth of the operation.
  CHECK(find_series(run, p + "@algbw").samples == std::vector<double>{0.0});
  CHECK(find_series(run, p + "@algbw").extra.count("derived_from_time") == 0);
}

TEST_CASE("a row with one group of values belongs to the placement whose column it stands in") {
  const std::string header =
      "# Collective test starting: all_reduce_perf\n"
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
      "time   algbw   busbw #wrong\n";
  // nccl-tests -O 0 leaves the 32 characters of the out-of-place cells blank.
  const Run in_place_only =
      from_nccl_tests_log(header + "        1024           256     float     sum      -1" +
                              std::string(32, ' ') + "    40.17    0.03    0.05      0\n",
                          "o0.log");
  CHECK(in_place_only.results.size() == 3);
  for (const Result& r : in_place_only.results) CHECK(r.key.params.at("inplace") == "1");
  CHECK(find_series(in_place_only,
                    "collectives.all_reduce/bytes:1024/dtype:f32/inplace:1/redop:sum/root:-1@time")
            .samples == std::vector<double>{40.17});
  // Values under the out-of-place columns, the in-place ones cut off: out-of-place.
  const Run out_of_place_only = from_nccl_tests_log(
      header +
          "        1024           256     float     sum      -1    41.22    0.02    0.04      0\n",
      "oop.log");
  for (const Result& r : out_of_place_only.results) CHECK(r.key.params.at("inplace") == "0");
}

TEST_CASE(
    "the newest nccl-tests' per-iteration columns: the table's series, each "
    "placement's iteration statistics beside its time") {
  const Run run = read_results_file(kData / "nccl_per_iteration.log");
  CHECK(run.results.size() == 4 * 2 * 3);
  const std::string p =
      "collectives.all_reduce/bytes:17179869184/dtype:f32/inplace:0/redop:sum/root:-1";
  const Result& time = find_series(run, p + "@time");
  // getFloatStr's one decimal from 10 ms: the printed digits, as printed.
  CHECK(time.samples == std::vector<double>{38012.4});
  CHECK(find_series(run, p + "@busbw").samples == std::vector<double>{451.95});
  REQUIRE(time.extra["per_iteration"].size() == 1);
  const nlohmann::json& stats = time.extra["per_iteration"][0];
  CHECK(stats["min_us"] == 35351.5);
  CHECK(stats["max_us"] == 45995.0);
  CHECK(stats["p99_us"] == 44854.6);
  CHECK(stats["cv_pct"] == 0.41);
  // The in-place group is read from its own columns, after the out-of-place per-iteration ones.
  const Result& in_place = find_series(
      run, "collectives.all_reduce/bytes:1024/dtype:f32/inplace:1/redop:sum/root:-1@time");
  CHECK(in_place.samples == std::vector<double>{14.02});
  CHECK(in_place.extra["per_iteration"][0]["min_us"] == 13.04);
  CHECK(in_place.extra["wrong"] == 0);
  // Bandwidths carry no iteration statistics; "unalign: 0" is a plain launch.
  CHECK(find_series(run, p + "@algbw").extra.count("per_iteration") == 0);
  CHECK(run.fingerprint.comparable.count("collectives.launch") == 0);
  CHECK(run.fingerprint.comparable.at("nccl.version") == "22803");
  // -M 1's line, after the footer: its parts in bytes, in nccl-tests' binary units.
  const nlohmann::json& memory = run.metadata["nccl_tests"]["memory_usage"];
  REQUIRE(memory.size() == 1);
  CHECK(memory[0]["device"] == "GPU");
  CHECK(memory[0]["operation"] == "all_reduce");
  CHECK(memory[0]["parts"] ==
        "Initialization 520 MB | User-Allocated 32.0 GB | Collective 2.00 MB | Total  32.5 GB");
  CHECK(memory[0]["bytes"] == nlohmann::json{{"initialization", 520LL << 20},
                                             {"user_allocated", 32LL << 30},
                                             {"collective", 2LL << 20},
                                             {"total", 34896609280LL}});
}

TEST_CASE("memory usage lines: one a table, the host's too, and a malformed one refused") {
  const std::string footer =
      "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 0.04 \n#\n"
      "# Collective test concluded: all_reduce_perf\n";
  const Run run = from_nccl_tests_log(
      "# Collective test starting: all_reduce_perf\n" + kOneRowTable + footer +
          "# Host memory usage    : Initialization 7.84 MB | User-Allocated 1023 B | Collective "
          "-2.00 KB | Total  7.84 MB\n",
      "host.log");
  const nlohmann::json& memory = run.metadata["nccl_tests"]["memory_usage"];
  REQUIRE(memory.size() == 1);
  CHECK(memory[0]["device"] == "Host");
  CHECK(memory[0]["bytes"]["initialization"] == std::llround(7.84 * 1024 * 1024));
  CHECK(memory[0]["bytes"]["user_allocated"] == 1023);
  CHECK(memory[0]["bytes"]["collective"] == -2048);  // memory given back during the table
  for (const char* parts : {"Initialization 7.84 | Total  7.84 MB", "Initialization 7.84 TB",
                            "Initialization seven MB", "Initialization 1e999 MB", ""}) {
    INFO(parts);
    CHECK_THROWS_WITH(
        from_nccl_tests_log(kOneRowTable + footer + "# GPU memory usage     : " + parts + "\n",
                            "bad.log"),
        Catch::Contains("bad.log: line 7: a memory usage line whose parts are not "
                        "NAME AMOUNT UNIT"));
  }
}

TEST_CASE("nccl-tests -S 1: each row's timestamp is kept with its samples, not read as values") {
  const Run run = read_results_file(kData / "nccl_timestamps.log");
  CHECK(run.results.size() == 4 * 2 * 3);
  const std::string p =
      "collectives.all_reduce/bytes:1048576/dtype:f32/inplace:1/redop:sum/root:-1";
  CHECK(find_series(run, p + "@time").samples == std::vector<double>{30.95});
  CHECK(find_series(run, p + "@busbw").extra["printed_at"] ==
        nlohmann::json::array({"2026-12-03 14:05:10"}));
  // Under -N the rows repeat: one timestamp a sample.
  const std::string header =
      "# Collective test starting: all_reduce_perf\n"
      "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong timestamp\n";
  const std::string row = "  1024 256 float sum -1 10.0 0.10 0.10 0 9.0 0.11 0.11 0 ";
  const Run cycles = from_nccl_tests_log(
      header + row + "2026-12-03 14:05:09\n" + row + "2026-12-03 14:05:10\n", "n2.log");
  const Result& t = find_series(
      cycles, "collectives.all_reduce/bytes:1024/dtype:f32/inplace:0/redop:sum/root:-1@time");
  CHECK(t.samples.size() == 2);
  CHECK(t.extra["printed_at"].size() == 2);
  // A row cut inside its timestamp, or one whose last words are no date and time, is refused.
  CHECK_THROWS_WITH(from_nccl_tests_log(header + row + "2026-12-03\n", "cut.log"),
                    Catch::Contains("cut.log: line 3") && Catch::Contains("truncated"));
  CHECK_THROWS_WITH(
      from_nccl_tests_log(header + "  1024 256 float sum -1 10.0 0.10 0.10 0 9.0 0.11 0.11 0 0 0\n",
                          "bad.log"),
      Catch::Contains("bad.log: line 3: '0 0' is not the date and time"));
}

TEST_CASE("the newest nccl-tests' number format: exponents, one decimal, no decimals") {
  // getFloatStr keeps a value in its column: 1.2e+07 us, 1234.6 GB/s, 123456 us.
  const Run run = from_nccl_tests_log(
      "# Collective test starting: all_reduce_perf\n"
      "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n"
      "  68719476736 17179869184 float sum -1 1.2e+07   5.73   5.73      0  123456 1234.6 "
      "1234.6      0\n",
      "wide.log");
  CHECK(find_series(run,
                    "collectives.all_reduce/bytes:68719476736/dtype:f32/inplace:0/redop:sum/"
                    "root:-1@time")
            .samples == std::vector<double>{1.2e7});
  CHECK(find_series(run,
                    "collectives.all_reduce/bytes:68719476736/dtype:f32/inplace:1/redop:sum/"
                    "root:-1@busbw")
            .samples == std::vector<double>{1234.6});
}

TEST_CASE("a header whose groups are not nccl-tests' is refused naming what it found") {
  CHECK_THROWS_WITH(
      from_nccl_tests_log("#  size count type redop root time busbw algbw #wrong\n", "h.log"),
      Catch::Contains("h.log: line 1: unexpected nccl-tests header (expected time algbw busbw "
                      "#wrong, found time busbw algbw #wrong)"));
  CHECK_THROWS_WITH(
      from_nccl_tests_log("#  size count type redop root time algbw busbw #wrong i_min i_max "
                          "i_cv%\n",
                          "p.log"),
      Catch::Contains("per-iteration columns without i_p99"));
  CHECK_THROWS_WITH(
      from_nccl_tests_log("#  size count type redop root time algbw busbw #wrong i_min i_max "
                          "i_p99 i_cv% time algbw busbw #wrong\n",
                          "m.log"),
      Catch::Contains("the in-place columns differ from the out-of-place"));
  // A unalign offset is a launch of its own: not compared with aligned runs.
  const Run unaligned = from_nccl_tests_log(
      "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20 agg "
      "iters: 1 validation: 1 graph: 0 unalign: 8\n" +
          kOneRowTable,
      "u.log");
  CHECK(unaligned.fingerprint.comparable.at("collectives.launch") == "-u 8");
}

TEST_CASE("truncated or foreign text is refused with the line") {
  CHECK_THROWS_WITH(read_results_file(kData / "nccl_truncated.log"),
                    Catch::Contains("nccl_truncated.log: line 22") && Catch::Contains("truncated"));
  CHECK_THROWS_WITH(from_nccl_tests_log("hello\n", "x.log"),
                    Catch::Contains("no nccl-tests result table"));
  CHECK_FALSE(looks_like_nccl_tests("# size is big\n"));
  CHECK(looks_like_nccl_tests(
      "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n"));
}

TEST_CASE("a log with very long lines is read or refused, never a crash") {
  // Until 2026-12-01 each of these overflowed the stack inside std::regex (a segfault of
  // `perfgate ingest`), and the long version number threw std::out_of_range from stoi.
  const std::string table =
      "#  size count type redop root time algbw busbw #wrong time algbw "
      "busbw #wrong\n"
      "  1024 256 float sum -1 10.0 0.10 0.10 0 10.0 0.10 0.10 0\n";
  const std::string long_word(200000, 'a'), long_host(200000, 'x');
  for (const std::string& noise :
       {long_word + "\n",
        "#  Rank  0 Group  0 Pid 1 on " + long_host + " device  0 [0x1b] NVIDIA H100\n",
        "#  Rank  0 Group  0 Pid 1 on host device  0 [" + long_host + "] NVIDIA H100\n"}) {
    const Run run = from_nccl_tests_log(noise + table, "long.log");
    CHECK(run.results.size() == 2 * 3);
  }
  const Run banner =
      from_nccl_tests_log("NCCL version 99999999999.1.1+cuda12.2\n" + table, "v.log");
  CHECK(banner.fingerprint.comparable.count("nccl.version") == 0);
  const Run digits =
      from_nccl_tests_log("NCCL version " + std::string(200000, '9') + "\n" + table, "d.log");
  CHECK(digits.fingerprint.comparable.count("nccl.version") == 0);
}

TEST_CASE("nccl-tests' JSON output gives the same run as its log") {
  // nccl_single_node.json holds, in nccl-tests' JSON layout (version 3), the run that
  // nccl_single_node.log prints: the same rows, and the numbers its JSON writes in full.
  const Run json = read_results_file(kData / "nccl_single_node.json");
  const Run log = read_results_file(kData / "nccl_single_node.log");
  CHECK(json.suite == "nccl-tests");
  CHECK(json.labels.at("source_format") == "nccl-tests");
  REQUIRE(json.results.size() == log.results.size());
  for (const Result& expected : log.results) {
    const Result& got = find_series(json, expected.key.id());
    CHECK(got.status == expected.status);
    REQUIRE(got.samples.size() == 1);
    // The log rounds to its printed decimals (2; 1 for times of 100 us and more), and computes
    // its bandwidths from unrounded times; the JSON writes 6 decimals: they agree to the log's
    // last digit.
    const double last_digit = expected.key.metric == "time" ? 0.1 : 0.01;
    CHECK(got.samples.front() == Approx(expected.samples.front()).epsilon(0).margin(last_digit));
  }
  CHECK(json.fingerprint.comparable == log.fingerprint.comparable);
  CHECK(json.fingerprint.comparable.at("gpu.count") == "8");  // 1 process x -g 8
  CHECK(json.fingerprint.comparable.at("nccl.version") == "22603");
  CHECK(json.metadata["nccl_tests"]["json_version"] == 3);
  CHECK(json.uuid != log.uuid);
}

TEST_CASE("nccl-tests JSON: processes on two hosts, -m and -z, and what is refused") {
  nlohmann::json doc = nlohmann::json::parse(R"({
    "version": 3, "nccl_version": 22803, "args": ["/opt/nccl-tests/build/all_gather_perf"],
    "config": {"nthreads": 1, "ngpus": 1, "minimum_bytes": 1024, "maximum_bytes": 1024,
               "step_bytes": 1024, "warmup_iters": 5, "iterations": 20,
               "aggregated_iterations": 4, "validation": 1, "graph": 0,
               "blocking_collectives": "false",
               "devices": [
                 {"rank": 0, "group": 0, "pid": 7, "hostname": "n1", "device": 0,
                  "device_hex": "0000:1b:00", "device_info": "NVIDIA H200"},
                 {"rank": 1, "group": 0, "pid": 9, "hostname": "n2", "device": 0,
                  "device_hex": "0000:1b:00", "device_info": "NVIDIA H200"}]},
    "results": [{"size": 1024, "count": 128, "type": "bfloat16", "redop": "none",
                 "root": "    -1",
                 "out_of_place": {"time": 20.5, "alg_bw": 0.049951, "bus_bw": 0.024976,
                                  "nwrong": 0.0},
                 "in_place": null}]})");
  const Run run = from_nccl_tests_json(doc, "ag.json");
  CHECK(run.results.size() == 3);  // out-of-place only: time, algbw, busbw
  const auto& busbw = find_series(
      run, "collectives.all_gather/bytes:1024/dtype:bf16/inplace:0/redop:none/root:-1@busbw");
  CHECK(busbw.samples == std::vector<double>{0.024976});
  CHECK(run.fingerprint.comparable.at("cluster.nodes") == "2");
  CHECK(run.fingerprint.comparable.at("gpu.count") == "2");
  CHECK(run.fingerprint.comparable.at("collectives.launch") == "-m 4");
  doc["config"]["blocking_collectives"] = "true";
  doc["config"]["aggregated_iterations"] = 1;
  CHECK(from_nccl_tests_json(doc, "ag.json").fingerprint.comparable.at("collectives.launch") ==
        "-z 1");
  // -R is only in the command line the JSON keeps, in any of getopt's spellings.
  const auto registered = [&](const std::vector<std::string>& args) {
    nlohmann::json d = doc;
    for (const std::string& a : args) d["args"].push_back(a);
    return from_nccl_tests_json(d, "ag.json").fingerprint.comparable.at("collectives.launch");
  };
  CHECK(registered({"-b", "1K", "-R", "1"}) == "-z 1 -R 1");
  CHECK(registered({"-R2"}) == "-z 1 -R 2");
  CHECK(registered({"--local_register", "2"}) == "-z 1 -R 2");
  CHECK(registered({"--local_register=1", "-e", "1K"}) == "-z 1 -R 1");
  CHECK(registered({"-R", "1", "-R", "0"}) == "-z 1");  // the last one counts, as in getopt
  CHECK(registered({"-R", "x"}) == "-z 1");             // strtol: no number is 0
  // -x too, also when 0 (given, NCCL's config is set).
  CHECK(registered({"-x", "1", "-R", "2"}) == "-z 1 -R 2 -x 1");
  CHECK(registered({"--cta_policy=2"}) == "-z 1 -x 2");
  CHECK(registered({"-x0"}) == "-z 1 -x 0");

  const auto refusal = [&](const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json bad = doc;
    change(bad);
    try {
      from_nccl_tests_json(bad, "ag.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  CHECK(refusal([](nlohmann::json& d) { d.erase("results"); }) ==
        "ag.json: nccl-tests JSON: results: missing");
  CHECK(refusal([](nlohmann::json& d) { d["results"][0]["size"] = "1K"; }) ==
        "ag.json: nccl-tests JSON: results[0].size: not a whole number");
  CHECK(refusal([](nlohmann::json& d) { d["results"][0]["out_of_place"]["time"] = true; }) ==
        "ag.json: nccl-tests JSON: results[0].out_of_place.time: not a number");
  // -C 1 writes cpu_time where the time was: read as the log's cputime columns.
  nlohmann::json launch_times = doc;
  launch_times["results"][0]["out_of_place"].erase("time");
  launch_times["results"][0]["out_of_place"]["cpu_time"] = 3.0;
  CHECK(find_series(from_nccl_tests_json(launch_times, "ag.json"),
                    "collectives.all_gather/bytes:1024/dtype:bf16/inplace:0/redop:none/"
                    "root:-1@cputime")
            .samples == std::vector<double>{3.0});
  // The first placement decides; one of the other kind lacks its key.
  CHECK(refusal([](nlohmann::json& d) {
          d["results"].push_back(d["results"][0]);
          d["results"][0]["out_of_place"].erase("time");
          d["results"][0]["out_of_place"]["cpu_time"] = 3.0;
        }) == "ag.json: nccl-tests JSON: results[1].out_of_place.cpu_time: missing");
  CHECK(refusal([](nlohmann::json& d) { d["config"]["devices"][1]["hostname"] = "two words"; }) ==
        "ag.json: nccl-tests JSON: config.devices[1].hostname: not one word");
  CHECK(refusal([](nlohmann::json& d) { d["config"]["ngpus"] = 0; }) ==
        "ag.json: nccl-tests JSON: config.ngpus: not a count from 1 to 65536");
  CHECK(refusal([](nlohmann::json& d) { d["config"]["nthreads"] = 65536; }) ==
        "ag.json: nccl-tests JSON: config.devices: more than 65536 ranks");
  CHECK(refusal([](nlohmann::json& d) { d["results"][0]["out_of_place"]["nwrong"] = 1e300; }) ==
        "ag.json: nccl-tests JSON: results[0].out_of_place.nwrong: not a count");
  CHECK(refusal([](nlohmann::json& d) { d["results"] = nlohmann::json::array(); }) ==
        "ag.json: the nccl-tests table has no rows");
  CHECK(refusal([](nlohmann::json& d) {
          d["args"] = {"all_gather_perf", "-R", "3"};
        }) ==
        "ag.json: nccl-tests JSON: args: -R 3: not 0, 1 (ncclCommRegister) or 2 (symmetric "
        "windows)");
  CHECK(refusal([](nlohmann::json& d) {
          d["args"] = {"all_gather_perf", "--cta_policy", "7"};
        }) == "ag.json: nccl-tests JSON: args: -x 7: not 0 (default), 1 (efficiency) or 2 (zero)");
}

TEST_CASE("nccl-tests JSON with the per-iteration report: its statistics beside each time") {
  nlohmann::json doc = nlohmann::json::parse(R"({
    "version": 2, "nccl_version": 22803, "args": ["./build/all_reduce_perf"],
    "config": {"nthreads": 1, "ngpus": 1, "minimum_bytes": 1024, "maximum_bytes": 1024,
               "step_factor": 2, "warmup_iters": 5, "iterations": 20,
               "aggregated_iterations": 1, "validation": 1, "graph": 0,
               "per_iter_timing": "true"},
    "results": [{"size": 1024, "count": 256, "type": "float", "redop": "sum", "root": "    -1",
                 "out_of_place": {"time": 14.3125, "alg_bw": 0.071546, "bus_bw": 0.071546,
                                  "nwrong": 0.0},
                 "out_of_place_per_iter": {"min_us": 13.312, "max_us": 17.3248,
                                           "avg_us": 14.3125, "p50_us": 14.1, "p95_us": 16.0,
                                           "p99_us": 16.8896, "stdev_us": 0.4866, "cv_pct": 3.4,
                                           "times_us": [14.1, 13.312, 17.3248]},
                 "in_place": {"time": 14.0208, "alg_bw": 0.073034, "bus_bw": 0.073034,
                              "nwrong": 0.0}}]})");
  const Run run = from_nccl_tests_json(doc, "pi.json");
  CHECK(run.results.size() == 2 * 3);
  const std::string p = "collectives.all_reduce/bytes:1024/dtype:f32/inplace:";
  const Result& out_of_place = find_series(run, p + "0/redop:sum/root:-1@time");
  CHECK(out_of_place.samples == std::vector<double>{14.3125});
  CHECK(out_of_place.extra["per_iteration"] ==
        nlohmann::json::parse(
            R"([{"min_us": 13.312, "max_us": 17.3248, "p99_us": 16.8896, "cv_pct": 3.4}])"));
  // A placement without its report keeps its time and has no statistics.
  const Result& in_place = find_series(run, p + "1/redop:sum/root:-1@time");
  CHECK(in_place.samples == std::vector<double>{14.0208});
  CHECK(in_place.extra["per_iteration"] == nlohmann::json::parse("[{}]"));
  // perfgate-collectives' "program" names the binary where its args[0] does not.
  nlohmann::json named = doc;
  named["args"] = {"/opt/perfgate/bin/perfgate-collectives", "-J", "pi.json"};
  named["program"] = "broadcast_perf";
  CHECK(from_nccl_tests_json(named, "pi.json").results.front().key.family ==
        "collectives.broadcast");
  doc["results"][0]["out_of_place_per_iter"]["p99_us"] = "fast";
  CHECK_THROWS_WITH(from_nccl_tests_json(doc, "pi.json"),
                    "pi.json: nccl-tests JSON: results[0].out_of_place_per_iter.p99_us: not a "
                    "number");
}

TEST_CASE("the newest nccl-tests' bitwise check: #bitdiff read as a check, beside -I and -K") {
  // nccl_bitwise.log: -I 1 -K 2 and a bitwise check of 4 repeats, printed in nccl-tests'
  // formats; the 256 MiB in-place case differed in 64 bits between repeats.
  const Run run = read_results_file(kData / "nccl_bitwise.log");
  CHECK(run.results.size() == 3 * 2 * 3);
  const std::string p = "collectives.all_reduce/bytes:268435456/dtype:f32/inplace:";
  const Result& steady = find_series(run, p + "0/redop:sum/root:-1@time");
  CHECK(steady.status == ResultStatus::ok);
  CHECK(steady.samples == std::vector<double>{1204.3});
  CHECK(steady.extra["bitdiff"] == 0);
  CHECK(steady.extra["wrong"] == 0);
  // The per-iteration columns are read after #bitdiff, not shifted by it.
  CHECK(steady.extra["per_iteration"][0]["min_us"] == 1190.6);
  CHECK(steady.extra["per_iteration"][0]["cv_pct"] == 0.44);
  for (const char* metric : {"time", "algbw", "busbw"}) {
    const Result& differed = find_series(run, p + "1/redop:sum/root:-1@" + metric);
    CHECK(differed.status == ResultStatus::error);
    CHECK(differed.extra["bitdiff"] == 64);
    CHECK(differed.message ==
          "nccl-tests found 64 bits that differed between repeated runs (#bitdiff)");
  }
  CHECK(find_series(run, p + "1/redop:sum/root:-1@busbw").samples == std::vector<double>{223.36});
  const nlohmann::json& meta = run.metadata["nccl_tests"];
  CHECK(meta["bitwise_repeats"] == 4);
  CHECK(meta["bitwise_mismatches"] == "1 FAILED");
  REQUIRE(meta["bitwise_details"].size() == 1);
  CHECK(meta["bitwise_details"][0] ==
        "Bitwise mismatch (in-place): first repeat 2, rank 1, element 4093, bit 0; 64 elements "
        "and 64 bits differ");
  CHECK(meta["per_iter_skip"] == 2);
  CHECK(meta["per_iteration_report"] ==
        "CUDA event timing; i_* uses max over process rows; summary skips first 2 iterations");
}

TEST_CASE("a bitwise check's count with wrong elements names both, cycles sum both") {
  const std::string header =
      "# Collective test starting: all_reduce_perf\n"
      "#  size count type redop root time algbw busbw #wrong #bitdiff time algbw busbw #wrong "
      "#bitdiff\n";
  const std::string row = "1024 256 float sum -1 41.22 0.02 0.04 3 8 40.17 0.03 0.05 0 0\n";
  const Run run = from_nccl_tests_log(header + row + row, "bw.log");
  const Result& r = find_series(
      run, "collectives.all_reduce/bytes:1024/dtype:f32/inplace:0/redop:sum/root:-1@time");
  CHECK(r.status == ResultStatus::error);
  CHECK(r.message ==
        "nccl-tests found 3 wrong elements and 8 bits that differed between "
        "repeated runs (#bitdiff)");
  CHECK(r.samples.size() == 2);
  CHECK(r.extra["wrong"] == 6);
  CHECK(r.extra["bitdiff"] == 16);
  // A count column holds a count: no fraction, nothing negative, nothing past 1e18 (a sum over
  // cycles stays a whole number).
  for (const char* bad : {"7.77778e+111", "-3", "2.5"}) {
    std::string bad_row = row;
    bad_row.replace(bad_row.find(" 3 8 "), 5, std::string(" 3 ") + bad + " ");
    CHECK_THROWS_WITH(from_nccl_tests_log(header + bad_row, "bw.log"),
                      std::string("bw.log: line 3: '") + bad + "' is not a count (#bitdiff)");
  }
  // "#bitdiff" where the per-iteration columns or nothing may follow; anything else is refused.
  CHECK_THROWS_WITH(
      from_nccl_tests_log("#  size count type redop root time algbw busbw #wrong #bitdiff "
                          "extra time algbw busbw #wrong #bitdiff extra\n" +
                              row,
                          "bw.log"),
      Catch::Contains("unexpected nccl-tests header"));
}

TEST_CASE("nccl-tests JSON with the bitwise check and -K: the log's checks and lines") {
  nlohmann::json doc = nlohmann::json::parse(R"({
    "version": 3, "nccl_version": 22804, "args": ["./build/all_reduce_perf"],
    "config": {"nthreads": 1, "ngpus": 1, "minimum_bytes": 1024, "maximum_bytes": 1024,
               "step_factor": 2, "warmup_iters": 5, "iterations": 20,
               "aggregated_iterations": 1, "validation": 1, "bitwise_repeats": 4, "graph": 0,
               "blocking_collectives": "false", "per_iter_timing": "true", "per_iter_skip": 3,
               "parallel_init": "false"},
    "results": [{"size": 1024, "count": 256, "type": "float", "redop": "sum", "root": "    -1",
                 "out_of_place": {"time": 14.3125, "alg_bw": 0.071546, "bus_bw": 0.071546,
                                  "nwrong": 0.0,
                                  "bitwise": {"repeats": 4, "different_elements": 0,
                                              "different_bits": 0, "first_repeat": null,
                                              "first_rank": null, "first_element": null,
                                              "first_bit": null}},
                 "out_of_place_per_iter": {"skipped_iterations": 3, "min_us": 13.312,
                                           "max_us": 17.3248, "avg_us": 14.3125,
                                           "p50_us": 14.1, "p95_us": 16.0, "p99_us": 16.8896,
                                           "stdev_us": 0.4866, "cv_pct": 3.4,
                                           "times_us": [19.0, 18.2, 17.9, 14.1, 13.312]},
                 "in_place": {"time": 14.0208, "alg_bw": 0.073034, "bus_bw": 0.073034,
                              "nwrong": 0.0,
                              "bitwise": {"repeats": 4, "different_elements": 2,
                                          "different_bits": 3, "first_repeat": 1,
                                          "first_rank": 0, "first_element": 17, "first_bit": 4}}}],
    "bitwise_mismatches": {"count": 1, "okay": "false"}})");
  const Run run = from_nccl_tests_json(doc, "bw.json");
  const std::string p = "collectives.all_reduce/bytes:1024/dtype:f32/inplace:";
  const Result& same = find_series(run, p + "0/redop:sum/root:-1@time");
  CHECK(same.status == ResultStatus::ok);
  CHECK(same.extra["bitdiff"] == 0);
  CHECK(same.extra["per_iteration"][0]["min_us"] == 13.312);
  const Result& differed = find_series(run, p + "1/redop:sum/root:-1@busbw");
  CHECK(differed.status == ResultStatus::error);
  CHECK(differed.extra["bitdiff"] == 3);
  CHECK(run.metadata["nccl_tests"]["bitwise_repeats"] == 4);
  CHECK(run.metadata["nccl_tests"]["per_iter_skip"] == 3);
  CHECK(run.metadata["nccl_tests"]["bitwise_mismatches"] == "1 FAILED");
  nlohmann::json bad_footer = doc;
  bad_footer["bitwise_mismatches"]["count"] = "many";
  CHECK_THROWS_WITH(from_nccl_tests_json(bad_footer, "bw.json"),
                    "bw.json: nccl-tests JSON: bitwise_mismatches.count: not a count");
  doc["results"][0]["in_place"]["bitwise"]["different_bits"] = 2.5;
  CHECK_THROWS_WITH(from_nccl_tests_json(doc, "bw.json"),
                    "bw.json: nccl-tests JSON: results[0].in_place.bitwise.different_bits: not a "
                    "count");
}

TEST_CASE("nccl-tests' bandwidth floor (NCCL_TESTS_MIN_BW): the footer's verdict, log and JSON") {
  const auto footer = [](const std::string& average) {
    return from_nccl_tests_log(kOneRowTable + "# Out of bounds values : 0 OK\n" + average + "#\n",
                               "floor.log");
  };
  const Run unchecked = footer("# Avg bus bandwidth    : 0.045 \n");
  CHECK(unchecked.metadata["nccl_tests"]["avg_busbw"] == Approx(0.045));
  CHECK_FALSE(unchecked.metadata["nccl_tests"].contains("min_busbw_check"));
  const Run failed = footer("# Avg bus bandwidth    : 0.045 FAILED\n");
  CHECK(failed.metadata["nccl_tests"]["avg_busbw"] == Approx(0.045));  // not lost to FAILED
  CHECK(failed.metadata["nccl_tests"]["min_busbw_check"] == "FAILED");
  CHECK(footer("# Avg bus bandwidth    : 0.045 OK\n").metadata["nccl_tests"]["min_busbw_check"] ==
        "OK");
  // Several tables in one log (perfgate-collectives --collective all): one that fell short fails
  // the check, whatever the tables after it.
  std::string second_table = "# Collective test starting: all_gather_perf\n" + kOneRowTable;
  second_table.replace(second_table.find("        1024  "), 14, "        2048  ");
  const Run two = footer("# Avg bus bandwidth    : 0.045 FAILED\n" + second_table +
                         "# Avg bus bandwidth    : 0.05 OK\n");
  CHECK(two.metadata["nccl_tests"]["min_busbw_check"] == "FAILED");
  CHECK(two.metadata["nccl_tests"]["avg_busbw"] == Approx(0.05));
  // Each table's own footer, with its operation (the first table's has no starting line).
  const nlohmann::json& runs = two.metadata["nccl_tests"]["runs"];
  REQUIRE(runs.size() == 2);
  CHECK(runs[0]["operation"] == "unknown");
  CHECK(runs[0]["avg_busbw"] == Approx(0.045));
  CHECK(runs[0]["min_busbw_check"] == "FAILED");
  CHECK(runs[1]["operation"] == "all_gather");
  CHECK(runs[1]["avg_busbw"] == Approx(0.05));
  CHECK(runs[1]["min_busbw_check"] == "OK");
  CHECK_FALSE(unchecked.metadata["nccl_tests"]["runs"][0].contains("min_busbw_check"));

  nlohmann::json doc = nlohmann::json::parse(R"({
    "version": 3, "nccl_version": 22803, "args": ["./build/all_reduce_perf"],
    "config": {"nthreads": 1, "ngpus": 1, "minimum_bytes": 1024, "maximum_bytes": 1024,
               "step_factor": 2, "warmup_iters": 5, "iterations": 20,
               "aggregated_iterations": 1, "validation": 1, "graph": 0},
    "results": [{"size": 1024, "count": 256, "type": "float", "redop": "sum", "root": "    -1",
                 "out_of_place": {"time": 41.22, "alg_bw": 0.02, "bus_bw": 0.04, "nwrong": 0.0},
                 "in_place": {"time": 40.17, "alg_bw": 0.03, "bus_bw": 0.05, "nwrong": 0.0}}],
    "average_bus_bandwidth": {"bandwidth": 0.045, "okay": "false"}})");
  const Run json = from_nccl_tests_json(doc, "floor.json");
  CHECK(json.metadata["nccl_tests"]["avg_busbw"] == Approx(0.045));
  CHECK(json.metadata["nccl_tests"]["min_busbw_check"] == "FAILED");
  // One collective a JSON file: one footer, named by the binary of its command line.
  CHECK(json.metadata["nccl_tests"]["runs"] ==
        nlohmann::json::parse(
            R"([{"operation": "all_reduce", "avg_busbw": 0.045, "min_busbw_check": "FAILED"}])"));
  doc["average_bus_bandwidth"]["okay"] = "unchecked";
  CHECK_FALSE(
      from_nccl_tests_json(doc, "floor.json").metadata["nccl_tests"].contains("min_busbw_check"));
  doc["average_bus_bandwidth"]["bandwidth"] = "nan";  // nccl-tests' average over no rows
  CHECK_FALSE(from_nccl_tests_json(doc, "floor.json").metadata["nccl_tests"].contains("avg_busbw"));
  doc["average_bus_bandwidth"] = {{"bandwidth", 0.045}, {"okay", "maybe"}};
  CHECK_THROWS_WITH(from_nccl_tests_json(doc, "floor.json"),
                    "floor.json: nccl-tests JSON: average_bus_bandwidth.okay: neither \"true\", "
                    "\"false\" nor \"unchecked\"");
  doc["average_bus_bandwidth"] = {{"bandwidth", "fast"}};
  CHECK_THROWS_WITH(from_nccl_tests_json(doc, "floor.json"),
                    "floor.json: nccl-tests JSON: average_bus_bandwidth.bandwidth: not a number");
}
