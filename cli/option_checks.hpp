#pragma once
// Range checks for numeric options. CLI11 runs an option's validators before converting its
// text, so CLI::Range alone answers "--blocks abc" with "Value abc not in range 1 to 100";
// these say first whether the text is a number of the option's type at all.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <string>
#include <type_traits>

namespace perfgate::cli {

template <class T>
CLI::Validator number_in(T lo, T hi) {
  static_assert(std::is_arithmetic_v<T>);
  constexpr const char* kind = std::is_integral_v<T> ? "an integer" : "a number";
  return CLI::Validator(
      [lo, hi, kind](std::string& text) -> std::string {
        T value{};
        if (!CLI::detail::lexical_cast(text, value))
          return fmt::format("'{}' is not {}", text, kind);
        if (value < lo || value > hi) return fmt::format("{} is outside {} to {}", text, lo, hi);
        return {};
      },
      fmt::format("{} in [{} - {}]", std::is_integral_v<T> ? "INT" : "FLOAT", lo, hi));
}

}  // namespace perfgate::cli
