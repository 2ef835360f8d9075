#pragma once
// nccl-tests' JSON output (-J FILE): one collective's run in the layout nccl-tests writes, so
// that scripts reading nccl-tests' JSON read perfgate-collectives' too (perfgate's own nccl-tests
// JSON reader included).
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perfgate/collectives/nccl_table.hpp"

namespace perfgate::collectives {

struct NcclTestsJsonRun {
  TableHeader header;                // parameters and devices, as the table's header has them
  std::vector<std::string> args;     // the command line
  std::vector<std::string> env;      // the environment entries kept (NAME=value)
  std::optional<long> nccl_version;  // NCCL's version code; none (null) on the MPI backend
  std::string start_time, end_time;  // "2026-12-03 14:05:09", local time
  std::vector<TableRow> rows;
  std::size_t wrong_total = 0;         // the footer's out-of-bounds count
  std::size_t bitwise_mismatches = 0;  // --bitwise-repeats: the placements that differed
  double avg_busbw = 0;
  std::optional<double> min_busbw;  // NCCL_TESTS_MIN_BW, which the average is checked against
};

// Keys in nccl-tests' order, for scripts and eyes that read the file as nccl-tests writes it.
nlohmann::ordered_json nccl_tests_json(const NcclTestsJsonRun& run);

// The first of PATH, PATH.0, PATH.1, ... that does not exist: nccl-tests never overwrites a
// JSON file, so one -J over several runs (or collectives) keeps each.
std::filesystem::path unused_json_path(const std::filesystem::path& path);

}  // namespace perfgate::collectives
