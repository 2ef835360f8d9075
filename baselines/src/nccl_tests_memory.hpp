#pragma once
// nccl-tests' -M 1 line, after a table's footer:
//   # GPU memory usage     : Initialization 1.00 GB | User-Allocated 512 MB | Collective 10.0 MB
//     | Total  1.51 GB   (one line)
// (perfgate-collectives prints "Host" for its MPI backend, whose memory is the process's
// resident memory). The amounts carry three significant digits at most, so the bytes read back
// are as close as that.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace perfgate::baselines {

// Whether `line` is such a line.
bool is_memory_usage_line(const std::string& line);

// {"device": "GPU", "parts": "Initialization 1.00 GB | ...", "bytes": {"initialization": ...,
// "user_allocated": ..., "collective": ..., "total": ...}}: each part's name in snake case and
// its amount in bytes. nullopt when a part is not NAME AMOUNT UNIT with UNIT B, KB, MB or GB.
std::optional<nlohmann::json> read_memory_usage(const std::string& line);

}  // namespace perfgate::baselines
