// perfgate_device_check: every CUDA family's correctness check and a short timing pass on
// the first GPU, printed as one table (and optionally written as Markdown and CSV).
// Exit 0: all checks passed (or no GPU: skipped, with the reason); 1: a check failed; 2: usage.
#include <cuda_runtime.h>
#include <cudnn.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "check_context.hpp"
#include "perfgate/cuda/attention.hpp"
#include "table_output.hpp"

using namespace perfgate::cuda;

namespace {

struct Args {
  check::Options options;
  std::string table_path, csv_path;
  bool probe = false;
};

bool parse(int argc, char** argv, Args& args) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "--probe") {
      args.probe = true;
    } else if (a == "--quiet") {
      args.options.quiet = true;
    } else if ((a == "--table" || a == "--csv" || a == "--only" || a == "--samples") &&
               (v = value())) {
      if (a == "--table") args.table_path = v;
      if (a == "--csv") args.csv_path = v;
      if (a == "--only") args.options.only = v;
      if (a == "--samples") {
        args.options.samples = std::atoi(v);
        if (args.options.samples < 1) {
          std::fprintf(
              stderr, "perfgate_device_check: --samples must be a positive integer, got '%s'\n", v);
          return false;
        }
      }
    } else {
      std::fprintf(stderr,
                   "perfgate_device_check: unknown or incomplete argument '%s'\n"
                   "usage: perfgate_device_check [--probe] [--only f1,f2|spread] [--samples N] "
                   "[--table F.md] "
                   "[--csv F.csv] [--quiet]\n",
                   a.c_str());
      return false;
    }
  }
  return true;
}

// Replaces `path` with `text` whole (written beside it, then renamed): a reader, or a run
// stopped mid-write, never sees half a table.
void write_whole(const std::string& path, const std::string& text) {
  if (path.empty()) return;
  const std::string partial = path + ".partial";
  if (!(std::ofstream(partial) << text) || std::rename(partial.c_str(), path.c_str()) != 0)
    throw perfgate::ToolError("perfgate_device_check: cannot write " + path);
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (!parse(argc, argv, args)) return 2;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    std::printf(
        "perfgate_device_check: skipped: no CUDA device (%s)\n",
        status != cudaSuccess ? cudaGetErrorString(status) : "cudaGetDeviceCount returned 0");
    return 0;
  }
  if (args.probe) {
    std::printf("perfgate_device_check: %d CUDA device(s), cuDNN %s\n", count,
                CudnnSdpa::version().c_str());
    return 0;
  }
  try {
    cudaDeviceProp prop{};
    PERFGATE_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    char bus[32] = {};
    PERFGATE_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
    int driver = 0, runtime = 0;
    PERFGATE_CUDA_CHECK(cudaDriverGetVersion(&driver));
    PERFGATE_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    check::Context ctx(args.options, prop, bus);
    const std::string header =
        std::string(prop.name) + ", sm_" + std::to_string(prop.major) + std::to_string(prop.minor) +
        ", " + std::to_string(prop.multiProcessorCount) + " SMs, " +
        std::to_string(prop.l2CacheSize >> 20) + " MiB L2, driver " + std::to_string(driver) +
        ", runtime " + std::to_string(runtime) + ", cuDNN " + CudnnSdpa::version() + ", NVML: " +
        (ctx.probe().available() ? "SM clock and throttle reasons read after each sample"
                                 : ctx.probe().why());
    if (!args.options.quiet) std::fprintf(stderr, "perfgate_device_check: %s\n", header.c_str());
    auto write_files = [&](const std::vector<check::Row>& rows) {
      write_whole(args.table_path, check::markdown_table(header, ctx.ceilings(), rows));
      write_whole(args.csv_path, check::csv_table(rows));
    };
    ctx.on_row(write_files);
    check::measure_ceilings(ctx);
    check::run_gemm_cases(ctx);
    check::run_fused_cases(ctx);
    check::run_attention_cases(ctx);
    check::run_packed_attention_cases(ctx);

    const std::string table = check::markdown_table(header, ctx.ceilings(), ctx.rows());
    if (!args.options.quiet) std::printf("%s", table.c_str());
    write_files(ctx.rows());
    for (const auto& row : ctx.rows())
      if (row.failed) return 1;
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perfgate_device_check: %s\n", e.what());
    return 1;
  }
}
