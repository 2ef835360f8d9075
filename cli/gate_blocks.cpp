#include "gate_blocks.hpp"

#include <fmt/format.h>

#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/process.hpp"

namespace perfgate::cli {

BuildUnderTest build_from_flag(const std::string& flag, const std::string& path,
                               const std::filesystem::path& self) {
  const auto absolute = std::filesystem::absolute(path);
  if (!find_program(absolute.string()))
    throw InputError(fmt::format("{}: '{}' is not an executable file", flag, path));
  if (absolute.filename().string().find("perfgate-microbench") != std::string::npos)
    return {self, {{"PERFGATE_MICROBENCH", absolute.string()}}};
  return {absolute, {}};
}

std::vector<std::string> suite_arguments(const SuiteInvocation& how) {
  std::vector<std::string> args{"--suite", how.suite, "--no-store"};
  if (!how.filter.empty()) args.insert(args.end(), {"--filter", how.filter});
  const auto measure = measure_arguments(how.measure);
  args.insert(args.end(), measure.begin(), measure.end());
  args.insert(args.end(), how.extra_args.begin(), how.extra_args.end());
  return args;
}

std::vector<std::string> suite_command(const std::filesystem::path& perfgate,
                                       const SuiteInvocation& how,
                                       const std::filesystem::path& output) {
  std::vector<std::string> argv{perfgate.string(), "run",      "--trigger",
                                "premerge",        "--output", output.string()};
  const auto args = suite_arguments(how);
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

namespace {

Run run_block(const BuildUnderTest& build, const SuiteInvocation& how,
              const std::filesystem::path& output, const std::string& what) {
  ProcessOptions opts;
  opts.extra_env = build.env;
  opts.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(how.timeout);
  opts.capture_stdout = true;
  opts.capture_stderr = true;
  std::filesystem::remove(output);  // a document left by an earlier gate must not pass for this one
  const auto argv = suite_command(build.perfgate, how, output);
  const ProcessResult r = run_process(argv, opts);
  // Exit 1 from `run` can mean "some case failed": the document says which; use it if written.
  if (!std::filesystem::exists(output)) {
    const std::string err = r.err_tail(2000);
    if (!r.timed_out && r.signal == 0 &&
        r.exit_code == exit_code::no_device)  // the GPU is gone: say so, not "tool error"
      throw NoDeviceError(fmt::format("gate: {} ({}): {}", what, build.perfgate.string(), err));
    throw ToolError(fmt::format("gate: {} ({}) {} and wrote no result document {}: {}", what,
                                build.perfgate.string(), r.describe(), output.string(), err));
  }
  return read_document_file(output);
}

}  // namespace

BlockRuns run_interleaved(const std::optional<BuildUnderTest>& baseline,
                          const BuildUnderTest& candidate, const SuiteInvocation& how, int blocks,
                          const std::filesystem::path& dir, int first_block) {
  std::filesystem::create_directories(dir);
  BlockRuns out;
  for (int b = first_block; b < first_block + blocks; ++b) {
    if (baseline)
      out.baseline.push_back(run_block(*baseline, how, dir / fmt::format("baseline-{}.json", b),
                                       fmt::format("baseline block {}", b)));
    out.candidate.push_back(run_block(candidate, how, dir / fmt::format("candidate-{}.json", b),
                                      fmt::format("candidate block {}", b)));
  }
  return out;
}

}  // namespace perfgate::cli
