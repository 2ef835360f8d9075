#include <catch2/catch.hpp>

#include "perfgate/collectives/nccl_table.hpp"

using namespace perfgate::collectives;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t from = 0;
  for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) {
    lines.push_back(text.substr(from, nl - from));
  }
  return lines;
}

}  // namespace

TEST_CASE("the header is nccl-tests' header, character for character") {
  TableHeader h;
  h.program = "all_reduce_perf";
  h.min_bytes = 8;
  h.max_bytes = 8589934592ULL;
  h.warmup_iters = 5;
  h.iters = 20;
  h.ranks = {{0, 6899, "ztan-mig-235z", 0, "0000:04:00", "NVIDIA H100 80GB HBM3"}};
  const std::vector<std::string> lines = lines_of(format_table_header(h));
  REQUIRE(lines.size() == 9);
  CHECK(lines[0] == "# Collective test starting: all_reduce_perf");
  CHECK(lines[1] ==
        "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: "
        "20 agg iters: 1 "
        "validation: 1 graph: 0 unalign: 0");
  h.steps = {1, 1048576};
  h.agg_iters = 4;
  CHECK(lines_of(format_table_header(h))[1] ==
        "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 1048576(bytes) warmup iters: 5 "
        "iters: 20 agg iters: 4 validation: 1 graph: 0 unalign: 0");
  h.unalign = 3;
  CHECK(lines_of(format_table_header(h))[1].ends_with("graph: 0 unalign: 3"));
  h.unalign = 0;
  h.blocking = 1;
  CHECK(lines_of(format_table_header(h))[2] ==
        "# Blocking Enabled: wait and barrier after each inner iteration (-m) ");
  h.blocking = 2;
  CHECK(lines_of(format_table_header(h))[2] ==
        "# Blocking Enabled: wait after each inner iteration (-m), no barrier ");
  h.blocking = 3;
  CHECK(lines_of(format_table_header(h))[2] ==
        "# Blocking Enabled: wait and barrier after each outer iteration (-n); time excludes "
        "barrier ");
  // -R: a line of perfgate's own, after the blocking line; none without -R.
  h.registration = 1;
  const std::vector<std::string> registered = lines_of(format_table_header(h));
  CHECK(registered[3] == "# Registered buffers: ncclCommRegister (-R 1) ");
  CHECK(registered[5] == "# Using devices");
  h.registration = 2;
  CHECK(lines_of(format_table_header(h))[3] ==
        "# Registered buffers: symmetric windows, ncclCommWindowRegister (-R 2) ");
  // -x: another line of perfgate's own, after -R's; none when no policy was set.
  h.cta_policy = 1;
  const std::vector<std::string> policy = lines_of(format_table_header(h));
  CHECK(policy[4] == "# CTA policy: efficiency (-x 1) ");
  CHECK(policy[6] == "# Using devices");
  h.registration = 0;
  h.cta_policy = 0;
  CHECK(lines_of(format_table_header(h))[3] == "# CTA policy: default (-x 0) ");
  h.cta_policy = 2;
  CHECK(lines_of(format_table_header(h))[3] == "# CTA policy: zero (-x 2) ");
  h.cta_policy = -1;
  CHECK(lines_of(format_table_header(h))[4] == "# Using devices");
  CHECK(lines[3] == "# Using devices");
  CHECK(lines[4] ==
        "#  Rank  0 Group  0 Pid   6899 on ztan-mig-235z device  0 [0000:04:00] NVIDIA H100 80GB "
        "HBM3");
  CHECK(lines[6] ==
        "#                                                              out-of-place               "
        "        in-place          ");
  // Two spaces before each #wrong and a trailing space: the newest nccl-tests' header, which
  // ends with its (here empty) timestamp column.
  CHECK(lines[7] ==
        "#       size         count      type   redop    root     time   algbw   busbw  #wrong     "
        "time   algbw   busbw  #wrong ");
  CHECK(lines[8] ==
        "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             "
        "(us)  (GB/s)  (GB/s)         ");
}

TEST_CASE("with -C the time columns are headed cputime, as nccl-tests heads them") {
  TableHeader h;
  h.program = "all_reduce_perf";
  h.cputime = true;
  const std::vector<std::string> lines = lines_of(format_table_header(h));
  REQUIRE(lines.size() == 8);  // no rank lines
  CHECK(lines[6] ==
        "#       size         count      type   redop    root  cputime   algbw   busbw  #wrong  "
        "cputime   algbw   busbw  #wrong ");
}

TEST_CASE("rows are laid out as the newest nccl-tests prints them") {
  // Sizes and times of real nccl-tests rows (all_reduce_perf, 16 H100s), in getFloatStr's form.
  TableRow small{8, 2, DataType::f32, "sum", -1, {135.8, 0.00, 0.00, 0}, {123.5, 0.00, 0.00, 0}};
  CHECK(format_table_row(small) ==
        "           8             2     float     sum      -1   135.80    0.00    0.00       0   "
        "123.50    0.00    0.00       0\n");
  TableRow big{8589934592ULL,
               2147483648ULL,
               DataType::f32,
               "sum",
               -1,
               {47535, 180.71, 338.82, 0},
               {47743, 179.92, 337.35, 0}};
  CHECK(format_table_row(big) ==
        "  8589934592    2147483648     float     sum      -1  47535.0  180.71  338.82       0  "
        "47743.0  179.92  337.35       0\n");
  // Unchecked: nccl-tests' "N/A" one column left of where a count ends.
  TableRow unchecked{
      1024, 256, DataType::bf16, "none", 0, {3.5, 0.29, 0.29, std::nullopt}, {3.5, 0.29, 0.29, 7}};
  CHECK(format_table_row(unchecked) ==
        "        1024           256  bfloat16    none       0     3.50    0.29    0.29    N/A     "
        "3.50    0.29    0.29       7\n");
  // Values past their columns: exponent forms, fewer decimals, a count of a million in %g.
  TableRow wide{1024,
                256,
                DataType::f32,
                "sum",
                -1,
                {1.2e7, 1234.56, 123456.7, 1234567},
                {99999.4, 0.004, 999999.0, 0}};
  CHECK(format_table_row(wide) ==
        "        1024           256     float     sum      -1  1.2e+07  1234.6  123457  1.23457e+06"
        "  99999.4    0.00  999999       0\n");
}

TEST_CASE("under -O 0 the out-of-place cells are blank, as nccl-tests leaves them") {
  TableRow row{1024, 256, DataType::f32, "sum", -1, {}, {40.17, 0.03, 0.05, 0}};
  row.out_of_place.measured = false;
  CHECK(format_table_row(row) == "        1024           256     float     sum      -1" +
                                     std::string(32, ' ') + "    40.17    0.03    0.05       0\n");
}

TEST_CASE("the footer carries the out-of-bounds count and the average bus bandwidth") {
  const std::string ok = format_table_footer(0, 70.742, "all_reduce_perf");
  CHECK(ok.find("# Out of bounds values : 0 OK\n") != std::string::npos);
  CHECK(ok.find("# Avg bus bandwidth    : 70.742 \n") != std::string::npos);
  CHECK(format_table_footer(3, 1, "x").find(": 3 FAILED") != std::string::npos);
}

TEST_CASE("cells keep their width as nccl-tests' getFloatStr keeps it") {
  CHECK(format_time_us(1.234) == "   1.23");
  CHECK(format_time_us(135.83) == " 135.83");
  CHECK(format_time_us(9999.994) == "9999.99");
  CHECK(format_time_us(12646.24) == "12646.2");
  CHECK(format_time_us(123456.7) == " 123457");
  CHECK(format_time_us(9999999.4) == "9999999");
  CHECK(format_time_us(12345678) == "1.2e+07");
  CHECK(format_time_us(0) == "   0.00");
  CHECK(format_table_number(999.994, 6) == "999.99");
  CHECK(format_table_number(1234.56, 6) == "1234.6");
  CHECK(format_table_number(99999.4, 6) == " 99999");
  CHECK(format_table_number(999999.4, 6) == "999999");
  CHECK(format_table_number(1234567, 6) == " 1e+06");  // nccl-tests' %6.0e below width 7
}

TEST_CASE("per-iteration (-I 1) and timestamp (-S 1) headers are the newest nccl-tests' ") {
  TableHeader h;
  h.program = "all_reduce_perf";
  h.per_iteration = true;
  h.iteration_timing = "CUDA event";
  h.timestamps = true;
  const std::vector<std::string> lines = lines_of(format_table_header(h));
  REQUIRE(lines.size() == 9);
  CHECK(lines[2] == "# Per-Iteration Report: CUDA event timing; i_* uses max over process rows ");
  CHECK(lines[6] ==
        "#                                                                 out-of-place (+ "
        "per-iteration)                                in-place (+ per-iteration)");
  CHECK(lines[7] ==
        "#       size         count      type   redop    root     time   algbw   busbw  #wrong    "
        "i_min    i_max    i_p99    i_cv%     time   algbw   busbw  #wrong    i_min    i_max    "
        "i_p99    i_cv%           timestamp");
  CHECK(lines[8] ==
        "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             "
        "(us)     (us)     (us)      (%)     (us)  (GB/s)  (GB/s)             (us)     (us)     "
        "(us)      (%)   %Y-%m-%d %H:%M:%S");
  // -K 3: the report line says how many leading iterations the statistics leave out.
  h.per_iter_skip = 3;
  CHECK(lines_of(format_table_header(h))[2] ==
        "# Per-Iteration Report: CUDA event timing; i_* uses max over process rows; summary "
        "skips first 3 iterations ");
  h.per_iter_skip = 0;
  // -S alone: the timestamp column after the plain groups.
  h.per_iteration = false;
  CHECK(lines_of(format_table_header(h))[6] ==
        "#       size         count      type   redop    root     time   algbw   busbw  #wrong     "
        "time   algbw   busbw  #wrong           timestamp");
}

TEST_CASE("rows carry four per-iteration cells a placement (-I 1) and end in their time (-S 1)") {
  TableRow row{1024, 256, DataType::f32, "sum", -1, {14.31, 0.07, 0.07, 0}, {14.02, 0.07, 0.07, 0}};
  row.out_of_place.iterations =
      IterationTimes{.stats = {.min_us = 13.31, .max_us = 17.32, .p99_us = 16.89, .cv_pct = 3.4}};
  row.in_place.iterations = IterationTimes{
      .stats = {.min_us = 13.04, .max_us = 123456.7, .p99_us = 16.54, .cv_pct = 0.41}};
  row.printed_at = "2026-12-03 14:05:09";
  CHECK(format_table_row(row, true) ==
        "        1024           256     float     sum      -1    14.31    0.07    0.07       0    "
        "13.31    17.32    16.89     3.40    14.02    0.07    0.07       0    13.04   123457    "
        "16.54     0.41  2026-12-03 14:05:09\n");
  // -O 0 with -I 1: the blank out-of-place cells are as wide as the per-iteration group.
  row.out_of_place.measured = false;
  row.printed_at.clear();
  const std::string blank = format_table_row(row, true);
  CHECK(blank.substr(52, 68) == std::string(68, ' '));
  CHECK(blank.substr(120, 9) == "    14.02");
}
