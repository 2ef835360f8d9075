// NCCL_TESTS_MIN_BW: the floor's value, nccl-tests' 90 % rule, and the footer's verdict.
#include <catch2/catch.hpp>

#include "perfgate/collectives/min_busbw.hpp"
#include "perfgate/collectives/nccl_table.hpp"
#include "perfgate/collectives/nccl_tests_json.hpp"
#include "perfgate/core/error.hpp"

using namespace perfgate::collectives;

TEST_CASE("NCCL_TESTS_MIN_BW's value is a bandwidth from 0, unset sets no floor") {
  CHECK_FALSE(parse_min_busbw(nullptr).has_value());
  CHECK(parse_min_busbw("150") == 150.0);
  CHECK(parse_min_busbw("42.5") == 42.5);
  CHECK(parse_min_busbw("0") == 0.0);
  for (const char* bad : {"", "fast", "150GB", "-1", "nan", "inf", "1e999", " 150 x"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_min_busbw(bad), perfgate::InputError);
  }
  CHECK_THROWS_WITH(parse_min_busbw("fast"),
                    "NCCL_TESTS_MIN_BW=fast: not a bus bandwidth in GB/s (a number from 0)");
}

TEST_CASE("an average passes from 90 % of the floor, as nccl-tests decides") {
  CHECK(meets_min_busbw(90.0, 100.0));
  CHECK(meets_min_busbw(250.0, 100.0));
  CHECK_FALSE(meets_min_busbw(89.99, 100.0));
  CHECK(meets_min_busbw(0.0, 0.0));
  CHECK(min_busbw_verdict(89.99, 100.0) == "FAILED");
  CHECK(min_busbw_verdict(95.0, 100.0) == "OK");
  CHECK(min_busbw_verdict(95.0, std::nullopt).empty());
}

TEST_CASE("under a floor the footer's average ends with OK or FAILED") {
  CHECK(format_table_footer(0, 142.565, "all_reduce_perf", 150.0)
            .find("# Avg bus bandwidth    : 142.565 OK\n") != std::string::npos);
  CHECK(format_table_footer(0, 120.5, "all_reduce_perf", 150.0)
            .find("# Avg bus bandwidth    : 120.5 FAILED\n") != std::string::npos);
  CHECK(
      format_table_footer(0, 120.5, "all_reduce_perf").find("# Avg bus bandwidth    : 120.5 \n") !=
      std::string::npos);
}

TEST_CASE("the JSON footer's okay is the floor's verdict, or unchecked without one") {
  NcclTestsJsonRun run;
  run.header.program = "all_reduce_perf";
  run.avg_busbw = 120.5;
  CHECK(nccl_tests_json(run)["average_bus_bandwidth"]["okay"] == "unchecked");
  run.min_busbw = 150.0;
  CHECK(nccl_tests_json(run)["average_bus_bandwidth"]["okay"] == "false");
  run.min_busbw = 130.0;
  CHECK(nccl_tests_json(run)["average_bus_bandwidth"]["okay"] == "true");
  CHECK(nccl_tests_json(run)["average_bus_bandwidth"]["bandwidth"] == 120.5);
}
