#pragma once
// The device check's table: Markdown for people, CSV for the run-to-run spread script.
#include <string>
#include <vector>

#include "check_context.hpp"

namespace perfgate::cuda::check {

std::string markdown_table(const std::string& header, const Ceilings& ceilings,
                           const std::vector<Row>& rows);
// family,variant,shape,dtype,mode,check,median_s,rate,unit,fraction,cv,throttled,power_capped,
// clocks_checked,sm_clock_min_mhz,sm_clock_max_mhz,slowed (positions kept: scripts read by column)
std::string csv_table(const std::vector<Row>& rows);

}  // namespace perfgate::cuda::check
