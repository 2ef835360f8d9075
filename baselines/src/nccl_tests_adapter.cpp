// nccl-tests stdout → Run. The table layout is read from its own header line, so logs with
// and without the "root" column, with "#wrong" or the older "error" column, and with the newest
// nccl-tests' bitwise-check, per-iteration and timestamp columns, all parse.
// Series are named as perfgate-collectives names them (docs/collectives.md), so that a log and a
// perfgate-collectives document of the same case share ids and `perfgate compare` lines them up.
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string_view>

#include "digits.hpp"
#include "gathered_output.hpp"
#include "launcher_tags.hpp"
#include "line_timestamps.hpp"
#include "nccl_tests_counts.hpp"
#include "nccl_tests_memory.hpp"
#include "nccl_tests_ranks.hpp"
#include "open_mpi_xml.hpp"
#include "perfgate/baselines/ingest.hpp"
#include "perfgate/baselines/nccl_tests.hpp"
#include "perfgate/core/bounded_regex.hpp"
#include "perfgate/core/bus_bandwidth.hpp"
#include "perfgate/core/csv_rows.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::baselines {

namespace {

std::vector<std::string> tokens(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

// Where each word of `line` ends (the column after its last character).
std::vector<std::size_t> word_ends(const std::string& line) {
  std::vector<std::size_t> ends;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const bool in_word = !std::isspace(static_cast<unsigned char>(line[i]));
    const bool last = i + 1 == line.size() || std::isspace(static_cast<unsigned char>(line[i + 1]));
    if (in_word && last) ends.push_back(i + 1);
  }
  return ends;
}

bool is_header(const std::vector<std::string>& t) {
  return t.size() > 4 && t[0] == "#" && t[1] == "size" && t[2] == "count" &&
         std::find(t.begin(), t.end(), "busbw") != t.end();
}

bool is_header_text(std::string_view text) {
  return is_header(tokens(std::string(text)));
}

// The header, also where a launcher tagged the line with its rank (mpirun --tag-output).
// Also behind the time a CI system stamped it with.
bool is_header_line(std::string_view line) {
  line.remove_prefix(line_timestamp_length(line));
  return is_header_text(without_line_tag(line));
}

std::optional<double> parse_number(const std::string& s) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;  // "N/A" and the like
}

// nccl-tests' type column → the dtype spelling of perfgate series (f32, bf16, ...); a name not
// listed here is kept as printed.
std::string series_dtype(const std::string& nccl_type) {
  static const std::map<std::string, std::string> names{
      {"float", "f32"}, {"half", "f16"},   {"bfloat16", "bf16"}, {"double", "f64"},
      {"int8", "i8"},   {"uint8", "u8"},   {"int32", "i32"},     {"uint32", "u32"},
      {"int64", "i64"}, {"uint64", "u64"}, {"f8e4m3", "f8e4m3"}, {"f8e5m2", "f8e5m2"}};
  const auto it = names.find(nccl_type);
  return it == names.end() ? nccl_type : it->second;
}

// What a collective does with redop and root. Older nccl-tests print "sum" as the redop of
// ops that do not reduce, and have no root column; the series use "none" and -1 for those.
struct OpTraits {
  bool reduces, has_root;
};

std::optional<OpTraits> traits_of(const std::string& op) {
  static const std::map<std::string, OpTraits> known{
      {"all_reduce", {true, false}}, {"reduce_scatter", {true, false}},
      {"reduce", {true, true}},      {"all_gather", {false, false}},
      {"alltoall", {false, false}},  {"sendrecv", {false, false}},
      {"hypercube", {false, false}}, {"broadcast", {false, true}},
      {"gather", {false, true}},     {"scatter", {false, true}}};
  const auto it = known.find(op);
  if (it == known.end()) return std::nullopt;
  return it->second;
}

// The leading columns of a row as series params: size → bytes, type → dtype, redop and root as
// above; "count" is not part of the case (it follows from bytes and dtype).
Params case_params(const std::string& op, const std::vector<std::string>& columns,
                   const std::vector<std::string>& t) {
  Params params;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const std::string& name = columns[c];
    if (name == "count") continue;
    if (name == "size")
      params["bytes"] = t[c];
    else if (name == "type")
      params["dtype"] = series_dtype(t[c]);
    else
      params[name] = t[c];
  }
  if (const auto traits = traits_of(op)) {
    if (!traits->reduces) params["redop"] = "none";
    if (!traits->has_root) params["root"] = "-1";
  }
  return params;
}

// The newest nccl-tests' per-iteration report adds four columns to each placement's group (its
// iterations' minimum, maximum and 99th percentile, µs, and their coefficient of variation, %).
constexpr std::pair<const char*, const char*> kPerIterationColumns[] = {
    {"i_min", "min_us"}, {"i_max", "max_us"}, {"i_p99", "p99_us"}, {"i_cv%", "cv_pct"}};

struct Layout {
  std::vector<std::string> leading;  // size, count, type, redop[, root]
  std::size_t groups = 1;            // placements per full row: 2 (out-of-place, in-place) or 1
  // Words per placement: time, algbw, busbw, #wrong|error, then #bitdiff and the per-iteration
  // columns when the header names them.
  std::size_t group_width = 4;
  // The newest nccl-tests' bitwise repeatability check: "#bitdiff", after "#wrong", counts the
  // bits of the output that differed between repeated runs of the same operation on the same
  // inputs (a reduction whose order varies, or a fault).
  bool bitwise = false;
  // nccl-tests' -S 1 (report_timestamps) ends the header with "timestamp" and each row with the
  // date and the clock time it was printed at.
  bool timestamp = false;
  // "time", or "cputime" when nccl-tests' -C put the host's launch time in those columns (the
  // bandwidth columns still come from the operation's time).
  std::string time_metric = "time";
  // Where the header's time words end, one per placement printed: a row with one group of
  // values belongs to the placement whose column it stands in.
  std::vector<std::size_t> time_ends;
  // New nccl-tests count wrong elements ("#wrong"); old ones print a max error ("error",
  // e.g. 2e-07). Only a wrong count marks a result as failed.
  bool wrong_count = true;

  std::size_t first_per_iteration() const { return bitwise ? 5 : 4; }
  bool per_iteration() const { return group_width > first_per_iteration(); }
  std::size_t values(std::size_t placements) const {
    return leading.size() + placements * group_width + (timestamp ? 2 : 0);
  }
};

class LogParser {
 public:
  // `file_lines`: the file's line of each line of the text, where the text was unwrapped from it;
  // `gathered`: the text's host tags were made from dshbak's or clush -b's block headers.
  explicit LogParser(const std::string& source,
                     const std::vector<std::size_t>* file_lines = nullptr, bool gathered = false)
      : source_(source), file_lines_(file_lines), gathered_(gathered) {}

  Run parse(const std::string& text) {
    const LogTagging tagging = LogTagging::of(text, is_header_text);
    if (const auto& tag = tagging.anchor()) {
      nlohmann::json& tags = run_.metadata["nccl_tests"]["launcher_tags"];
      tags = {{"style", tag_style_name(tag->style)}};
      if (!tag->rank.empty()) tags[tag->style == TagStyle::host ? "host" : "rank"] = tag->rank;
    }
    std::istringstream in(text);
    std::string line;
    for (std::size_t index = 0; std::getline(in, line); ++index) {
      line_no_ =
          file_lines_ != nullptr && index < file_lines_->size() ? (*file_lines_)[index] : index + 1;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      const LogTagging::Line untagged = tagging.untag(line);
      if (!untagged.other_rank) {
        line.erase(0, line.size() - untagged.text.size());  // the tag: the text is its tail
        read_line(line);
      } else if (is_header_text(untagged.text)) {
        fail_second_table(tagging.anchor()->style, tagging.anchor()->rank, *untagged.other_rank);
      }
    }
    if (!layout_)
      throw InputError(source_ +
                       ": no nccl-tests result table (no '# size count type ...' header)");
    if (run_.results.empty()) throw InputError(source_ + ": the nccl-tests table has no rows");
    finish_split();
    finish_fingerprint();
    return std::move(run_);
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(source_ + ": line " + std::to_string(line_no_) + ": " + problem);
  }

  // A table printed by another rank than the first table's, or by another host.
  [[noreturn]] void fail_second_table(TagStyle style, const std::string& first,
                                      const std::string& second) const {
    if (style == TagStyle::host)
      fail("host " + second + " printed an nccl-tests table of its own beside " + first +
           "'s: each host ran its own test (pdsh, clush) and a log ingests as one run; " +
           (gathered_ ? "ingest each host's block, the lines under its header, as a file of its "
                        "own"
                      : "split it per host (dshbak -d DIR) and ingest each host's file"));
    fail("rank " + second + " printed an nccl-tests table of its own beside rank " + first +
         "'s: " + kSeparateTestsHint);
  }

  void read_line(const std::string& line) {
    static const std::regex op_re(R"(([A-Za-z0-9]+(?:_[A-Za-z0-9]+)*)_perf\b)");
    std::smatch m;
    const auto t = tokens(line);
    if (line.rfind("# Collective test starting:", 0) == 0) {
      listings_.start_run();
      op_ = t.size() > 4 ? strip_perf(t[4]) : "unknown";
    } else if (line.rfind("# nccl-tests version", 0) == 0) {
      run_.fingerprint.info["nccl_tests.version"] = t.size() > 3 ? t[3] : "";
      for (const auto& tok : t)
        if (tok.rfind("nccl-library=", 0) == 0) library_code_ = tok.substr(13);
    } else if (line.rfind("NCCL version ", 0) == 0 && t.size() >= 3) {
      run_.fingerprint.info["nccl.banner"] = t[2];
    } else if (line.rfind("# nThread", 0) == 0) {
      listings_.start_run();
      run_.metadata["nccl_tests"]["parameters"] = line.substr(2);
      read_launch(line);
    } else if (line.rfind("# Blocking Enabled:", 0) == 0) {
      read_blocking(line);
    } else if (line.rfind("# Registered buffers:", 0) == 0) {
      registration_ = read_option_value(line, "Registered buffers", 'R');
    } else if (line.rfind("# CTA policy:", 0) == 0) {
      cta_policy_ = read_option_value(line, "CTA policy", 'x');
    } else if (std::optional<RankLine> rank = read_rank_line(line, line_no_)) {
      check(listings_.add(std::move(*rank)));
    } else if (line.rfind("# Avg bus bandwidth", 0) == 0) {
      read_avg_busbw(line);
    } else if (is_memory_usage_line(line)) {  // -M 1, after each table
      std::optional<nlohmann::json> usage = read_memory_usage(line);
      if (!usage)
        fail(
            "a memory usage line whose parts are not NAME AMOUNT UNIT (B, KB, MB or GB) between "
            "'|'");
      if (!op_.empty()) (*usage)["operation"] = op_;
      run_.metadata["nccl_tests"]["memory_usage"].push_back(std::move(*usage));
    } else if (line.rfind("# Per-Iteration Report:", 0) == 0) {
      read_per_iteration_report(line);
    } else if (line.rfind("# Bitwise", 0) == 0) {
      read_bitwise_line(line);
    } else if (line.rfind("# Out of bounds values", 0) == 0) {
      run_.metadata["nccl_tests"]["out_of_bounds"] = line.substr(line.find(':') + 1);
    } else if (is_header(t)) {
      read_header(t, line);
    } else if (layout_ && !t.empty() && all_digits(t[0])) {
      read_row(t, line);
    } else if (op_.empty() && !layout_ && bounded_regex_search(line, m, op_re)) {
      binary_op_ = m[1];  // e.g. an mpirun command line naming ./build/all_reduce_perf
    }
  }

  static std::string strip_perf(std::string s) {
    const auto slash = s.rfind('/');
    if (slash != std::string::npos) s = s.substr(slash + 1);
    if (s.size() > 5 && s.compare(s.size() - 5, 5, "_perf") == 0) s.resize(s.size() - 5);
    return s;
  }

  // A problem that refuses the log, at the line being read.
  void check(const std::optional<std::string>& problem) const {
    if (problem) fail(*problem);
  }

  void read_header(std::vector<std::string> t, const std::string& line) {
    check(listings_.close());
    Layout l;
    const std::vector<std::size_t> ends = word_ends(line);
    for (std::size_t w = 0; w < t.size() && w < ends.size(); ++w)
      if (t[w] == "time" || t[w] == "cputime") l.time_ends.push_back(ends[w]);
    std::size_t i = 1;
    for (; i < t.size() && t[i] != "time" && t[i] != "cputime"; ++i) l.leading.push_back(t[i]);
    l.timestamp = t.back() == "timestamp";
    if (l.timestamp) t.pop_back();
    const std::vector<std::string> group = header_group(t, i);
    l.group_width = group.size();
    // One placement's group, or two that name the same columns, and nothing after them.
    l.groups = t.size() - i == 2 * group.size() ? 2 : 1;
    if (t.size() - i != l.groups * group.size() ||
        (l.groups == 2 && !std::equal(group.begin(), group.end(), t.begin() + i + group.size())))
      fail("unexpected nccl-tests header (the in-place columns differ from the out-of-place)");
    l.wrong_count = group[3] == "#wrong";
    l.bitwise = group.size() > 4 && group[4] == "#bitdiff";
    l.time_metric = group[0];
    layout_ = l;
    ++table_;
  }

  // The words of the header's first placement group, from its time word at `first`: time,
  // algbw, busbw, then #wrong or error, then #bitdiff and the four per-iteration columns if
  // printed.
  std::vector<std::string> header_group(const std::vector<std::string>& t,
                                        std::size_t first) const {
    if (t.size() < first + 4) fail("unexpected nccl-tests header (fewer than 4 timing columns)");
    std::vector<std::string> group(t.begin() + first, t.begin() + first + 4);
    if (group[1] != "algbw" || group[2] != "busbw" || (group[3] != "#wrong" && group[3] != "error"))
      fail("unexpected nccl-tests header (expected time algbw busbw #wrong, found " + group[0] +
           " " + group[1] + " " + group[2] + " " + group[3] + ")");
    std::size_t next = first + 4;
    if (next < t.size() && t[next] == "#bitdiff") group.push_back(t[next++]);
    if (next < t.size() && t[next] == kPerIterationColumns[0].first) {
      for (const auto& [column, key] : kPerIterationColumns) {
        if (next >= t.size() || t[next] != column)
          fail(std::string("unexpected nccl-tests header (per-iteration columns without ") +
               column + ")");
        group.push_back(t[next++]);
      }
    }
    return group;
  }

  // The placement of a row's lone group of values: out-of-place unless it stands in the
  // in-place column (nccl-tests -O 0 leaves the out-of-place cells blank).
  int lone_group_placement(const std::string& line, std::size_t first_value) const {
    const std::vector<std::size_t>& header = layout_->time_ends;
    const std::vector<std::size_t> ends = word_ends(line);
    if (header.size() < 2 || first_value >= ends.size()) return 0;
    const auto distance = [&](std::size_t column) {
      return column > ends[first_value] ? column - ends[first_value] : ends[first_value] - column;
    };
    return distance(header[1]) < distance(header[0]) ? 1 : 0;
  }

  // nccl-tests' hypercube_perf prints its redop column blank (its op name is ""), so each of
  // its rows is a word short there: the word is put back, empty. Only hypercube's: in another
  // op's row a missing word is a cut line, refused below. Whether it put one back.
  bool restore_blank_redop(const std::string& op, std::vector<std::string>& t) const {
    const Layout& l = *layout_;
    const auto redop = std::find(l.leading.begin(), l.leading.end(), "redop");
    const bool word_short = t.size() + 1 == l.values(l.groups) || t.size() + 1 == l.values(1);
    if (op != "hypercube" || redop == l.leading.end() || !word_short) return false;
    t.insert(t.begin() + (redop - l.leading.begin()), std::string());
    return true;
  }

  void read_row(std::vector<std::string> t, const std::string& line) {
    const Layout& l = *layout_;
    const std::string op = operation();
    const bool blank_redop = restore_blank_redop(op, t);
    // A full row, or one group of values; anything else is a cut or garbled line.
    if (t.size() != l.values(l.groups) && t.size() != l.values(1))
      fail("nccl-tests row has " + std::to_string(t.size()) + " columns, expected " +
           std::to_string(l.values(l.groups)) + " (truncated?)");
    nlohmann::json row_extra = nlohmann::json::object();
    if (l.timestamp) row_extra["printed_at"] = take_timestamp(t);
    Params params = case_params(op, l.leading, t);
    std::vector<int> placements{0, 1};
    if (t.size() == l.leading.size() + l.group_width)
      placements = {lone_group_placement(line, l.leading.size() - (blank_redop ? 1 : 0))};
    for (std::size_t group = 0; group < placements.size(); ++group) {
      const int inplace = placements[group];
      const std::size_t base = l.leading.size() + l.group_width * group;
      if (!parse_number(t[base])) continue;  // "N/A": this variant was not measured
      params["inplace"] = inplace ? "1" : "0";
      const double time_us = number(t[base], l.time_metric);
      nlohmann::json time_extra = row_extra;
      if (l.per_iteration())
        time_extra["per_iteration"] = per_iteration(t, base + l.first_per_iteration());
      add_metric(op, params, l.time_metric, "us", Direction::lower_is_better, time_us, false, t,
                 base, time_extra);
      for (const auto& [metric, column] : {std::pair{"algbw", 1}, std::pair{"busbw", 2}}) {
        double value = number(t[base + column], metric);
        std::optional<double> derived;
        // A launch time (cputime) is not the operation's: bandwidths are not derived from it.
        if (value == 0 && l.time_metric == "time")
          derived = derive_from_time(metric, op, params, time_us);
        add_metric(op, params, metric, "GB/s", Direction::higher_is_better, derived.value_or(value),
                   derived.has_value(), t, base, row_extra);
      }
    }
  }

  // The date and clock time that end a -S 1 row ("2026-12-03 14:05:09"), taken off the row.
  std::string take_timestamp(std::vector<std::string>& t) const {
    static const std::regex date_re(R"(^\d{4}-\d{2}-\d{2}$)");
    static const std::regex clock_re(R"(^\d{2}:\d{2}:\d{2}$)");
    const std::string date = t[t.size() - 2], clock = t.back();
    std::smatch m;
    if (!bounded_regex_match(date, m, date_re) || !bounded_regex_match(clock, m, clock_re))
      fail("'" + date + " " + clock + "' is not the date and time the 'timestamp' column holds");
    t.resize(t.size() - 2);
    return date + " " + clock;
  }

  // One placement's per-iteration columns, from `first`: µs, and the variation in percent.
  // "N/A" (a placement of nccl-tests' JSON without its report) leaves a statistic out.
  nlohmann::json per_iteration(const std::vector<std::string>& t, std::size_t first) {
    nlohmann::json stats = nlohmann::json::object();
    for (const auto& [column, key] : kPerIterationColumns) {
      const std::string& value = t[first++];
      if (value != "N/A") stats[key] = number(value, column);
    }
    return stats;
  }

  // A count column's value (#wrong, #bitdiff; nccl-tests prints it with %g, so 1.2e+07 is a
  // count); none for "N/A". A number that is no count of 0 or more is refused naming it.
  std::optional<long long> count(const std::string& value, const char* column) const {
    const auto v = parse_number(value);
    if (!v) return std::nullopt;
    const auto n = nccl_tests_count(*v);
    if (!n) fail("'" + value + "' is not a count (" + column + ")");
    return n;
  }

  double number(const std::string& value, const std::string& metric) {
    const auto v = parse_number(value);
    if (!v) fail("'" + value + "' is not a number (" + metric + ")");
    return *v;
  }

  // The table prints bandwidths with two decimals, so small sizes read 0.00: below the table's
  // resolution, not zero. The time column keeps its digits; recompute with nccl-tests' own
  // formulas (algbw = bytes / time, hypercube's of the blocks received; busbw = algbw x the bus
  // factor of the ranks of rank 0's group, all ranks when the run was not split). None when
  // the rank count or the operation's bus factor is unknown (the 0 stays).
  std::optional<double> derive_from_time(const std::string& metric, const std::string& op,
                                         const Params& params, double time_us) const {
    const auto bytes = params.find("bytes");
    const auto bytes_value = bytes == params.end() ? std::nullopt : parse_number(bytes->second);
    if (time_us <= 0 || !bytes_value) return std::nullopt;
    const int group_ranks = static_cast<int>(listings_.split().group_ranks);
    const std::optional<double> share = algorithm_bandwidth_share(op, group_ranks);
    if (!share) return std::nullopt;
    double value = *bytes_value * *share / (time_us * 1e3);  // GB/s
    if (metric == "busbw") {
      const auto factor = bus_bandwidth_factor(op, group_ranks);
      if (group_ranks == 0 || !factor) return std::nullopt;
      value *= *factor;
    }
    return value;
  }

  // One row's value of a series. A series met again under the same table header is another
  // cycle of the same run (nccl-tests' -N prints each cycle's rows): its value is one more
  // sample. Under a later header it is a second run in one log, which is refused. Each key of
  // `sample_extra` (the row's timestamp, the per-iteration columns) is a list in the result's
  // extra, one entry per sample.
  void add_metric(const std::string& op, const Params& params, const std::string& metric,
                  const std::string& unit, Direction dir, double value, bool derived,
                  const std::vector<std::string>& t, std::size_t base,
                  const nlohmann::json& sample_extra) {
    Result r;
    r.key = {"collectives." + op, params, metric};
    r.unit = unit;
    r.direction = dir;
    r.samples = {value};
    r.extra["count"] = t[1];
    if (derived) r.extra["derived_from_time"] = true;
    const std::string& check = t[base + 3];
    const auto wrong = layout_->wrong_count ? count(check, "#wrong") : std::nullopt;
    if (wrong)
      r.extra["wrong"] = *wrong;
    else
      r.extra[layout_->wrong_count ? "wrong" : "error"] = check;
    const auto bitdiff = layout_->bitwise ? count(t[base + 4], "#bitdiff") : std::nullopt;
    if (bitdiff) r.extra["bitdiff"] = *bitdiff;
    std::vector<std::string> failures;
    if (wrong && *wrong > 0) failures.push_back(check + " wrong elements");
    if (bitdiff && *bitdiff > 0)
      failures.push_back(t[base + 4] + " bits that differed between repeated runs (#bitdiff)");
    if (!failures.empty()) {
      r.status = ResultStatus::error;
      r.message = "nccl-tests found " + failures.front() +
                  (failures.size() > 1 ? " and " + failures.back() : "");
    }
    const auto [at, first] = seen_.try_emplace(r.key.id(), table_, run_.results.size());
    if (first) {
      for (const auto& [key, item] : sample_extra.items()) r.extra[key].push_back(item);
      r.summary = summarize(r.samples);
      run_.results.push_back(std::move(r));
      return;
    }
    if (at->second.first != table_)
      fail("series " + r.key.id() + " appears twice (several runs in one log? split it per run)");
    Result& earlier = run_.results[at->second.second];
    earlier.samples.push_back(value);
    for (const auto& [key, item] : sample_extra.items()) earlier.extra[key].push_back(item);
    earlier.summary = summarize(earlier.samples);
    if (derived) earlier.extra["derived_from_time"] = true;
    // Summed over the cycles that were checked.
    for (const auto& [count, key] : {std::pair{wrong, "wrong"}, std::pair{bitdiff, "bitdiff"}}) {
      if (!count) continue;
      const nlohmann::json& before = earlier.extra[key];
      const long long sum = *count + (before.is_number_integer() ? before.get<long long>() : 0);
      earlier.extra[key] = std::min(sum, kMaxNcclTestsCount);  // each below it: no overflow
    }
    if (r.status == ResultStatus::error && earlier.status != ResultStatus::error) {
      earlier.status = r.status;
      earlier.message = r.message;
    }
  }

  // How the timed loops launched, in the flags perfgate-collectives records as its comparable
  // collectives.launch (absent for plain launches), in its order: "-m 4" for agg iters 4,
  // "-z 1" for a "# Blocking Enabled:" line, "-G 10" for graph 10, "-R 1" for perfgate's
  // "# Registered buffers:" line (nccl-tests' logs do not say whether -R was given), "-x 1"
  // for perfgate's "# CTA policy:" line (nor -x), "-u 8" for the newest nccl-tests' "unalign: 8".
  void read_launch(const std::string& line) {
    static const std::regex agg_re(R"(agg iters:\s*(\d{1,9}))");
    static const std::regex graph_re(R"(graph:\s*(\d{1,9}))");
    static const std::regex unalign_re(R"(unalign:\s*(\d{1,9}))");
    std::smatch m;
    if (bounded_regex_search(line, m, agg_re)) agg_iters_ = std::stol(m[1]);
    if (bounded_regex_search(line, m, graph_re)) graph_ = std::stol(m[1]);
    if (bounded_regex_search(line, m, unalign_re)) unalign_ = std::stol(m[1]);
  }

  // Newer nccl-tests name the -z mode in words: 1 waits and barriers after each operation, 2
  // waits only, 3 barriers once per iteration (the time excluding it).
  void read_blocking(const std::string& line) {
    if (line.find("no barrier") != std::string::npos)
      blocking_ = 2;
    else if (line.find("outer iteration") != std::string::npos)
      blocking_ = 3;
    else
      blocking_ = 1;
  }

  // "# Per-Iteration Report: CUDA event timing; i_* uses max over process rows; summary skips
  // first 3 iterations": the clock, and how many leading iterations the statistics leave out
  // (nccl-tests' -K, per_iter_skip; the JSON's times_us still holds them).
  void read_per_iteration_report(const std::string& line) {
    static const std::regex skip_re(R"(summary skips first (\d{1,9}) iterations)");
    nlohmann::json& meta = run_.metadata["nccl_tests"];
    meta["per_iteration_report"] = trim_blanks(line.substr(line.find(':') + 1));
    std::smatch m;
    meta["per_iter_skip"] = bounded_regex_search(line, m, skip_re) ? std::stol(m[1]) : 0;
  }

  // The run's operation: its "Collective test starting" line's, else the binary an earlier line
  // named (an mpirun command line).
  std::string operation() const {
    return !op_.empty() ? op_ : !binary_op_.empty() ? binary_op_ : "unknown";
  }

  // "# Avg bus bandwidth    : 142.565", followed by OK or FAILED when NCCL_TESTS_MIN_BW set a
  // floor (FAILED: below 90 % of it, and nccl-tests failed the run). A log of several tables
  // keeps the last average and fails the check when any table did; `runs` keeps each table's,
  // with its operation, so a script's log shows which collective missed its floor.
  void read_avg_busbw(const std::string& line) {
    std::istringstream rest(line.substr(line.find(':') + 1));
    std::string value, verdict;
    rest >> value >> verdict;
    nlohmann::json& meta = run_.metadata["nccl_tests"];
    nlohmann::json footer = {{"operation", operation()}};
    if (const auto v = parse_number(value)) meta["avg_busbw"] = footer["avg_busbw"] = *v;
    if (verdict == "OK" || verdict == "FAILED") {
      footer["min_busbw_check"] = verdict;
      // `meta` is still null where no line before this one recorded anything.
      if (!meta.contains("min_busbw_check") || meta["min_busbw_check"] != "FAILED")
        meta["min_busbw_check"] = verdict;
    }
    meta["runs"].push_back(std::move(footer));
  }

  // The bitwise check's lines: "# Bitwise Repeatability: 4 comparisons after one reference run"
  // in the header, "# Bitwise mismatches : 1 FAILED" in the footer, and a "# Bitwise mismatch
  // (out-of-place): first repeat ..." line for each case that differed.
  void read_bitwise_line(const std::string& line) {
    static const std::regex repeats_re(R"(^# Bitwise Repeatability:\s*(\d{1,9}) )");
    nlohmann::json& meta = run_.metadata["nccl_tests"];
    const std::string after_colon = trim_blanks(line.substr(line.find(':') + 1));
    std::smatch m;
    if (bounded_regex_search(line, m, repeats_re))
      meta["bitwise_repeats"] = std::stol(m[1]);
    else if (line.rfind("# Bitwise mismatches", 0) == 0)
      meta["bitwise_mismatches"] = after_colon;
    else if (line.rfind("# Bitwise mismatch (", 0) == 0)
      meta["bitwise_details"].push_back(line.substr(2));
  }

  // perfgate's lines for -R and -x end with the option and its value: "... (-R 2) ".
  long read_option_value(const std::string& line, const char* title, char option) {
    const std::regex value_re(std::string(R"(\(-)") + option + R"( (\d{1,9})\))");
    std::smatch m;
    if (!bounded_regex_search(line, m, value_re))
      fail(std::string("a '# ") + title + ":' line without its '(-" + option + " N)'");
    return std::stol(m[1]);
  }

  void finish_launch() {
    std::vector<std::string> flags;
    if (agg_iters_ != 1) flags.push_back("-m " + std::to_string(agg_iters_));
    if (blocking_ != 0) flags.push_back("-z " + std::to_string(blocking_));
    if (graph_ != 0) flags.push_back("-G " + std::to_string(graph_));
    if (registration_ != 0) flags.push_back("-R " + std::to_string(registration_));
    if (cta_policy_ >= 0) flags.push_back("-x " + std::to_string(cta_policy_));
    if (unalign_ != 0) flags.push_back("-u " + std::to_string(unalign_));
    std::string launch;
    for (const std::string& f : flags) launch += (launch.empty() ? "" : " ") + f;
    if (!launch.empty()) run_.fingerprint.comparable["collectives.launch"] = launch;
  }

  // nccl.version is the library's NCCL_VERSION_CODE, as perfgate-collectives records it
  // (ncclGetVersion), so the key compares across the two: nccl-tests' "nccl-library=" when
  // printed, else the code of NCCL's own "NCCL version 2.21.5+cuda12.4" banner.
  void finish_nccl_version() {
    auto& fp = run_.fingerprint;
    if (!library_code_.empty()) {
      fp.comparable["nccl.version"] = library_code_;
      return;
    }
    const auto banner = fp.info.find("nccl.banner");
    if (banner == fp.info.end()) return;
    // At most four digits a part: a longer run is no NCCL release, and would overflow stoi.
    static const std::regex version_re(R"(^(\d{1,4})\.(\d{1,4})\.(\d{1,4}))");
    std::smatch m;
    if (!bounded_regex_search(banner->second, m, version_re)) return;
    const int major = std::stoi(m[1]), minor = std::stoi(m[2]), patch = std::stoi(m[3]);
    // nccl.h's NCCL_VERSION(X, Y, Z): X*1000 + Y*100 + Z up to 2.8, X*10000 + Y*100 + Z after.
    const int code = (major <= 2 && minor <= 8) ? major * 1000 + minor * 100 + patch
                                                : major * 10000 + minor * 100 + patch;
    fp.comparable["nccl.version"] = std::to_string(code);
  }

  // A split run (NCCL_TESTS_SPLIT, NCCL_TESTS_SPLIT_MASK) measured G groups side by side, not
  // one communicator of all ranks: its series carry "groups", as perfgate-collectives names a
  // split run's, so they never compare with an unsplit run on the same ranks. One group adds
  // nothing.
  void finish_split() {
    const Split& split = listings_.split();
    if (split.groups < 2) return;
    const std::string groups = std::to_string(split.groups);
    for (Result& r : run_.results) r.key.params["groups"] = groups;
    nlohmann::json& meta = run_.metadata["nccl_tests"]["split"];
    meta = {{"groups", split.groups}, {"group_ranks", split.group_ranks}};
    if (split.unequal) meta["unequal_groups"] = true;
  }

  void finish_fingerprint() {
    finish_nccl_version();
    finish_launch();
    if (listings_.ranks().empty()) return;
    const Placement where = placement_of(listings_.ranks());
    auto& fp = run_.fingerprint;
    if (where.on_gpus) {
      fp.comparable["gpu.model"] = where.model;
      fp.comparable["gpu.count"] = std::to_string(where.ranks);
    }
    fp.comparable["cluster.nodes"] = std::to_string(where.nodes);
    fp.comparable["cluster.gpus_per_node"] = std::to_string(where.gpus_per_node);
    fp.info["hosts"] = where.hosts;
    for (auto& r : run_.results) r.scale = Scale{where.nodes, where.gpus_per_node, where.ranks};
  }

  std::string source_;
  const std::vector<std::size_t>* file_lines_;
  bool gathered_;
  std::size_t line_no_ = 0;
  std::string op_, binary_op_;
  std::string library_code_;                       // "nccl-library=" of the nccl-tests version line
  long agg_iters_ = 1, graph_ = 0, blocking_ = 0;  // how the timed loops launched
  long registration_ = 0;                          // -R, on which buffers
  long cta_policy_ = -1;                           // -x, NCCL's CTA policy (-1: not set)
  long unalign_ = 0;  // the newest nccl-tests' "unalign:", its buffers' offset from alignment
  std::optional<Layout> layout_;
  RankListings listings_;
  std::size_t table_ = 0;  // table headers read so far: one per run
  // Series id -> the table it first appeared under and its index in run_.results.
  std::map<std::string, std::pair<std::size_t, std::size_t>> seen_;
  Run run_;
};

}  // namespace

bool looks_like_nccl_tests(const std::string& text) {
  // mpirun --xml escapes the table's lines; its reader names what such a log lacks.
  if (is_open_mpi_xml(text)) return true;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (is_header_line(line)) return true;
  return false;
}

namespace {

// Each line's file line where a log was rewritten twice: `outer[inner[i] - 1]`.
std::vector<std::size_t> composed_lines(const std::vector<std::size_t>& inner,
                                        const std::vector<std::size_t>* outer) {
  if (outer == nullptr) return inner;
  std::vector<std::size_t> lines;
  lines.reserve(inner.size());
  for (const std::size_t line : inner)
    lines.push_back(line - 1 < outer->size() ? (*outer)[line - 1] : line);
  return lines;
}

// A log with no CI stamps, or with them taken off (`file_lines`: where its lines stood).
Run read_log(const std::string& text, const std::string& source,
             const std::vector<std::size_t>* file_lines) {
  if (is_open_mpi_xml(text)) {
    const UnwrappedLog log = unwrap_open_mpi_xml(text, source);
    const std::vector<std::size_t> lines = composed_lines(log.file_lines, file_lines);
    Run run = LogParser(source, &lines).parse(log.text);
    nlohmann::json& tags = run.metadata["nccl_tests"]["launcher_tags"];
    tags["style"] = tag_style_name(TagStyle::open_mpi);
    tags["xml"] = true;
    return run;
  }
  if (const std::optional<UnwrappedLog> log = tag_gathered_blocks(text, is_header_line)) {
    const std::vector<std::size_t> lines = composed_lines(log->file_lines, file_lines);
    Run run = LogParser(source, &lines, true).parse(log->text);
    run.metadata["nccl_tests"]["launcher_tags"]["gathered"] = true;
    return run;
  }
  return LogParser(source, file_lines).parse(text);
}

}  // namespace

Run from_nccl_tests_log(const std::string& text, const std::string& source) {
  // A CI system's stamps come off first: any of the forms above may stand behind them. The run
  // started when its first table's header was printed, where the stamp names its zone.
  Run run;
  if (const std::optional<UnstampedLog> log = strip_line_timestamps(text, is_header_line)) {
    run = read_log(log->text, source, &log->file_lines);
    run.metadata["nccl_tests"]["line_timestamps"] = {{"first_table", log->first_time}};
    if (const std::optional<std::string> utc = utc_time_from_text(log->first_time))
      run.started_at = *utc;
  } else {
    run = read_log(text, source, nullptr);
  }
  run.suite = "nccl-tests";
  return run;
}

}  // namespace perfgate::baselines
