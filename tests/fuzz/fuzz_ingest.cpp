// libFuzzer target: one ingest adapter (PERFGATE_FUZZ_FORMAT: gbench or nccl_tests) reading a
// file, as `perfgate ingest --format …` does. Contract: a run, or InputError.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include "perfgate/baselines/ingest.hpp"
#include "perfgate/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("perfgate-fuzz-" + std::to_string(getpid()));
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    perfgate::baselines::read_results_file(file, perfgate::baselines::Format::PERFGATE_FUZZ_FORMAT);
  } catch (const perfgate::InputError&) {
  }
  return 0;
}
