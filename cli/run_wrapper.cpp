#include "run_wrapper.hpp"

#include <cctype>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"
#include "perfgate/core/process.hpp"

namespace perfgate::cli {

std::vector<std::string> MeasuringProgram::command(const std::string& label,
                                                   const std::vector<std::string>& args) const {
  const std::string name = file_safe(label);
  std::vector<std::string> argv;
  for (std::string word : wrap) {
    for (auto at = word.find("{case}"); at != std::string::npos;
         at = word.find("{case}", at + name.size()))
      word.replace(at, 6, name);
    argv.push_back(std::move(word));
  }
  argv.push_back(runner.string());
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

ProcessResult MeasuringProgram::run(const std::string& label, const std::vector<std::string>& args,
                                    std::chrono::milliseconds limit) const {
  ProcessOptions opts;
  opts.timeout = limit;
  opts.extra_env = {{"PERFGATE_CASE", file_safe(label)}};
  return run_process(command(label, args), opts);
}

std::vector<std::string> parse_wrap(const std::string& text) {
  std::vector<std::string> words;
  const auto space = [&](std::size_t i) {
    return std::isspace(static_cast<unsigned char>(text[i]));
  };
  for (std::size_t i = 0; i < text.size();) {
    if (space(i)) {
      ++i;
      continue;
    }
    std::string word;
    if (const char quote = text[i]; quote == '\'' || quote == '"') {
      for (++i; i < text.size() && text[i] != quote; ++i) {
        if (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == quote || text[i + 1] == '\\'))
          ++i;
        word += text[i];
      }
      if (i == text.size())
        throw InputError(fmt::format("--wrap '{}': a {} quote is not closed", text,
                                     quote == '"' ? "double" : "single"));
      ++i;
    } else {
      for (; i < text.size() && !space(i); ++i) word += text[i];
    }
    words.push_back(std::move(word));
  }
  if (words.empty()) throw InputError("--wrap: empty (give a command, e.g. 'taskset -c 2')");
  const std::string& program = words.front();
  if (!find_program(program))
    throw InputError(fmt::format("--wrap '{}': '{}' is not an executable file{}", text, program,
                                 program.find('/') == std::string::npos ? " on $PATH" : ""));
  return words;
}

std::string file_safe(const std::string& case_name) {
  std::string out = case_name;
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (c == ':')
      c = '=';
    else if (!std::isalnum(u) && c != '.' && c != '_' && c != '=' && c != '-')
      c = '_';
  }
  return out;
}

}  // namespace perfgate::cli
