#include "regress_sources.hpp"

#include <filesystem>

#include "perfgate/baselines/ingest.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::cli {

std::vector<Run> RunSources::load(const std::string& side, const std::string& source, bool all) {
  if (source.empty()) throw InputError(side + ": empty run selector");
  std::error_code ec;
  if (std::filesystem::is_regular_file(source, ec)) return {baselines::read_results_file(source)};
  if (!store_) store_ = baselines::Store::open(db_path_, baselines::OpenMode::read_only);
  const std::vector<std::string> uuids = store_->resolve(source);
  if (uuids.empty()) throw InputError(side + ": '" + source + "' names no run in " + db_path_);
  std::vector<Run> runs;
  for (const std::string& uuid : uuids) {
    runs.push_back(store_->load_run(uuid));
    if (!all) break;  // newest first
  }
  return runs;
}

}  // namespace perfgate::cli
