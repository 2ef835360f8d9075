#pragma once
// The versioned result document (core/schema/result-v1.json): Google Benchmark compatible
// ("context" + "benchmarks") plus perfgate's own "perfgate" block.
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "perfgate/core/model.hpp"

namespace perfgate {

inline constexpr int kDocumentSchemaVersion = 1;

nlohmann::json to_document(const Run& run);

// Parses a perfgate result document. `source` names the input in error messages
// (a path, or "<stdin>"). Throws InputError naming the field, e.g.
// "run.json: perfgate.results[2].status: unknown status 'fine'".
Run from_document(const nlohmann::json& doc, const std::string& source);

// True when `doc` carries a perfgate block (as opposed to plain Google Benchmark JSON).
bool is_perfgate_document(const nlohmann::json& doc);

// Reads and parses a JSON file; accepts the bare NaN/Infinity/-Infinity that Google Benchmark
// writes. Throws InputError naming the path (missing, unreadable, not JSON with line/column).
nlohmann::json read_json_file(const std::filesystem::path& path);
nlohmann::json parse_json_text(const std::string& text, const std::string& source);

// Writes atomically (temporary file in the same folder, fsync, rename): a reader never sees
// half a file. Throws ToolError naming the path.
void write_text_file_atomic(const std::filesystem::path& path, const std::string& text);
// The document indented by 2, as write_text_file_atomic writes.
void write_json_file_atomic(const std::filesystem::path& path, const nlohmann::json& doc);

Run read_document_file(const std::filesystem::path& path);
void write_document_file(const std::filesystem::path& path, const Run& run);

}  // namespace perfgate
