#include "perfgate/collectives/nccl_table.hpp"

#include <vector>

#include <fmt/format.h>

#include "perfgate/collectives/bitwise_check.hpp"
#include "perfgate/collectives/min_busbw.hpp"

namespace perfgate::collectives {
namespace {

// The characters of one placement's cells: time, algbw, busbw and #wrong, then #bitdiff and the
// four per-iteration cells when the table has them.
constexpr std::size_t kPlacementWidth = 32, kBitwiseWidth = 10, kPerIterationWidth = 36;

std::string placement_cells(const PlacementCells& c, bool per_iteration, bool bitwise) {
  // Blank, as nccl-tests leaves the out-of-place cells under -O 0 (its readers, perfgate's
  // included, tell the placement by the column the values stand in).
  if (!c.measured)
    return std::string(
        kPlacementWidth + (bitwise ? kBitwiseWidth : 0) + (per_iteration ? kPerIterationWidth : 0),
        ' ');
  // A count as nccl-tests prints it (%6g: 1e+06 and up in exponent form); unchecked, its "N/A"
  // stands one column left of the counts, as nccl-tests' does.
  const std::string wrong =
      c.wrong ? fmt::format("  {:6g}", static_cast<double>(*c.wrong)) : std::string("    N/A");
  std::string out =
      fmt::format("  {}  {}  {}{}", format_time_us(c.time_us), format_table_number(c.algbw, 6),
                  format_table_number(c.busbw, 6), wrong);
  if (bitwise)  // nccl-tests' %8g; "N/A" where the output was not compared
    out += c.bitwise ? fmt::format("  {:8g}", static_cast<double>(c.bitwise->bits)) : "       N/A";
  if (per_iteration) {
    const IterationStats s = c.iterations ? c.iterations->stats : IterationStats{};
    for (double value : {s.min_us, s.max_us, s.p99_us, s.cv_pct})
      out += "  " + format_table_number(value, 7);
  }
  return out;
}

struct Column {
  const char* name;
  const char* unit;
  int width;
};

// The header's two column lines (names, then units) in nccl-tests' widths: the five leading
// columns, each placement's, and the timestamp column (19 wide, or empty: nccl-tests then still
// ends the line with a space).
std::string column_lines(const TableHeader& h) {
  const char* time = h.cputime ? "cputime" : "time";
  std::vector<Column> columns{{"size", "(B)", 10},
                              {"count", "(elements)", 12},
                              {"type", "", 8},
                              {"redop", "", 6},
                              {"root", "", 6}};
  for (int placement = 0; placement < 2; ++placement) {
    columns.insert(
        columns.end(),
        {{time, "(us)", 7}, {"algbw", "(GB/s)", 6}, {"busbw", "(GB/s)", 6}, {"#wrong", "", 6}});
    if (h.bitwise_repeats > 0) columns.push_back({"#bitdiff", "", 8});
    if (h.per_iteration)
      columns.insert(
          columns.end(),
          {{"i_min", "(us)", 7}, {"i_max", "(us)", 7}, {"i_p99", "(us)", 7}, {"i_cv%", "(%)", 7}});
  }
  std::string names = "#", units = "#";
  for (const Column& c : columns) {
    const char* gap = names.size() == 1 ? " " : "  ";
    names += fmt::format("{}{:>{}}", gap, c.name, c.width);
    units += fmt::format("{}{:>{}}", gap, c.unit, c.width);
  }
  const int stamp = h.timestamps ? 19 : 0;
  names += fmt::format(" {:>{}}\n", h.timestamps ? "timestamp" : "", stamp);
  units += fmt::format(" {:>{}}\n", h.timestamps ? "%Y-%m-%d %H:%M:%S" : "", stamp);
  return names + units;
}

// -R's line, in the words of nccl-tests' own "# Blocking Enabled:" lines.
std::string registration_line(int registration) {
  if (registration == 1) return "# Registered buffers: ncclCommRegister (-R 1) \n";
  if (registration == 2)
    return "# Registered buffers: symmetric windows, ncclCommWindowRegister (-R 2) \n";
  return "";
}

// -x's line, of the same form: "# CTA policy: efficiency (-x 1) ".
std::string cta_policy_line(int policy) {
  static constexpr const char* kNames[] = {"default", "efficiency", "zero"};
  if (policy < 0 || policy > 2) return "";
  return fmt::format("# CTA policy: {} (-x {}) \n", kNames[policy], policy);
}

}  // namespace

std::string format_table_number(double value, int width) {
  int digits = 0;  // before the decimal point; 0 below 1
  for (double bound = 1; value >= bound && digits <= width + 1; bound *= 10) ++digits;
  if (digits < width - 2) return fmt::format("{:{}.2f}", value, width);
  if (digits < width - 1) return fmt::format("{:{}.1f}", value, width);
  if (digits < width + 1) return fmt::format("{:{}.0f}", value, width);
  return width >= 7 ? fmt::format("{:{}.1e}", value, width) : fmt::format("{:{}.0e}", value, width);
}

std::string format_time_us(double us) {
  return format_table_number(us, 7);
}

std::string format_table_header(const TableHeader& h) {
  std::string out;
  out += fmt::format("# Collective test starting: {}\n", h.program);
  out += fmt::format(
      "# nThread 1 nGpus 1 minBytes {} maxBytes {} step: {} warmup iters: {} iters: {} agg "
      "iters: {} validation: {} graph: {} unalign: {}\n",
      h.min_bytes, h.max_bytes, h.steps.header_text(), h.warmup_iters, h.iters, h.agg_iters,
      h.check, h.graph, h.unalign);
  if (h.blocking == 1)
    out += "# Blocking Enabled: wait and barrier after each inner iteration (-m) \n";
  if (h.blocking == 2)
    out += "# Blocking Enabled: wait after each inner iteration (-m), no barrier \n";
  if (h.blocking == 3)
    out +=
        "# Blocking Enabled: wait and barrier after each outer iteration (-n); time excludes "
        "barrier \n";
  out += registration_line(h.registration);
  out += cta_policy_line(h.cta_policy);
  if (h.per_iteration)
    out += fmt::format("# Per-Iteration Report: {} timing; i_* uses max over process rows{} \n",
                       h.iteration_timing,
                       h.per_iter_skip > 0
                           ? fmt::format("; summary skips first {} iterations", h.per_iter_skip)
                           : "");
  if (h.bitwise_repeats > 0) out += bitwise_header_line(h.bitwise_repeats);
  out += "#\n# Using devices\n";
  for (const RankDescription& r : h.ranks) {
    out += fmt::format("#  Rank {:2d} Group {:2d} Pid {:6d} on {:>10} device {:2d} [{}] {}\n",
                       r.rank, r.group, r.pid, r.host, r.device, r.bus_id, r.name);
  }
  out += "#\n";
  out += fmt::format("# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}", "", "", "", "", "");
  // nccl-tests' four titles of the placement groups.
  const bool bitwise = h.bitwise_repeats > 0;
  if (h.per_iteration && bitwise)
    out +=
        "                   out-of-place (+ bitwise + per-iteration)                             "
        "         in-place (+ bitwise + per-iteration)\n";
  else if (h.per_iteration)
    out +=
        "              out-of-place (+ per-iteration)                                in-place (+ "
        "per-iteration)\n";
  else if (bitwise)
    out +=
        "               out-of-place + bitwise                           in-place + bitwise      "
        "    \n";
  else
    out += "           out-of-place                       in-place          \n";
  out += column_lines(h);
  return out;
}

std::string format_table_row(const TableRow& row, bool per_iteration, bool bitwise) {
  std::string out = fmt::format("{:12d}  {:12d}  {:>8}  {:>6}  {:6d}", row.bytes, row.count,
                                type_name(row.dtype), row.redop, row.root) +
                    placement_cells(row.out_of_place, per_iteration, bitwise) +
                    placement_cells(row.in_place, per_iteration, bitwise);
  if (!row.printed_at.empty()) out += fmt::format("{:>21}", row.printed_at);
  return out + "\n";
}

std::string format_table_footer(std::size_t wrong_total, double avg_busbw, std::string_view program,
                                std::optional<double> min_busbw,
                                std::optional<std::size_t> bitwise_mismatches) {
  return fmt::format("# {:<20} : {} {}\n", "Out of bounds values", wrong_total,
                     wrong_total ? "FAILED" : "OK") +
         (bitwise_mismatches ? bitwise_footer_line(*bitwise_mismatches) : "") +
         fmt::format("# {:<20} : {:g} {}\n", "Avg bus bandwidth", avg_busbw,
                     min_busbw_verdict(avg_busbw, min_busbw)) +
         "#\n" + fmt::format("# Collective test concluded: {}\n", program);
}

}  // namespace perfgate::collectives
