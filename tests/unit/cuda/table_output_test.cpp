// The device check's table and CSV: the clock columns say what NVML saw, and a row whose
// samples went unchecked says so instead of showing a clock range.
#include <catch2/catch.hpp>

#include "table_output.hpp"

using namespace perfgate::cuda::check;

namespace {

Row timed_row() {
  Row r{"rmsnorm_residual", "fused", "rows=32768 hidden=8192", "bf16", "hot", "-"};
  r.median_seconds = 250e-6;
  r.rate = 4.3e12;
  r.unit = "GB/s";
  r.samples = 10;
  return r;
}

}  // namespace

TEST_CASE("the clock column shows the kept samples' SM clock range and power-capped count") {
  Row r = timed_row();
  r.clocks_checked = true;
  r.sm_clock_min_mhz = 1755;
  r.sm_clock_max_mhz = 1980;
  r.power_capped = 3;
  const std::string table = markdown_table("test GPU", Ceilings{}, {r});
  CHECK_THAT(table, Catch::Contains("| throttled | SM clock (MHz) | correctness |"));
  CHECK_THAT(table, Catch::Contains("| 0 | 1755-1980 (3 capped) | - |"));
  r.slowed = 1;
  CHECK_THAT(markdown_table("test GPU", Ceilings{}, {r}),
             Catch::Contains("| 0 | 1755-1980 (3 capped, 1 slowed) | - |"));
  r.slowed = 0;

  r.sm_clock_max_mhz = 1755;
  r.power_capped = 0;
  CHECK_THAT(markdown_table("test GPU", Ceilings{}, {r}), Catch::Contains("| 0 | 1755 | - |"));
}

TEST_CASE("samples without an NVML reading are marked unchecked, in the table and the CSV") {
  Row r = timed_row();
  CHECK_THAT(markdown_table("test GPU", Ceilings{}, {r}), Catch::Contains("| unchecked |"));
  const std::string csv = csv_table({r});
  // The first twelve columns keep their positions: the spread script reads median_s as $7.
  CHECK(csv.rfind("family,variant,shape,dtype,mode,check,median_s,rate,unit,fraction,cv,"
                  "throttled,power_capped,clocks_checked,sm_clock_min_mhz,sm_clock_max_mhz,"
                  "slowed\n",
                  0) == 0);
  CHECK_THAT(csv, Catch::Contains(",0.00025,4.3e+12,GB/s,0.0000,0.00000,0,0,0,0,0,0\n"));
}
