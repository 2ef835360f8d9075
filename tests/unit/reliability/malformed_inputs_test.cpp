// Replays every malformed or once-crashing input kept in tests/data/reliability/ through the
// parser it targets. A parser must succeed or throw InputError naming the input; the same
// functions drive the libFuzzer targets (tests/fuzz/parse_one.hpp, tests/fuzz/parse_sweep.hpp).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "../../fuzz/parse_one.hpp"
#include "../../fuzz/parse_sweep.hpp"
#include "perfgate/baselines/ingest.hpp"
#include "perfgate/core/error.hpp"

namespace fs = std::filesystem;
using namespace perfgate;

namespace {

const fs::path kData = fs::path(PERFGATE_TEST_DATA) / "reliability";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// As `perfgate ingest --format nccl-tests` reads a file: a run, or InputError.
void read_nccl_tests_or_refuse(const fs::path& file) {
  try {
    baselines::read_results_file(file, baselines::Format::nccl_tests);
  } catch (const InputError&) {
  }
}

std::vector<fs::path> inputs(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("malformed documents: each is rejected with one message naming the file, or parsed") {
  const auto files = inputs(kData / "malformed/document");
  REQUIRE(files.size() >= 20);
  int rejected = 0;
  for (const auto& file : files) {
    const std::string name = file.filename().string();
    INFO(name);
    const std::string text = slurp(file);
    try {
      const auto doc = parse_json_text(text, name);
      from_document(doc, name);
    } catch (const InputError& e) {
      ++rejected;
      const std::string message = e.what();
      CHECK(message.rfind(name, 0) == 0);              // names the input first
      CHECK(message.find('\n') == std::string::npos);  // one line
      WARN(name << " -> " << message.substr(0, 160));
    }
    CHECK_NOTHROW(fuzz::parse_document_text(text));
  }
  // Everything but the two that are merely unusual (html names, a path-like uuid) is refused.
  CHECK(rejected == static_cast<int>(files.size()) - 2);
}

TEST_CASE("malformed series patterns and ids: rejected with InputError or matched") {
  for (const auto& file : inputs(kData / "malformed/series")) {
    INFO(file.filename().string());
    CHECK_NOTHROW(fuzz::parse_series_text(slurp(file)));
  }
}

TEST_CASE("inputs that once crashed a fuzz target stay fixed") {
  const fs::path dir = kData / "regressions";
  if (!fs::exists(dir)) return;
  for (const auto& file : inputs(dir)) {
    INFO(file.filename().string());
    const std::string name = file.filename().string();
    if (name.rfind("document-", 0) == 0) CHECK_NOTHROW(fuzz::parse_document_text(slurp(file)));
    // Valid JSON with impossible values must be refused, not merely survived.
    if (name.rfind("document-reject_", 0) == 0)
      CHECK_THROWS_AS(from_document(parse_json_text(slurp(file), name), name), InputError);
    if (name.rfind("series-", 0) == 0) CHECK_NOTHROW(fuzz::parse_series_text(slurp(file)));
    if (name.rfind("plan-", 0) == 0) CHECK_NOTHROW(fuzz::parse_plan_file_text(slurp(file)));
    if (name.rfind("point-", 0) == 0) CHECK_NOTHROW(fuzz::read_point_document_text(slurp(file)));
    if (name.rfind("srun-", 0) == 0) CHECK_NOTHROW(fuzz::read_srun_log_text(slurp(file)));
    if (name.rfind("nccl-", 0) == 0) CHECK_NOTHROW(read_nccl_tests_or_refuse(file));
  }
}
