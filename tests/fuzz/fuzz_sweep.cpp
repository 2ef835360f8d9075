// libFuzzer target: one of the sweep's readers (PERFGATE_FUZZ_READER, a function of
// parse_sweep.hpp): plan files, a scale point's result document, or srun's verbose log.
#include <cstddef>
#include <cstdint>

#include "parse_sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  perfgate::fuzz::PERFGATE_FUZZ_READER(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
