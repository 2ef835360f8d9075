// Markdown for a PR comment or $GITHUB_STEP_SUMMARY: the summary first, the rows that need a
// reader's attention next, everything else collapsed, and never more than opts.max_chars.
#include <fmt/format.h>

#include "perfgate/report/report.hpp"
#include "verdict_text.hpp"

namespace perfgate::report {

namespace {

// Escapes HTML, backslash-escapes the characters in `specials`, and keeps the text on one line
// so that it can never break a table row.
std::string md_escape(const std::string& text, std::string_view specials) {
  std::string out;
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (specials.find(c) != std::string_view::npos)
      (out += '\\') += c;
    else
      out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c;
  }
  return out;
}
// Names from code under review: no Markdown of theirs may take effect.
std::string md_text(const std::string& text) {
  return md_escape(text, "\\`*_[]|#~");
}
// perfgate's own wording: only what would break HTML or a table row.
std::string md_plain(const std::string& text) {
  return md_escape(text, "|");
}

const char* kTableHead =
    "| Verdict | Series | Change | Interval | p (adj.) | Tolerance | n (base/cand) |\n"
    "|---|---|---:|---|---:|---:|---:|\n";

std::string table_row(const VerdictRecord& v) {
  const bool loud = v.kind == VerdictKind::regression || v.kind == VerdictKind::failed;
  const std::string verdict(to_string(v.kind));
  return fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n",
                     loud ? "**" + verdict + "**" : verdict, md_text(v.series_id),
                     detail::format_change(v.ratio),
                     detail::format_interval(v.ratio_low, v.ratio_high),
                     detail::format_p(v.p_adjusted ? v.p_adjusted : v.p_value),
                     detail::format_tolerance(v.tolerance), detail::format_counts(v));
}

// A command goes in a code span, which nothing escapes: one holding a backtick or a line break
// (a case name from code under review) is left out rather than allowed to break the comment.
std::string evidence_item(const VerdictRecord& v, const ReportInput& in) {
  std::string item = fmt::format("- {} {}: {}\n", to_string(v.kind), md_text(v.series_id),
                                 md_plain(detail::evidence_sentence(v)));
  if (const auto it = in.rerun_commands.find(v.series_id);
      it != in.rerun_commands.end() && it->second.find_first_of("`\r\n") == std::string::npos)
    item += fmt::format("  Measure again: `{}`\n", it->second);
  return item;
}

std::string join_runs(const std::vector<std::string>& runs) {
  if (runs.empty()) return "(none)";
  std::string out;
  for (const auto& r : runs) out += (out.empty() ? "" : ", ") + md_text(r);
  return out;
}

// Appends pieces while they fit under a budget; remembers how many it had to leave out.
class Budget {
 public:
  Budget(std::string& out, std::size_t limit) : out_(out), limit_(limit) {}
  bool add(const std::string& piece) {
    // Once something did not fit, nothing after it goes in: rows stay contiguous.
    if (full_ || out_.size() + piece.size() > limit_) {
      full_ = true;
      ++left_out_;
      return false;
    }
    out_ += piece;
    return true;
  }
  std::size_t left_out() const { return left_out_; }

 private:
  std::string& out_;
  std::size_t limit_;
  std::size_t left_out_ = 0;
  bool full_ = false;
};

}  // namespace

std::string render_markdown(const ReportInput& in, const MarkdownOptions& opts) {
  const Comparison& c = in.comparison;
  const auto ordered = detail::worst_first(c.verdicts);
  std::vector<const VerdictRecord*> shown, same;
  for (const VerdictRecord* v : ordered)
    (v->kind == VerdictKind::same && !opts.show_same ? same : shown).push_back(v);

  std::string out = fmt::format("## {}: {}\n\n", md_text(in.title), overall_status(c));
  out += "**" + md_plain(summary_line(c)) + "**\n\n";
  out += fmt::format("Candidate run: {}  \nBaseline run(s): {}\n\n", md_text(c.candidate_run),
                     join_runs(c.baseline_runs));
  if (!c.differing_keys.empty())
    out += "> Not comparable: fingerprints differ in " + join_runs(c.differing_keys) + "\n\n";

  // Keep room for the truncation note and the closing pointer.
  const std::string pointer =
      in.full_report_hint.empty() ? "" : "Full report: " + md_text(in.full_report_hint) + "\n";
  const std::size_t reserve = 400 + pointer.size();
  const std::size_t limit = opts.max_chars > reserve ? opts.max_chars - reserve : 0;
  Budget budget(out, limit);

  if (!shown.empty()) {
    budget.add(kTableHead);
    for (const VerdictRecord* v : shown) budget.add(table_row(*v));
    out += "\n";
  } else if (!c.verdicts.empty()) {
    out += "Every series is within its tolerance.\n\n";
  }
  const std::size_t rows_left_out = budget.left_out();

  if (!shown.empty() && rows_left_out == 0) {
    std::string evidence =
        fmt::format("<details><summary>Evidence for {} series</summary>\n\n", shown.size());
    for (const VerdictRecord* v : shown) evidence += evidence_item(*v, in);
    evidence += "\n</details>\n\n";
    budget.add(evidence);
  }
  if (!same.empty()) {
    std::string block =
        fmt::format("<details><summary>{} SAME series</summary>\n\n{}", same.size(), kTableHead);
    for (const VerdictRecord* v : same) block += table_row(*v);
    block += "\n</details>\n\n";
    budget.add(block);
  }
  if (budget.left_out() > 0)
    out += fmt::format(
        "_Truncated to stay under {} characters: {} of {} rows shown; see the "
        "full report._\n\n",
        opts.max_chars, shown.size() - rows_left_out, shown.size());
  out += pointer;
  return out;
}

}  // namespace perfgate::report
