#include <filesystem>

#include "perfgate/core/process.hpp"
#include "sweep_cli.hpp"

namespace perfgate::cli {

namespace {

std::string locate(const std::string& name, const std::string& explicit_path,
                   const std::vector<std::string>& dirs, const std::string& build_subdir) {
  namespace fs = std::filesystem;
  if (!explicit_path.empty()) return explicit_path;
  for (const auto& d : dirs)
    if (fs::exists(fs::path(d) / name)) return (fs::path(d) / name).string();
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path candidate = self.parent_path().parent_path() / build_subdir / name;
    if (fs::exists(candidate)) return candidate.string();
  }
  return find_program(name).value_or(name);
}

}  // namespace

scaling::ProgramPaths find_programs(const std::vector<std::string>& bin_dirs,
                                    const std::string& collectives, const std::string& step_proxy) {
  return {locate("perfgate-collectives", collectives, bin_dirs, "microbench/collectives"),
          locate("perfgate-step-proxy", step_proxy, bin_dirs, "scaling/step_proxy")};
}

}  // namespace perfgate::cli
