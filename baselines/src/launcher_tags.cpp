#include "launcher_tags.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "digits.hpp"
#include "text_lines.hpp"

namespace perfgate::baselines {

namespace {

// Open MPI's `--timestamp-output` puts ctime's date before the tag: "Mon Dec  7 15:00:43 2026".
// Its length at the start of `line`, 0 when there is none.
std::size_t timestamp_length(std::string_view line) {
  // A: a letter; 9: a digit; _: a digit or the space that pads a day below 10.
  static constexpr std::string_view pattern = "AAA AAA _9 99:99:99 9999";
  if (line.size() < pattern.size()) return 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    const bool fits = pattern[i] == 'A'   ? std::isalpha(c) != 0
                      : pattern[i] == '9' ? std::isdigit(c) != 0
                      : pattern[i] == '_' ? c == ' ' || std::isdigit(c) != 0
                                          : c == static_cast<unsigned char>(pattern[i]);
    if (!fits) return 0;
  }
  return pattern.size();
}

// "<stdout>:", "<stderr>:" or "<stddiag>:" at `at`: the length up to the tag's end, or 0.
std::size_t stream_end(std::string_view line, std::size_t at) {
  static constexpr std::array<std::string_view, 3> streams{"<stdout>:", "<stderr>:", "<stddiag>:"};
  for (const std::string_view stream : streams)
    if (line.substr(at, stream.size()) == stream) return at + stream.size();
  return 0;
}

// "[job,rank]", then "[host:pid]" with tag-detailed, then the stream: "<stdout>:"; all after a
// date with --timestamp-output, which without --tag-output is followed by the stream alone
// (a rank left empty: every rank's lines pass, as in an untagged log).
std::optional<LineTag> open_mpi_tag(std::string_view line) {
  const std::size_t start = timestamp_length(line);
  if (start > 0)
    if (const std::size_t end = stream_end(line, start))
      return LineTag{TagStyle::open_mpi, "", end};
  if (line.size() <= start || line[start] != '[') return std::nullopt;
  const std::size_t close = line.find(']', start);
  if (close == std::string_view::npos) return std::nullopt;
  const std::string_view inside = line.substr(start + 1, close - start - 1);
  const std::size_t comma = inside.rfind(',');
  if (comma == std::string_view::npos || comma == 0 || !all_digits(inside.substr(comma + 1)))
    return std::nullopt;
  std::size_t at = close + 1;
  if (at < line.size() && line[at] == '[') {
    const std::size_t detail_close = line.find(']', at);
    if (detail_close == std::string_view::npos) return std::nullopt;
    at = detail_close + 1;
  }
  if (const std::size_t end = stream_end(line, at))
    return LineTag{TagStyle::open_mpi, std::string(inside.substr(comma + 1)), end};
  return std::nullopt;
}

// "[rank] ".
std::optional<LineTag> mpich_tag(std::string_view line) {
  if (line.empty() || line.front() != '[') return std::nullopt;
  const std::size_t close = line.find("] ");
  if (close == std::string_view::npos || !all_digits(line.substr(1, close - 1)))
    return std::nullopt;
  return LineTag{TagStyle::mpich, std::string(line.substr(1, close - 1)), close + 2};
}

// "rank: ", right-aligned to the widest rank of the step.
std::optional<LineTag> slurm_tag(std::string_view line) {
  const std::size_t first = line.find_first_not_of(' ');
  if (first == std::string_view::npos) return std::nullopt;
  const std::size_t colon = line.find(": ", first);
  if (colon == std::string_view::npos || !all_digits(line.substr(first, colon - first)))
    return std::nullopt;
  return LineTag{TagStyle::slurm, std::string(line.substr(first, colon - first)), colon + 2};
}

// "host: ", as pdsh and clush label each node's lines (pdsh's own "pdsh@login: node3: ssh
// exited" names no host).
std::optional<LineTag> host_tag(std::string_view line) {
  const std::size_t colon = line.find(": ");
  if (colon == std::string_view::npos || !names_hosts(line.substr(0, colon))) return std::nullopt;
  return LineTag{TagStyle::host, std::string(line.substr(0, colon)), colon + 2};
}

}  // namespace

bool names_hosts(std::string_view text) {
  const bool host_characters =
      !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) {
        return std::isalnum(c) != 0 ||
               std::string_view(".-_,[]").find(char(c)) != std::string_view::npos;
      });
  // A name starts with a letter or digit: "[0]: " is no host's.
  return host_characters && std::isalnum(static_cast<unsigned char>(text.front())) != 0 &&
         !all_digits(text);
}

const char* tag_style_name(TagStyle style) {
  switch (style) {
    case TagStyle::open_mpi:
      return "open-mpi";
    case TagStyle::slurm:
      return "slurm";
    case TagStyle::mpich:
      return "mpich";
    case TagStyle::host:
      return "host";
  }
  return "unknown";
}

std::optional<LineTag> read_line_tag(std::string_view line) {
  if (auto tag = open_mpi_tag(line)) return tag;
  if (auto tag = mpich_tag(line)) return tag;
  if (auto tag = slurm_tag(line)) return tag;
  return host_tag(line);
}

std::string_view without_line_tag(std::string_view line) {
  const std::optional<LineTag> tag = read_line_tag(line);
  return tag ? line.substr(tag->length) : line;
}

LogTagging LogTagging::of(std::string_view text,
                          const std::function<bool(std::string_view)>& is_anchor) {
  LogTagging tagging;
  for (const std::string_view line : lines_of(text)) {
    std::optional<LineTag> tag = read_line_tag(line);
    const std::string_view rest = tag ? line.substr(tag->length) : line;
    if (!is_anchor(rest)) continue;
    tagging.space_after_ =
        tag && tag->style == TagStyle::open_mpi && !rest.empty() && rest.front() == ' ';
    tagging.anchor_ = std::move(tag);
    break;
  }
  return tagging;
}

LogTagging::Line LogTagging::untag(std::string_view line) const {
  if (!anchor_) return {line, std::nullopt};
  const std::optional<LineTag> tag = read_line_tag(line);
  if (!tag || tag->style != anchor_->style) return {line, std::nullopt};
  std::string_view rest = line.substr(tag->length);
  if (space_after_ && !rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  if (tag->rank != anchor_->rank) return {rest, tag->rank};
  return {rest, std::nullopt};
}

}  // namespace perfgate::baselines
