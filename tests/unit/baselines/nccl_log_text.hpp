#pragma once
// Reading and comparing nccl-tests logs as the launcher tests need: the fixture's text, its
// lines, a run's results as the store keys them, and a text ingested as `perfgate ingest` does.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "perfgate/baselines/ingest.hpp"
#include "perfgate/core/model.hpp"

namespace perfgate::test {

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The results as the store would key them, with their samples and scale.
inline std::vector<std::string> described(const Run& run) {
  std::vector<std::string> out;
  for (const Result& r : run.results) {
    std::string line = r.key.id();
    for (const double s : r.samples) line += " " + std::to_string(s);
    if (r.scale)
      line += " @" + std::to_string(r.scale->nodes) + "x" + std::to_string(r.scale->ranks);
    out.push_back(line);
  }
  return out;
}

// `text` written to a file and read as `perfgate ingest` reads it, format by content.
inline Run ingest_text(const std::string& text, const std::string& name) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary) << text;
  Run run = baselines::read_results_file(path);
  std::filesystem::remove(path);
  return run;
}

}  // namespace perfgate::test
