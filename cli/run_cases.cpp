#include "run_cases.hpp"

#include <cstdlib>
#include <system_error>

#include <fmt/format.h>

#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/process.hpp"

namespace perfgate::cli {

std::filesystem::path microbench_runner() {
  if (const char* env = std::getenv("PERFGATE_MICROBENCH"); env && *env) return env;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const auto path = (ec ? std::filesystem::path(".") : self.parent_path()) / "perfgate-microbench";
  if (!std::filesystem::exists(path))
    throw ToolError(fmt::format(
        "run: the measuring program {} is missing (set PERFGATE_MICROBENCH)", path.string()));
  return path;
}

namespace {

Result outcome(const microbench::CaseRequest& request, ResultStatus status, std::string message) {
  Result r;
  r.key = request.key();
  r.status = status;
  r.message = std::move(message);
  return r;
}

}  // namespace

Result run_case_isolated(const MeasuringProgram& program, const microbench::CaseRequest& request,
                         std::chrono::milliseconds limit, const std::filesystem::path& scratch) {
  std::filesystem::remove(scratch);
  const auto t0 = std::chrono::steady_clock::now();
  const auto proc = program.run(
      request.key().name(),
      {"--case-json", microbench::to_json(request).dump(), "--output", scratch.string()}, limit);
  if (proc.timed_out)
    return outcome(request, ResultStatus::timeout,
                   fmt::format("killed after the case time limit of {} s",
                               std::chrono::duration<double>(limit).count()));
  if (proc.signal != 0)
    return outcome(request, ResultStatus::crashed,
                   fmt::format("measuring process ended by {}", proc.describe()));
  if (!proc.ok() || !std::filesystem::exists(scratch))
    return outcome(
        request, ResultStatus::error,
        fmt::format("measuring process failed ({}): {}", proc.describe(), proc.err_tail(500)));
  Run child = read_document_file(scratch);
  std::filesystem::remove(scratch);
  if (child.results.size() != 1)
    return outcome(request, ResultStatus::error, "measuring process wrote no result");
  Result r = std::move(child.results.front());
  // Wall time of the whole child, for the harness-efficiency figure (docs/suites.md).
  r.extra["process_s"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace perfgate::cli
