// perfgate_eval: measured false-alarm and miss rates of `compare` and `detect`, next to the
// naive detectors users would otherwise pick (docs/evaluation.md). Prints one table.
//   perfgate_eval            full counts (the figures in docs/evaluation.md)
//   perfgate_eval --quick    reduced counts (ctest)
//   --check                  exit 1 when a target of docs/evaluation.md is missed
#include <cstdio>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "compare_eval.hpp"
#include "detect_eval.hpp"

using namespace perfgate::eval;

namespace {

std::vector<NoiseSpec> noise_grid() {
  std::vector<NoiseSpec> out;
  for (NoiseKind kind : {NoiseKind::lognormal, NoiseKind::bimodal, NoiseKind::outliers})
    for (double cv : {0.005, 0.01, 0.02, 0.05, 0.10}) out.push_back({kind, cv});
  return out;
}

void print_compare(const std::vector<CompareEvalRow>& rows, const CompareEvalConfig& c) {
  fmt::print(
      "compare: {} samples per side, {} series per comparison ({} slowed in A/B), floor {:.1f} %, "
      "alpha {}, {} comparisons per cell\n",
      c.samples, c.series_per_comparison, c.slowed_per_comparison, c.floor * 100, c.alpha,
      c.comparisons);
  fmt::print(
      "| noise | CV | detector | A/A false REGRESSION per 1000 | 1 % | 2 % | 5 % | 10 % | 20 % "
      "|\n");
  fmt::print("|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& r : rows) {
    const std::pair<const char*, const DetectorScore*> detectors[] = {
        {"perfgate", &r.perfgate}, {"median +5 %", &r.threshold}, {"U test p<0.05", &r.u_test}};
    for (const auto& [name, s] : detectors) {
      fmt::print("| {} | {:.1f} % | {} | {:.1f} |", to_string(r.noise.kind), r.noise.cv * 100, name,
                 s->false_per_1000());
      for (std::size_t i = 0; i < kSlowdowns.size(); ++i)
        fmt::print(" {:.1f} % |", 100 * s->detection(i));
      fmt::print("\n");
    }
  }
}

void print_detect(const std::vector<DetectEvalRow>& rows, const DetectEvalConfig& c) {
  fmt::print(
      "\ndetect: {} histories of 100 points per row, 0-3 steps of ±5/10/20 %, 2 % single-point "
      "outliers, hit = within ±{} points\n",
      c.histories, c.tolerance);
  fmt::print(
      "| CV | drift | detector | true | found | precision | recall "
      "|\n|---|---|---|---|---|---|---|\n");
  for (const auto& r : rows) {
    const std::pair<const char*, const DetectScore*> detectors[] = {
        {"perfgate detect", &r.perfgate}, {"jump > 5 %", &r.naive_jump}};
    for (const auto& [name, s] : detectors)
      fmt::print("| {:.1f} % | {:.0f} % | {} | {} | {} | {:.3f} | {:.3f} |\n", r.cv * 100,
                 r.drift * 100, name, s->true_points, s->found, s->precision(), s->recall());
  }
}

// Targets from the issue: see docs/evaluation.md.
int check_targets(const std::vector<CompareEvalRow>& compare,
                  const std::vector<DetectEvalRow>& detect) {
  int missed = 0;
  const auto miss = [&](const std::string& what) {
    std::fprintf(stderr, "target missed: %s\n", what.c_str());
    ++missed;
  };
  for (const auto& r : compare) {
    if (r.perfgate.false_per_1000() > 5)
      miss(fmt::format("A/A {} CV {}: {:.1f} per 1000", to_string(r.noise.kind), r.noise.cv,
                       r.perfgate.false_per_1000()));
    if (r.noise.kind == NoiseKind::lognormal && r.noise.cv == 0.01) {
      if (r.perfgate.detection(2) < 0.95)
        miss(fmt::format("5 % at 1 % CV: {:.3f}", r.perfgate.detection(2)));
      if (r.perfgate.detection(1) < 0.80)
        miss(fmt::format("2 % at 1 % CV: {:.3f}", r.perfgate.detection(1)));
    }
  }
  DetectScore total;
  for (const auto& r : detect) {
    total.true_points += r.perfgate.true_points;
    total.found += r.perfgate.found;
    total.hits += r.perfgate.hits;
  }
  if (total.precision() < 0.9)
    miss(fmt::format("change-point precision {:.3f}", total.precision()));
  if (total.recall() < 0.9) miss(fmt::format("change-point recall {:.3f}", total.recall()));
  return missed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  CompareEvalConfig compare;
  DetectEvalConfig detect;
  bool check = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      compare.comparisons = 20;
      detect.histories = 60;
    } else if (std::strcmp(argv[i], "--check") == 0) {
      check = true;
    } else {
      std::fprintf(stderr, "perfgate_eval: unknown argument '%s' (use --quick, --check)\n",
                   argv[i]);
      return 2;
    }
  }
  const auto compare_rows = run_compare_eval(compare, noise_grid());
  const auto detect_rows = run_detect_eval(detect, {0.005, 0.01, 0.02});
  print_compare(compare_rows, compare);
  print_detect(detect_rows, detect);
  return check ? check_targets(compare_rows, detect_rows) : 0;
}
