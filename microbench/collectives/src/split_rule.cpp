#include "perfgate/collectives/split_rule.hpp"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate::collectives {
namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  }
  return true;
}

// A whole number from 0 to INT_MAX in `base` (0: C's rule, 0x hexadecimal, leading 0 octal),
// the whole of `digits`; nullopt otherwise.
std::optional<int> whole_number(std::string_view digits, int base) {
  if (digits.empty() || !std::isxdigit(static_cast<unsigned char>(digits.front())))
    return std::nullopt;
  const std::string text(digits);
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), &end, base);
  if (errno != 0 || end != text.c_str() + text.size() || v > INT_MAX) return std::nullopt;
  return static_cast<int>(v);
}

[[noreturn]] void refuse(const std::string& setting, const std::string& problem) {
  throw InputError(fmt::format("{}: {}", setting, problem));
}

SplitRule read_mask(std::string_view value, const std::string& setting) {
  if (starts_with_nocase(value, "0x")) value.remove_prefix(2);
  const std::optional<int> mask = whole_number(value, 16);
  if (!mask) refuse(setting, "not a rank mask (a hexadecimal number from 0 to 0x7fffffff)");
  return {SplitRule::Op::bit_and, *mask, setting};
}

SplitRule read_operation(std::string_view value, const std::string& setting) {
  struct Spelling {
    std::string_view word, sign;
    SplitRule::Op op;
  };
  static constexpr Spelling spellings[] = {{"AND", "&", SplitRule::Op::bit_and},
                                           {"OR", "|", SplitRule::Op::bit_or},
                                           {"MOD", "%", SplitRule::Op::mod},
                                           {"DIV", "/", SplitRule::Op::div}};
  for (const Spelling& s : spellings) {
    const std::string_view prefix = starts_with_nocase(value, s.word)   ? s.word
                                    : starts_with_nocase(value, s.sign) ? s.sign
                                                                        : std::string_view{};
    if (prefix.empty()) continue;
    std::string_view number = trimmed(value.substr(prefix.size()));
    std::optional<int> v;
    if (starts_with_nocase(number, "0b")) {
      v = whole_number(number.substr(2), 2);
    } else {
      v = whole_number(number, 0);
    }
    if (!v)
      refuse(setting, fmt::format("'{}' is not a whole number from 0 to 2147483647 (decimal, 0x "
                                  "hexadecimal, 0b binary)",
                                  number));
    if (*v == 0 && (s.op == SplitRule::Op::mod || s.op == SplitRule::Op::div))
      refuse(setting, fmt::format("{} by 0 makes no groups", s.word));
    return {s.op, *v, setting};
  }
  refuse(setting,
         "not an operation and a number (AND, OR, MOD or DIV, or &, |, % or /, then "
         "the number, as 'MOD 8')");
}

}  // namespace

int SplitRule::color(int rank) const {
  switch (op) {
    case Op::bit_and:
      return rank & value;
    case Op::bit_or:
      return rank | value;
    case Op::mod:
      return rank % value;
    case Op::div:
      return rank / value;
  }
  return 0;
}

std::optional<SplitRule> read_split_rule(const EnvLookup& env) {
  for (const char* variable : {"NCCL_TESTS_SPLIT_MASK", "NCCL_TESTS_SPLIT"}) {
    const std::optional<std::string> text = env(variable);
    if (!text) continue;
    const std::string_view value = trimmed(*text);
    if (value.empty()) return std::nullopt;  // nccl-tests: colour 0 for all, no split
    const std::string setting = fmt::format("{}={}", variable, value);
    return std::string_view(variable) == "NCCL_TESTS_SPLIT_MASK" ? read_mask(value, setting)
                                                                 : read_operation(value, setting);
  }
  return std::nullopt;
}

std::map<int, int> group_sizes(const SplitRule& rule, int ranks) {
  std::map<int, int> sizes;
  for (int r = 0; r < ranks; ++r) ++sizes[rule.color(r)];
  return sizes;
}

int equal_group_size(const SplitRule& rule, int ranks) {
  const std::map<int, int> sizes = group_sizes(rule, ranks);
  std::string listed;  // the first few groups: a job's thousands would bury the message
  bool equal = true;
  int shown = 0;
  for (const auto& [color, size] : sizes) {
    equal = equal && size == sizes.begin()->second;
    if (shown++ < 6)
      listed += fmt::format("{}{} (group {})", listed.empty() ? "" : ", ", size, color);
  }
  if (shown > 6) listed += ", ...";
  if (!equal)
    refuse(rule.setting,
           fmt::format("splits the {} ranks into groups of unequal size: {} ranks; a table's bus "
                       "bandwidth has one group size",
                       ranks, listed));
  return sizes.begin()->second;
}

}  // namespace perfgate::collectives
