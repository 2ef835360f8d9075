#pragma once
// Where `compare` gets its two sides: a result file given by path, or a run selector on the store.
#include <memory>
#include <string>
#include <vector>

#include "perfgate/baselines/store.hpp"
#include "perfgate/core/model.hpp"

namespace perfgate::cli {

// The store is opened (read-only) only when a side is a selector, so comparing two files
// needs no store at all.
class RunSources {
 public:
  explicit RunSources(std::string db_path) : db_path_(std::move(db_path)) {}
  // A path to an existing file is read as a result document / Google Benchmark JSON; anything
  // else is a run selector. `all`: every run the selector names (pooled baselines), else the
  // newest.
  std::vector<Run> load(const std::string& side, const std::string& source, bool all);
  baselines::Store* store() { return store_.get(); }  // null when only files were read

 private:
  std::string db_path_;
  std::unique_ptr<baselines::Store> store_;
};

}  // namespace perfgate::cli
