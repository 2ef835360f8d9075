#include "gate_rerun.hpp"

#include "perfgate/microbench/plan.hpp"

namespace perfgate::cli {

std::string shell_word(const std::string& word) {
  const bool safe = !word.empty() && word.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_./:=,@%+-") == std::string::npos;
  if (safe) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::map<std::string, std::string> rerun_commands(const regress::Comparison& comparison,
                                                  const SuiteInvocation& how) {
  std::map<std::string, std::string> out;
  for (const auto& v : comparison.verdicts) {
    if (v.kind != VerdictKind::regression && v.kind != VerdictKind::failed) continue;
    std::vector<std::string> words{
        "perfgate",
        "run",
        "--suite",
        how.suite,
        "--no-store",
        "--filter",
        microbench::exact_cases_filter({SeriesKey::parse_id(v.series_id).name()})};
    const auto measure = measure_arguments(how.measure);
    words.insert(words.end(), measure.begin(), measure.end());
    words.insert(words.end(), how.extra_args.begin(), how.extra_args.end());
    std::string command;
    for (const auto& w : words) command += (command.empty() ? "" : " ") + shell_word(w);
    out[v.series_id] = command;
  }
  return out;
}

}  // namespace perfgate::cli
