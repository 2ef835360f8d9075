#include <string>

#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/check.hpp"

namespace perfgate::cuda {
namespace {

void validate_offsets(const std::vector<std::int64_t>& cu, std::int64_t batch, std::int64_t longest,
                      const char* name) {
  const std::string what = std::string("packed sequences: ") + name;
  if (std::int64_t(cu.size()) != batch + 1)
    throw InputError(what + " has " + std::to_string(cu.size()) + " offsets; a batch of " +
                     std::to_string(batch) + " needs " + std::to_string(batch + 1));
  if (cu.front() != 0) throw InputError(what + " must start at 0");
  for (std::size_t i = 0; i + 1 < cu.size(); ++i) {
    const std::int64_t length = cu[i + 1] - cu[i];
    if (length < 1 || length > longest)
      throw InputError(what + ": sequence " + std::to_string(i) + " has length " +
                       std::to_string(length) + ", outside 1.." + std::to_string(longest));
  }
}

}  // namespace

void validate(const PackedSequences& packed, AttentionShape s) {
  validate(s);
  validate_offsets(packed.cu_q, s.batch, s.seq_q, "cu_q");
  validate_offsets(packed.cu_kv, s.batch, s.seq_kv, "cu_kv");
}

std::vector<std::int32_t> sequence_lengths(const std::vector<std::int64_t>& cu) {
  std::vector<std::int32_t> lengths;
  for (std::size_t i = 0; i + 1 < cu.size(); ++i)
    lengths.push_back(std::int32_t(cu[i + 1] - cu[i]));
  return lengths;
}

std::vector<std::int64_t> element_offsets(const std::vector<std::int64_t>& cu,
                                          std::int64_t row_elements) {
  std::vector<std::int64_t> offsets;
  for (const std::int64_t rows : cu) offsets.push_back(rows * row_elements);
  return offsets;
}

}  // namespace perfgate::cuda
