#pragma once
// Raw samples are stored as one BLOB per result: little-endian IEEE-754 doubles, back to back.
// 8 bytes a sample and one row per result keep ingest fast and the store small.
#include <cstddef>
#include <string>
#include <vector>

namespace perfgate::baselines {

std::string encode_samples(const std::vector<double>& samples);
// Throws ToolError when `bytes` is not a whole number of doubles (a damaged row).
std::vector<double> decode_samples(const void* data, std::size_t bytes);

}  // namespace perfgate::baselines
