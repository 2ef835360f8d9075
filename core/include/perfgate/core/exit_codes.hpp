#pragma once
// Exit codes of every perfgate command (DESIGN.md §4).
namespace perfgate::exit_code {
inline constexpr int pass = 0;
inline constexpr int regression = 1;
inline constexpr int usage_or_tool_error = 2;
inline constexpr int not_comparable = 3;  // also: insufficient data
}  // namespace perfgate::exit_code
