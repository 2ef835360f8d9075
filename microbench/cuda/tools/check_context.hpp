#pragma once
// What every device-check case shares: the stream, the timer, the measured ceilings, the
// case filter and the rows of the output table.
#include <cuda_runtime.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "perfgate/cuda/check.hpp"
#include "perfgate/cuda/gpu_timer.hpp"
#include "perfgate/cuda/nvml_probe.hpp"
#include "perfgate/cuda/traffic_model.hpp"

namespace perfgate::cuda::check {

struct Ceilings {
  double copy_bytes_per_second = 0;  // device-to-device, bytes read + written
  double gemm_flops_per_second = 0;  // bf16 8192^3 through cublasGemmEx
};

enum class Bound { memory, compute };

struct Row {
  Row(std::string family_, std::string variant_, std::string shape_, std::string dtype_,
      std::string mode_ = {}, std::string check_ = {})
      : family(std::move(family_)),
        variant(std::move(variant_)),
        shape(std::move(shape_)),
        dtype(std::move(dtype_)),
        mode(std::move(mode_)),
        check(std::move(check_)) {}
  std::string family, variant, shape, dtype, mode;
  std::string check;  // "ok (err 1.2e-03)", "FAIL (...)", "-" (timing-only row), "skip: why"
  double median_seconds = 0, rate = 0, fraction = 0, cv = 0;
  std::string unit;  // "TFLOP/s" or "GB/s"
  int samples = 0, throttled = 0, batch = 0;
  int power_capped = 0;         // kept samples taken under the power cap
  int slowed = 0;               // kept samples during which NVML counted a thermal slowdown
  bool clocks_checked = false;  // NVML answered after every kept sample
  unsigned sm_clock_min_mhz = 0, sm_clock_max_mhz = 0;
  bool failed = false;
};

struct Options {
  int samples = 10;
  std::string only;  // comma-separated families, or "spread" for the run-to-run subset
  bool quiet = false;
};

class Context {
 public:
  Context(Options options, const cudaDeviceProp& prop, const std::string& pci_bus_id);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  cudaStream_t stream() const { return stream_; }
  GpuTimer& timer() { return *timer_; }
  const NvmlProbe& probe() const { return *probe_; }
  const cudaDeviceProp& prop() const { return prop_; }
  Ceilings& ceilings() { return ceilings_; }
  const Options& options() const { return options_; }
  const std::vector<Row>& rows() const { return rows_; }
  bool spread_only() const { return options_.only == "spread"; }

  // Whether the family runs in this invocation; `in_spread_set` marks the cases rerun in
  // separate processes for the run-to-run spread (timing only, no correctness checks there).
  bool wants(const std::string& family) const;
  bool wants_timing(const std::string& family, bool in_spread_set) const;

  // Times `launch`, fills the row's time, rate and fraction of the matching ceiling, appends it.
  void time_row(Row row, const Launch& launch, Traffic traffic, Bound bound,
                TimingOptions timing = {});
  // A correctness row: error against the bound, or the failure text.
  void check_row(Row row, double error, double bound);
  void add(Row row);
  // Called with all rows so far after each one is added (to keep the output files current, so
  // that a run stopped by a time limit still leaves what it measured).
  void on_row(std::function<void(const std::vector<Row>&)> callback) {
    on_row_ = std::move(callback);
  }

 private:
  Options options_;
  cudaDeviceProp prop_;
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<NvmlProbe> probe_;
  std::unique_ptr<GpuTimer> timer_;
  Ceilings ceilings_;
  std::vector<Row> rows_;
  std::function<void(const std::vector<Row>&)> on_row_;
};

// Runs `body`, turning an exception into a failed or skipped row of this family.
template <class F>
void guarded(Context& ctx, Row row, F&& body) {
  try {
    body();
  } catch (const Unsupported& e) {
    row.mode = "-";
    row.check = std::string("skip: ") + e.what();
    ctx.add(row);
  } catch (const std::exception& e) {
    row.check = std::string("FAIL: ") + e.what();
    row.failed = true;
    ctx.add(row);
  }
}

std::string shape_text(std::initializer_list<std::pair<const char*, std::int64_t>> dims);

// Case groups, one file each.
void measure_ceilings(Context& ctx);
void run_fused_cases(Context& ctx);
void run_gemm_cases(Context& ctx);
void run_attention_cases(Context& ctx);
void run_packed_attention_cases(Context& ctx);  // variable-length batches, cu_seqlens layout

}  // namespace perfgate::cuda::check
