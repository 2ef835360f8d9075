#pragma once
// Ingest adapters: files users already have, turned into perfgate runs (no store needed).
// CONTRACT used by `ingest`, `compare old.json new.json` and the collectives round trip.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"

namespace perfgate::baselines {

enum class Format { automatic, perfgate, gbench, nccl_tests };
Format format_from_string(const std::string& s);  // "auto", "perfgate", "gbench", "nccl-tests"

// Reads a perfgate document, a Google Benchmark JSON file or an nccl-tests stdout log (picked by
// content unless `format` says), into one run. Files without a run uuid get a deterministic one
// derived from their content, so ingesting the same file twice is a no-op.
// Throws InputError naming the path and the line/field.
Run read_results_file(const std::filesystem::path& path, Format format = Format::automatic);

// A time given with its zone ("2026-11-20T03:12:44Z", "2026-11-20 04:12:44+01:00") as the store
// records it: UTC, "2026-11-20T03:12:44Z". nullopt when `text` is not one, a time without its
// zone included (which zone nccl-tests' local dates were printed in, a file does not say).
std::optional<std::string> utc_time_from_text(const std::string& text);

}  // namespace perfgate::baselines
