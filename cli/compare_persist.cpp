#include "compare_persist.hpp"

#include <filesystem>

#include <unistd.h>

#include "perfgate/baselines/store.hpp"

namespace perfgate::cli {

bool names_a_file(const std::string& source) {
  std::error_code ec;
  return std::filesystem::is_regular_file(source, ec);
}

std::string save_verdicts_if_writable(const std::string& db_path,
                                      const regress::Comparison& comparison) {
  // SQLite in WAL mode writes next to the file too, so both must be writable; checked before
  // opening so a read-only store is never touched (no -wal or -shm left behind).
  const std::filesystem::path path(db_path);
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
  if (::access(path.c_str(), W_OK) != 0 || ::access(folder.c_str(), W_OK) != 0)
    return "store " + db_path + " is read-only: verdicts not saved";
  auto store = baselines::Store::open(path, baselines::OpenMode::read_write);
  store->save_verdicts(comparison.candidate_run, comparison.verdicts);
  return "";
}

}  // namespace perfgate::cli
