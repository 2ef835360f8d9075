#include "nccl_version.hpp"

#include <nccl.h>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate::collectives {

int loaded_nccl_version() {
  int version = 0;
  const ncclResult_t r = ncclGetVersion(&version);
  if (r != ncclSuccess) throw ToolError(fmt::format("ncclGetVersion: {}", ncclGetErrorString(r)));
  return version;
}

std::string nccl_version_text(int code) {
  return fmt::format("{}.{}.{}", code / 10000, code / 100 % 100, code % 100);
}

std::optional<std::string> nccl_too_old(int needed) {
  // A feature is named by its release, major.minor, as NCCL's release notes name it.
  const std::string release = fmt::format("{}.{}", needed / 10000, needed / 100 % 100);
  if (NCCL_VERSION_CODE < needed)
    return fmt::format("needs NCCL {} or newer (built against {})", release,
                       nccl_version_text(NCCL_VERSION_CODE));
  const int loaded = loaded_nccl_version();
  if (loaded < needed)
    return fmt::format("needs NCCL {} or newer (this library is {})", release,
                       nccl_version_text(loaded));
  return std::nullopt;
}

}  // namespace perfgate::collectives
