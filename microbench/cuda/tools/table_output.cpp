#include "table_output.hpp"

#include <cstdio>

namespace perfgate::cuda::check {
namespace {

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string time_text(double seconds) {
  if (seconds <= 0) return "";
  if (seconds < 1e-3) return format("%.2f us", seconds * 1e6);
  return format("%.3f ms", seconds * 1e3);
}

std::string rate_text(const Row& r) {
  if (r.rate <= 0) return "";
  return r.unit == "TFLOP/s" ? format("%.1f TFLOP/s", r.rate / 1e12)
                             : format("%.0f GB/s", r.rate / 1e9);
}

// "1755-1980 (3 capped, 1 slowed)"; "unchecked" when NVML did not answer for every sample.
std::string clock_text(const Row& r) {
  if (r.samples == 0) return "";
  if (!r.clocks_checked) return "unchecked";
  std::string text = std::to_string(r.sm_clock_min_mhz);
  if (r.sm_clock_max_mhz != r.sm_clock_min_mhz) text += "-" + std::to_string(r.sm_clock_max_mhz);
  std::string flags;
  if (r.power_capped > 0) flags = std::to_string(r.power_capped) + " capped";
  if (r.slowed > 0) flags += (flags.empty() ? "" : ", ") + std::to_string(r.slowed) + " slowed";
  return flags.empty() ? text : text + " (" + flags + ")";
}

}  // namespace

std::string markdown_table(const std::string& header, const Ceilings& ceilings,
                           const std::vector<Row>& rows) {
  std::string out = "GPU: " + header + "\n";
  out += "Ceilings: copy " + format("%.0f GB/s", ceilings.copy_bytes_per_second / 1e9) +
         " (bytes read + written), " + "bf16 GEMM " +
         format("%.1f TFLOP/s", ceilings.gemm_flops_per_second / 1e12) + "\n\n";
  out +=
      "| family | variant | shape | dtype | mode | time (median) | rate | of ceiling | CV | "
      "throttled | SM clock (MHz) | correctness |\n";
  out += "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Row& r : rows) {
    out += "| " + r.family + " | " + r.variant + " | " + r.shape + " | " + r.dtype + " | " +
           r.mode + " | " + time_text(r.median_seconds) + " | " + rate_text(r) + " | " +
           (r.fraction > 0 ? format("%.1f%%", r.fraction * 100) : std::string()) + " | " +
           (r.samples > 1 ? format("%.2f%%", r.cv * 100) : std::string()) + " | " +
           (r.samples > 0 ? std::to_string(r.throttled) : std::string()) + " | " + clock_text(r) +
           " | " + r.check + " |\n";
  }
  return out;
}

std::string csv_table(const std::vector<Row>& rows) {
  std::string out =
      "family,variant,shape,dtype,mode,check,median_s,rate,unit,fraction,cv,throttled,"
      "power_capped,clocks_checked,sm_clock_min_mhz,sm_clock_max_mhz,slowed\n";
  for (const Row& r : rows) {
    std::string check = r.check;
    for (char& c : check)
      if (c == ',') c = ';';
    out += r.family + "," + r.variant + "," + r.shape + "," + r.dtype + "," + r.mode + "," + check +
           "," + (r.samples > 0 ? format("%.9g", r.median_seconds) : std::string()) + "," +
           format("%.6g", r.rate) + "," + r.unit + "," + format("%.4f", r.fraction) + "," +
           format("%.5f", r.cv) + "," + std::to_string(r.throttled) + "," +
           std::to_string(r.power_capped) + "," + (r.clocks_checked ? "1" : "0") + "," +
           std::to_string(r.sm_clock_min_mhz) + "," + std::to_string(r.sm_clock_max_mhz) + "," +
           std::to_string(r.slowed) + "\n";
  }
  return out;
}

}  // namespace perfgate::cuda::check
