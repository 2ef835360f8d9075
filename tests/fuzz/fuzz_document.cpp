// libFuzzer target: perfgate result documents and Google Benchmark JSON as text.
#include <cstddef>
#include <cstdint>

#include "parse_one.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  perfgate::fuzz::parse_document_text(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
