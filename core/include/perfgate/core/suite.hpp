#pragma once
// Benchmark suites (suites/suites.toml, docs/suites.md): which families, parameter values,
// backends and sampling policy a suite runs, and the comparator settings it is judged with.
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace perfgate {

// The adaptive sampling policy of the measuring harness (one per suite).
struct SamplingPolicy {
  double warmup_s = 0.02;       // untimed runs first (caches, page faults, autotuning)
  double min_sample_s = 2e-4;   // one sample batches enough runs to last this long
  std::size_t min_samples = 7;  // never stop before this many samples ...
  double min_time_s = 0.05;     // ... nor before this much sampled time
  std::size_t max_samples = 300;
  double max_time_s = 2.0;      // time cap per case (sampling only)
  double target_rel_ci = 0.01;  // stop once the median's 95 % interval is this narrow
};

struct SuiteFamily {
  std::string name;
  std::map<std::string, std::vector<std::string>> axes;  // overrides the family's defaults
  std::vector<std::string> impls;                        // empty: every implementation
  // How launches are timed: "hot" (back to back, inputs left in cache by the previous launch)
  // and, for backends that have them (cuda), "cold" (the cache flushed before every launch)
  // and "graph" (hot, replayed from a CUDA graph). Each mode is a series of its own.
  std::vector<std::string> timing{"hot"};
};

struct SuiteTolerance {
  std::string pattern;  // series pattern (core/series_pattern.hpp)
  double floor = 0;     // relative
};

// The [compare] table: what `compare`/`gate` use when judging this suite's runs.
struct SuiteCompare {
  double floor = 0.02;
  double noise_k = 3.0;
  std::vector<SuiteTolerance> tolerances;
};

struct SuiteConfig {
  std::string name, description;
  std::vector<std::string> backends{"cpu"};  // cpu, cuda
  SamplingPolicy sampling;
  double case_timeout_s = 120;  // a case running longer is killed (timeout)
  std::uint64_t seed = 42;      // inputs' RNG seed
  std::vector<SuiteFamily> families;
  SuiteCompare compare;
};

struct SuitesFile {
  int schema = 1;
  std::map<std::string, SuiteConfig> suites;
};

// Parses a suites file. Throws InputError naming file:line and the key, e.g.
// "suites.toml:12: suites.smoke.sampling.min_samples: expected an integer".
SuitesFile load_suites_file(const std::filesystem::path& path);
SuitesFile parse_suites(const std::string& text, const std::string& source);

// The named suite; InputError listing the known suites when it is absent.
const SuiteConfig& find_suite(const SuitesFile& file, const std::string& name,
                              const std::string& source);

}  // namespace perfgate
