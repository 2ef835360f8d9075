#include "perfgate/collectives/nccl_table.hpp"

#include <array>

#include <fmt/format.h>

namespace perfgate::collectives {
namespace {

std::string placement_cells(const PlacementCells& c) {
  // Blank, as nccl-tests leaves the out-of-place cells under -O 0 (its readers, perfgate's
  // included, tell the placement by the column the values stand in).
  if (!c.measured) return std::string(32, ' ');
  // A count as nccl-tests prints it (%6g: 1e+06 and up in exponent form); unchecked, its "N/A"
  // stands one column left of the counts, as nccl-tests' does.
  const std::string wrong =
      c.wrong ? fmt::format("  {:6g}", static_cast<double>(*c.wrong)) : std::string("    N/A");
  return fmt::format("  {}  {}  {}{}", format_time_us(c.time_us), format_table_number(c.algbw, 6),
                     format_table_number(c.busbw, 6), wrong);
}

// One of the header's two column lines (names, then units) in nccl-tests' widths. nccl-tests
// ends both with " %*s", its timestamp column, here empty: a trailing space.
std::string column_line(const std::array<const char*, 13>& w) {
  return fmt::format(
      "# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  "
      "{:>6} \n",
      w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[12]);
}

// -R's line, in the words of nccl-tests' own "# Blocking Enabled:" lines.
std::string registration_line(int registration) {
  if (registration == 1) return "# Registered buffers: ncclCommRegister (-R 1) \n";
  if (registration == 2)
    return "# Registered buffers: symmetric windows, ncclCommWindowRegister (-R 2) \n";
  return "";
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
      "iters: {} validation: {} graph: {}\n",
      h.min_bytes, h.max_bytes, h.steps.header_text(), h.warmup_iters, h.iters, h.agg_iters,
      h.check, h.graph);
  if (h.blocking == 1)
    out += "# Blocking Enabled: wait and barrier after each inner iteration (-m) \n";
  if (h.blocking == 2)
    out += "# Blocking Enabled: wait after each inner iteration (-m), no barrier \n";
  if (h.blocking == 3)
    out +=
        "# Blocking Enabled: wait and barrier after each outer iteration (-n); time excludes "
        "barrier \n";
  out += registration_line(h.registration);
  out += "#\n# Using devices\n";
  for (const RankDescription& r : h.ranks) {
    out += fmt::format("#  Rank {:2d} Group  0 Pid {:6d} on {:>10} device {:2d} [{}] {}\n", r.rank,
                       r.pid, r.host, r.device, r.bus_id, r.name);
  }
  out += "#\n";
  out += fmt::format(
      "# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}           out-of-place                       "
      "in-place          \n",
      "", "", "", "", "");
  const char* time = h.cputime ? "cputime" : "time";
  out += column_line({"size", "count", "type", "redop", "root", time, "algbw", "busbw", "#wrong",
                      time, "algbw", "busbw", "#wrong"});
  out += column_line({"(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)",
                      "(GB/s)", "(GB/s)", ""});
  return out;
}

std::string format_table_row(const TableRow& row) {
  return fmt::format("{:12d}  {:12d}  {:>8}  {:>6}  {:6d}", row.bytes, row.count,
                     type_name(row.dtype), row.redop, row.root) +
         placement_cells(row.out_of_place) + placement_cells(row.in_place) + "\n";
}

std::string format_table_footer(std::size_t wrong_total, double avg_busbw,
                                std::string_view program) {
  return fmt::format("# {:<20} : {} {}\n", "Out of bounds values", wrong_total,
                     wrong_total ? "FAILED" : "OK") +
         fmt::format("# {:<20} : {:g} \n", "Avg bus bandwidth", avg_busbw) + "#\n" +
         fmt::format("# Collective test concluded: {}\n", program);
}

}  // namespace perfgate::collectives
