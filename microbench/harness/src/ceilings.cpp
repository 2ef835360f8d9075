#include "perfgate/microbench/ceilings.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate::microbench {

nlohmann::json to_json(const Ceilings& c) {
  nlohmann::json j = {{"how", c.how}};
  if (c.copy_bytes_per_second) j["copy_gbps"] = *c.copy_bytes_per_second / 1e9;
  if (c.gemm_flops_per_second) j["gemm_tflops"] = *c.gemm_flops_per_second / 1e12;
  return j;
}

namespace {
std::optional<double> positive(const nlohmann::json& j, const char* key, double scale,
                               const std::string& source) {
  if (!j.contains(key)) return std::nullopt;
  const auto& v = j.at(key);
  if (!v.is_number() || !(v.get<double>() > 0))
    throw InputError(fmt::format("{}: ceilings: '{}' must be a positive number", source, key));
  return v.get<double>() * scale;
}
}  // namespace

Ceilings ceilings_from_json(const nlohmann::json& j, const std::string& source) {
  if (!j.is_object()) throw InputError(fmt::format("{}: ceilings: expected an object", source));
  Ceilings c;
  c.copy_bytes_per_second = positive(j, "copy_gbps", 1e9, source);
  c.gemm_flops_per_second = positive(j, "gemm_tflops", 1e12, source);
  if (j.contains("how")) c.how = j.at("how");
  return c;
}

void add_ceiling_fractions(Result& r, const Ceilings& c) {
  if (r.status != ResultStatus::ok || !r.extra.contains("counters")) return;
  nlohmann::json& counters = r.extra["counters"];
  const double gbps = counters.value("gbps", 0.0), tflops = counters.value("tflops", 0.0);
  std::optional<double> copy, gemm;
  if (c.copy_bytes_per_second && gbps > 0) copy = gbps * 1e9 / *c.copy_bytes_per_second;
  if (c.gemm_flops_per_second && tflops > 0) gemm = tflops * 1e12 / *c.gemm_flops_per_second;
  if (copy) counters["copy_fraction"] = *copy;
  if (gemm) counters["gemm_fraction"] = *gemm;
  if (copy && gemm) counters["ceiling_fraction"] = std::max(*copy, *gemm);
}

}  // namespace perfgate::microbench
