// The HTML report: one self-contained file (inline CSS, SVG and script, nothing fetched), a
// sortable and filterable verdict table, and charts. Every name is escaped; a Content Security
// Policy with a per-page nonce keeps any script that slipped through from running.
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "perfgate/core/identity.hpp"
#include "renderers.hpp"
#include "svg_charts.hpp"
#include "verdict_text.hpp"

namespace perfgate::report::detail {

namespace {

constexpr const char* kStyle = R"css(
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1b1f24;max-width:1100px}
h1{font-size:22px}h2{font-size:18px;margin-top:32px}
.summary{font-weight:600}.status-REGRESSION,.status-FAILED{color:#b00020}
.status-PASS{color:#1a7f37}
table{border-collapse:collapse;width:100%}th,td{padding:4px 8px;border-bottom:1px solid #ddd;text-align:left}
th{cursor:pointer;user-select:none;background:#f6f8fa}th[data-dir=asc]::after{content:" \25B2"}
th[data-dir=desc]::after{content:" \25BC"}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.REGRESSION td:first-child,tr.FAILED td:first-child{color:#b00020;font-weight:600}
tr.IMPROVEMENT td:first-child{color:#1a7f37}
.controls{margin:8px 0}.controls input{width:280px}
figure{margin:16px 0}figcaption{font-family:monospace;word-break:break-all}
svg.chart{background:#fff;border:1px solid #e1e4e8;max-width:100%;height:auto}
.axis{stroke:#57606a}.tick,.axis-label{font-size:11px;fill:#57606a}
.band{fill:#54aeff;opacity:.18}.series{fill:none;stroke:#0969da;stroke-width:2}
.baseline{fill:none;stroke:#8c959f;stroke-width:2;stroke-dasharray:4 3}
.point{fill:#0969da}.point.baseline{fill:#8c959f}.ideal{stroke:#1a7f37;stroke-dasharray:2 3}
.change-point{stroke:#cf222e;stroke-width:2;stroke-dasharray:6 4}
.key.series{fill:#0969da}.key.baseline{fill:#8c959f}.key.band{fill:#54aeff;opacity:.4}
.key.change-point{fill:#cf222e}.key.ideal{fill:#1a7f37}
.bar.compute{fill:#0969da}.bar.exposed{fill:#fb8500}.bar.other{fill:#afb8c1}
#selfcheck{display:none}
)css";

// Sorting, filtering and a self-check the browser test reads back from the DOM.
constexpr const char* kScript = R"js(
(function () {
  const table = document.getElementById('verdicts');
  if (table) {
    const body = table.tBodies[0];
    const text = document.getElementById('filter-text');
    const kind = document.getElementById('filter-verdict');
    const apply = function () {
      const q = text.value.toLowerCase();
      for (const row of body.rows) {
        const show = (!q || row.dataset.series.toLowerCase().includes(q)) &&
                     (!kind.value || row.dataset.verdict === kind.value);
        row.hidden = !show;
      }
    };
    text.addEventListener('input', apply);
    kind.addEventListener('change', apply);
    table.tHead.querySelectorAll('th').forEach(function (th, column) {
      th.addEventListener('click', function () {
        const ascending = th.dataset.dir !== 'asc';
        table.tHead.querySelectorAll('th').forEach(function (h) { delete h.dataset.dir; });
        th.dataset.dir = ascending ? 'asc' : 'desc';
        const key = function (row) {
          const cell = row.cells[column];
          return cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent;
        };
        const rows = Array.from(body.rows);
        rows.sort(function (a, b) {
          let c;
          if (th.dataset.type === 'number') {
            const x = parseFloat(key(a)), y = parseFloat(key(b));
            c = (isNaN(x) ? Infinity : x) - (isNaN(y) ? Infinity : y);
            if (isNaN(c)) c = 0;
          } else {
            c = key(a).localeCompare(key(b));
          }
          return ascending ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }
  const svgs = Array.from(document.querySelectorAll('svg'));
  const sized = svgs.filter(function (s) {
    const box = s.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  });
  const marks = document.querySelectorAll('svg polyline, svg circle, svg rect.bar, svg rect.band');
  const drawn = Array.from(marks).filter(function (m) {
    const box = m.getBoundingClientRect();
    return box.width > 0 || box.height > 0;
  });
  document.getElementById('selfcheck').textContent = JSON.stringify({
    svg: svgs.length, svg_sized: sized.length, marks: marks.length, marks_drawn: drawn.length,
    scripts: document.scripts.length, rows: table ? table.tBodies[0].rows.length : 0
  });
})();
)js";

std::string number_or_empty(const std::optional<double>& x) {
  return x && std::isfinite(*x) ? fmt::format("{:.6g}", *x) : "";
}

std::string verdict_table(const Comparison& c) {
  std::set<std::string> kinds;
  for (const auto& v : c.verdicts) kinds.insert(std::string(to_string(v.kind)));
  std::string s =
      "<div class=\"controls\"><input id=\"filter-text\" type=\"search\" "
      "placeholder=\"filter series\" aria-label=\"filter series\"> "
      "<select id=\"filter-verdict\" aria-label=\"filter verdict\"><option value=\"\">all "
      "verdicts</option>";
  for (const auto& k : kinds) s += fmt::format("<option>{}</option>", html_escape(k));
  s += "</select></div>\n<table id=\"verdicts\"><thead><tr>"
       "<th data-type=\"number\">Verdict</th><th>Series</th>"
       "<th data-type=\"number\">Change</th><th data-type=\"number\">Interval</th>"
       "<th data-type=\"number\">p (adj.)</th><th data-type=\"number\">Tolerance</th>"
       "<th data-type=\"number\">n (base/cand)</th><th>Reason</th></tr></thead><tbody>\n";
  for (const VerdictRecord* v : worst_first(c.verdicts)) {
    const std::string kind(to_string(v->kind));
    const auto p = v->p_adjusted ? v->p_adjusted : v->p_value;
    s += fmt::format(
        "<tr class=\"{0}\" data-verdict=\"{0}\" data-series=\"{1}\">"
        "<td data-sort=\"{2}\">{0}</td><td>{1}</td>"
        "<td class=\"num\" data-sort=\"{3}\">{4}</td><td class=\"num\" data-sort=\"{5}\">{6}</td>"
        "<td class=\"num\" data-sort=\"{7}\">{8}</td><td class=\"num\" data-sort=\"{9}\">{10}</td>"
        "<td class=\"num\" data-sort=\"{11}\">{12}</td><td>{13}</td></tr>\n",
        kind, html_escape(v->series_id), severity_rank(v->kind), number_or_empty(v->ratio),
        html_escape(format_change(v->ratio)), number_or_empty(v->ratio_low),
        html_escape(format_interval(v->ratio_low, v->ratio_high)), number_or_empty(p),
        html_escape(format_p(p)), v->tolerance, html_escape(format_tolerance(v->tolerance)),
        v->n_candidate, html_escape(format_counts(*v)), html_escape(v->reason));
  }
  return s + "</tbody></table>\n";
}

std::string figure(const std::string& svg, const std::string& caption) {
  return "<figure>" + svg + "<figcaption>" + html_escape(caption) + "</figcaption></figure>\n";
}

}  // namespace

std::string render_html(const ReportInput& in) {
  const Comparison& c = in.comparison;
  const std::string nonce = new_uuid();
  const std::string status = overall_status(c);
  std::string s = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'nonce-{0}'\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{1}</title><style>{2}</style></head><body>\n"
      "<h1>{1}</h1>\n<p class=\"summary status-{3}\">{4}</p>\n"
      "<p>Candidate run: <code>{5}</code><br>Baseline run(s): <code>{6}</code></p>\n",
      nonce, html_escape(in.title), kStyle,
      html_escape(status == "PASS" || status == "REGRESSION" || status == "FAILED" ? status
                                                                                   : "OTHER"),
      html_escape(summary_line(c)), html_escape(c.candidate_run), html_escape([&] {
        std::string runs;
        for (const auto& r : c.baseline_runs) runs += (runs.empty() ? "" : ", ") + r;
        return runs.empty() ? std::string("(none)") : runs;
      }()));
  if (!c.differing_keys.empty()) {
    std::string keys;
    for (const auto& k : c.differing_keys) keys += (keys.empty() ? "" : ", ") + k;
    s += "<p><strong>Not comparable:</strong> fingerprints differ in " + html_escape(keys) +
         "</p>\n";
  }
  s += "<h2>Verdicts</h2>\n" + verdict_table(c);
  if (!in.histories.empty()) {
    s += "<h2>History</h2>\n";
    for (const auto& h : in.histories) s += figure(history_chart(h), h.series_id);
  }
  if (!in.scaling.empty()) {
    s += "<h2>Scaling efficiency</h2>\n";
    for (const auto& curve : in.scaling) s += figure(scaling_chart(curve), curve.series_id);
  }
  if (!in.steps.empty())
    s += "<h2>Step-time decomposition</h2>\n" +
         figure(step_chart(in.steps),
                "compute, exposed communication and the rest of each step, per scale");
  s += "<pre id=\"selfcheck\"></pre>\n";
  s += fmt::format("<script nonce=\"{}\">{}</script>\n</body></html>\n", nonce, kScript);
  return s;
}

}  // namespace perfgate::report::detail
