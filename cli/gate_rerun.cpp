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
    SuiteInvocation again = how;
    again.filter = microbench::exact_cases_filter({SeriesKey::parse_id(v.series_id).name()});
    std::string command = "perfgate run";
    for (const auto& word : suite_arguments(again)) command += " " + shell_word(word);
    out[v.series_id] = command;
  }
  return out;
}

}  // namespace perfgate::cli
