#include "gathered_output.hpp"

#include <vector>

#include "digits.hpp"
#include "launcher_tags.hpp"
#include "text_lines.hpp"

namespace perfgate::baselines {

namespace {

// The line as a terminal shows it: what follows its last carriage return (a counter rewritten in
// place), a carriage return that ends it left out.
std::string_view as_shown(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const std::size_t cr = line.rfind('\r');
  return cr == std::string_view::npos ? line : line.substr(cr + 1);
}

// The dashes above and below a header: clush prints 15, dshbak 16.
bool is_rule(std::string_view line) {
  line = as_shown(line);
  return line.size() >= 15 && line.find_first_not_of('-') == std::string_view::npos;
}

// The nodes a header's middle line names, without clush's count of them (" (3)"); empty when
// the line names none.
std::string_view header_nodes(std::string_view line) {
  line = as_shown(line);
  const std::size_t open = line.rfind(" (");
  if (open != std::string_view::npos && line.back() == ')' &&
      all_digits(line.substr(open + 2, line.size() - open - 3)))
    line = line.substr(0, open);
  return names_hosts(line) ? line : std::string_view{};
}

}  // namespace

std::optional<UnwrappedLog> tag_gathered_blocks(
    std::string_view text, const std::function<bool(std::string_view)>& is_anchor) {
  const std::vector<std::string_view> lines = lines_of(text);
  UnwrappedLog log;
  std::string_view nodes;  // the block's; empty before the first header
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i + 2 < lines.size() && is_rule(lines[i]) && is_rule(lines[i + 2])) {
      if (const std::string_view named = header_nodes(lines[i + 1]); !named.empty()) {
        nodes = named;
        i += 2;
        continue;
      }
    }
    if (nodes.empty()) {
      if (is_anchor(lines[i])) return std::nullopt;
    } else {
      log.text.append(nodes).append(": ");
    }
    log.text.append(lines[i]).push_back('\n');
    log.file_lines.push_back(i + 1);
  }
  if (nodes.empty()) return std::nullopt;
  return log;
}

}  // namespace perfgate::baselines
