#pragma once
// NCCL's two versions: the headers the program was built against and the library it loaded,
// which may be older (the program starts against any NCCL that has the entry points it links).
#include <optional>
#include <string>

namespace perfgate::collectives {

// The loaded library's NCCL_VERSION_CODE (ncclGetVersion).
int loaded_nccl_version();

// "2.26.2": a version code in NCCL's form since 2.9 (major * 10000 + minor * 100 + patch).
std::string nccl_version_text(int code);

// Why a feature that came with NCCL `needed` (a version code) is not at hand: "needs NCCL 2.27
// or newer (built against 2.26.2)" or "... (this library is 2.26.2)"; nullopt when both the
// headers and the loaded library are new enough.
std::optional<std::string> nccl_too_old(int needed);

}  // namespace perfgate::collectives
