// libFuzzer target: suites files (TOML).
#include <cstddef>
#include <cstdint>

#include "parse_one.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  perfgate::fuzz::parse_suites_text(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
