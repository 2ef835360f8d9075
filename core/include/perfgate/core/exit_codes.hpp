#pragma once
// Exit codes of every perfgate program: `perfgate`, perfgate-step-proxy, perfgate-collectives
// (DESIGN.md §4; the "Exit codes" section of docs/concepts.md says which program uses which).
namespace perfgate::exit_code {
inline constexpr int pass = 0;
// Also a failed data check: perfgate-collectives' elements, perfgate-step-proxy's gradient sums.
inline constexpr int regression = 1;
inline constexpr int usage_or_tool_error = 2;
inline constexpr int not_comparable = 3;  // also: insufficient data
// A requested backend's hardware is absent (no CUDA device): nothing was measured, no document.
inline constexpr int no_device = 4;
// An operation hung and was aborted by a watchdog. perfgate-collectives writes a partial document
// naming the case that hung; perfgate-step-proxy writes none (its steps are not separate cases).
inline constexpr int watchdog_timeout = 5;
}  // namespace perfgate::exit_code
