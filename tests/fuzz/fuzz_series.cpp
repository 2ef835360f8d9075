// libFuzzer target: CLI series patterns and series ids ("PATTERN\nSERIES_ID").
#include <cstddef>
#include <cstdint>

#include "parse_one.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  perfgate::fuzz::parse_series_text(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
