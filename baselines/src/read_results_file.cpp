// Picks the adapter for a file (by content unless told) and gives foreign files a uuid
// derived from their bytes, so ingesting the same file twice is a no-op.
#include <array>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "launcher_tags.hpp"
#include "line_timestamps.hpp"
#include "perfgate/baselines/gbench.hpp"
#include "perfgate/baselines/ingest.hpp"
#include "perfgate/baselines/nccl_tests.hpp"
#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/identity.hpp"

namespace perfgate::baselines {

Format format_from_string(const std::string& s) {
  if (s == "auto") return Format::automatic;
  if (s == "perfgate") return Format::perfgate;
  if (s == "gbench") return Format::gbench;
  if (s == "nccl-tests") return Format::nccl_tests;
  throw InputError("unknown format '" + s + "' (expected auto, perfgate, gbench or nccl-tests)");
}

namespace {

// "-" is standard input, as for most tools that read files (`zcat log.gz | perfgate ingest -`).
bool is_standard_input(const std::filesystem::path& path) {
  return path == "-";
}

std::string read_bytes(const std::filesystem::path& path) {
  std::ostringstream out;
  if (is_standard_input(path)) {
    out << std::cin.rdbuf();
    if (std::cin.bad()) throw InputError("standard input: read error");
    return out.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot read (missing or unreadable)");
  out << in.rdbuf();
  if (in.bad()) throw InputError(path.string() + ": read error");
  return out.str();
}

// A compressed file: told by its magic number, read through its compressor's `cat`.
struct Compressor {
  std::string_view magic, name, reader;
};

std::optional<Compressor> compressor_of(std::string_view bytes) {
  static constexpr std::array<Compressor, 3> compressors{{
      {"\x1F\x8B", "gzip", "zcat"},
      {"\x28\xB5\x2F\xFD", "zstd", "zstdcat"},
      {"\xFD"
       "7zXZ",
       "xz", "xzcat"},
  }};
  for (const Compressor& c : compressors)
    if (bytes.substr(0, c.magic.size()) == c.magic) return c;
  return std::nullopt;
}

// A uuid-shaped name for content: two FNV-1a 64 digests (content, and salted content).
std::string content_uuid(const std::string& bytes) {
  const std::string h = fnv1a64_hex(bytes) + fnv1a64_hex("perfgate-ingest:" + bytes);
  return fmt::format("{}-{}-{}-{}-{}", h.substr(0, 8), h.substr(8, 4), h.substr(12, 4),
                     h.substr(16, 4), h.substr(20, 12));
}

// A log whose launcher tagged its lines ("[1,0]<stdout>:#...") starts with '[' too, as does one
// Jenkins stamped ("[2026-12-07T21:58:26.123Z] ").
bool starts_like_json(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || (text[first] != '{' && text[first] != '[')) return false;
  const std::string_view line =
      std::string_view(text).substr(first, text.find('\n', first) - first);
  return !read_line_tag(line) && line_timestamp_length(line) == 0;
}

// A UTF-8 byte order mark, as editors on Windows and GitHub's log downloads begin files with.
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

}  // namespace

Run read_results_file(const std::filesystem::path& path, Format format) {
  const std::string source = is_standard_input(path) ? "standard input" : path.string();
  std::string bytes = read_bytes(path);
  if (const std::optional<Compressor> compressor = compressor_of(bytes))
    throw InputError(source + ": compressed (" + std::string(compressor->name) +
                     "): decompress it first, e.g. " + std::string(compressor->reader) +
                     " FILE | perfgate ingest -");
  // Read without the mark: "{" must open JSON, "# nccl-tests version" the log's first line.
  if (bytes.starts_with(kByteOrderMark)) bytes.erase(0, kByteOrderMark.size());
  if (bytes.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(source + ": empty file");
  if (format == Format::automatic) {
    if (!starts_like_json(bytes)) {
      if (!looks_like_nccl_tests(bytes))
        throw InputError(source +
                         ": not JSON and no nccl-tests table: unrecognised format "
                         "(use --format)");
      format = Format::nccl_tests;
    }
  }
  Run run;
  if (format == Format::nccl_tests && !starts_like_json(bytes)) {
    run = from_nccl_tests_log(bytes, source);
  } else if (format == Format::nccl_tests) {
    run = from_nccl_tests_json(parse_json_text(bytes, source), source);
  } else {
    const nlohmann::json doc = parse_json_text(bytes, source);
    if (format == Format::automatic) {
      if (is_perfgate_document(doc))
        format = Format::perfgate;
      else if (looks_like_gbench(doc))
        format = Format::gbench;
      else if (looks_like_nccl_tests_json(doc))
        format = Format::nccl_tests;
      else
        throw InputError(source +
                         ": JSON, but neither a perfgate document, Google Benchmark output nor "
                         "nccl-tests JSON (no \"perfgate\" block, no \"benchmarks\" array, no "
                         "\"config\" and \"results\")");
    }
    if (format == Format::perfgate) return from_document(doc, source);
    run = format == Format::nccl_tests ? from_nccl_tests_json(doc, source)
                                       : from_gbench_json(doc, source);
  }
  run.uuid = content_uuid(bytes);
  run.labels["source_format"] = format == Format::gbench ? "gbench" : "nccl-tests";
  run.labels["source_file"] = is_standard_input(path) ? "-" : path.filename().string();
  return run;
}

}  // namespace perfgate::baselines
