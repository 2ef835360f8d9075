#include "svg_charts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "verdict_text.hpp"

namespace perfgate::report::detail {

namespace {

constexpr double kWidth = 640, kHeight = 240;
constexpr double kLeft = 64, kRight = 16, kTop = 16, kBottom = 44;

// Maps data to the plotting area of one chart.
struct Frame {
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
  double x(double v) const {
    const double span = x_max > x_min ? x_max - x_min : 1;
    return kLeft + (v - x_min) / span * (kWidth - kLeft - kRight);
  }
  double y(double v) const {
    const double span = y_max > y_min ? y_max - y_min : 1;
    return kHeight - kBottom - (v - y_min) / span * (kHeight - kTop - kBottom);
  }
};

// y range covering `values`, padded so that lines do not touch the frame.
Frame frame_for(std::vector<double> values, double x_max) {
  Frame f;
  f.x_max = std::max(1.0, x_max);
  values.erase(
      std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
      values.end());
  if (values.empty()) return f;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  const double pad = std::max((*hi - *lo) * 0.08, std::fabs(*hi) * 0.02 + 1e-12);
  f.y_min = *lo - pad;
  f.y_max = *hi + pad;
  return f;
}

std::string number(double v) {
  if (!std::isfinite(v)) return "n/a";
  const double a = std::fabs(v);
  if (a != 0 && (a >= 1e5 || a < 1e-2)) return fmt::format("{:.3g}", v);
  return fmt::format("{:.3f}", v);
}

std::string open_svg(const std::string& label, const std::string& css_class) {
  return fmt::format(
      "<svg class=\"chart {}\" role=\"img\" aria-label=\"{}\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
      css_class, html_escape(label), kWidth, kHeight, kWidth, kHeight);
}

std::string axes(const Frame& f, const std::string& y_label) {
  std::string s = fmt::format(
      "<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>"
      "<line class=\"axis\" x1=\"{0}\" y1=\"{2}\" x2=\"{3}\" y2=\"{2}\"/>\n",
      kLeft, kTop, kHeight - kBottom, kWidth - kRight);
  s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>",
                   kLeft - 4, f.y(f.y_max) + 4, html_escape(number(f.y_max)));
  s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n",
                   kLeft - 4, f.y(f.y_min), html_escape(number(f.y_min)));
  s += fmt::format(
      "<text class=\"axis-label\" x=\"12\" y=\"{:.1f}\" transform=\"rotate(-90 12 {:.1f})\" "
      "text-anchor=\"middle\">{}</text>\n",
      kHeight / 2, kHeight / 2, html_escape(y_label));
  return s;
}

std::string polyline(const std::vector<std::pair<double, double>>& points, const std::string& cls) {
  std::string pts;
  for (const auto& [x, y] : points) pts += fmt::format("{:.1f},{:.1f} ", x, y);
  if (!pts.empty()) pts.pop_back();
  return fmt::format("<polyline class=\"{}\" points=\"{}\"/>\n", cls, pts);
}

std::string x_label(double x, const std::string& text, std::string_view anchor = "middle") {
  return fmt::format("<text class=\"tick\" x=\"{:.1f}\" y=\"{}\" text-anchor=\"{}\">{}</text>", x,
                     kHeight - kBottom + 16, anchor, html_escape(text));
}

// A row of coloured keys along the bottom edge: {css class of the swatch, what it stands for}.
std::string legend(const std::vector<std::pair<std::string, std::string>>& keys) {
  std::string s;
  double x = kLeft;
  for (const auto& [cls, text] : keys) {
    s += fmt::format(
        "<rect class=\"key {}\" x=\"{:.1f}\" y=\"{}\" width=\"10\" height=\"10\"/>"
        "<text class=\"tick\" x=\"{:.1f}\" y=\"{}\">{}</text>",
        cls, x, kHeight - 14, x + 14, kHeight - 5, html_escape(text));
    x += 24 + 6.5 * static_cast<double>(text.size());
  }
  return s + "\n";
}

}  // namespace

std::string history_chart(const HistorySeries& h) {
  std::vector<double> range = h.medians;
  if (h.baseline_low) range.push_back(*h.baseline_low);
  if (h.baseline_high) range.push_back(*h.baseline_high);
  const double last = h.medians.empty() ? 1.0 : static_cast<double>(h.medians.size() - 1);
  const Frame f = frame_for(range, last);
  std::string s = open_svg("history of " + h.series_id, "history");
  if (h.baseline_low && h.baseline_high && std::isfinite(*h.baseline_low) &&
      std::isfinite(*h.baseline_high)) {
    const double top = f.y(std::max(*h.baseline_low, *h.baseline_high));
    const double bottom = f.y(std::min(*h.baseline_low, *h.baseline_high));
    s += fmt::format(
        "<rect class=\"band\" x=\"{}\" y=\"{:.1f}\" width=\"{}\" height=\"{:.1f}\">"
        "<title>baseline band {} to {}</title></rect>\n",
        kLeft, top, kWidth - kLeft - kRight, std::max(1.0, bottom - top),
        html_escape(number(*h.baseline_low)), html_escape(number(*h.baseline_high)));
  }
  s += axes(f, "median");
  for (std::size_t cp : h.change_points) {
    if (cp >= h.medians.size()) continue;
    const double x = f.x(static_cast<double>(cp));
    const std::string where = cp < h.labels.size() ? h.labels[cp] : std::to_string(cp);
    s += fmt::format(
        "<line class=\"change-point\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\">"
        "<title>change point at {3}</title></line>\n",
        x, kTop, kHeight - kBottom, html_escape(where));
  }
  std::vector<std::pair<double, double>> points;
  std::string dots;
  for (std::size_t i = 0; i < h.medians.size(); ++i) {
    if (!std::isfinite(h.medians[i])) continue;
    const double x = f.x(static_cast<double>(i)), y = f.y(h.medians[i]);
    points.emplace_back(x, y);
    const std::string label = i < h.labels.size() ? h.labels[i] : std::to_string(i);
    dots += fmt::format(
        "<circle class=\"point\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\"><title>{}: "
        "{}</title></circle>",
        x, y, html_escape(label), html_escape(number(h.medians[i])));
  }
  s += polyline(points, "series") + dots + "\n";
  if (!h.labels.empty()) {
    s += x_label(f.x(0), h.labels.front(), "start");
    if (h.labels.size() > 1)
      s += x_label(f.x(last), h.labels[std::min(h.labels.size() - 1, h.medians.size() - 1)], "end");
  }
  s += legend(
      {{"series", "median per run"}, {"band", "baseline band"}, {"change-point", "change point"}});
  return s + "</svg>\n";
}

std::string scaling_chart(const ScalingCurve& c) {
  std::vector<double> range = c.efficiency;
  range.insert(range.end(), c.baseline_efficiency.begin(), c.baseline_efficiency.end());
  range.push_back(1.0);
  const double last = c.scales.empty() ? 1.0 : static_cast<double>(c.scales.size() - 1);
  Frame f = frame_for(range, last);
  f.y_min = 0;  // efficiency is read against zero
  std::string s = open_svg("scaling efficiency of " + c.series_id, "scaling");
  s += axes(f, "efficiency");
  s += fmt::format("<line class=\"ideal\" x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\"/>\n",
                   kLeft, f.y(1.0), kWidth - kRight, f.y(1.0));
  auto curve = [&](const std::vector<double>& values, const std::string& cls,
                   const std::string& who) {
    std::vector<std::pair<double, double>> points;
    std::string dots;
    for (std::size_t i = 0; i < values.size() && i < c.scales.size(); ++i) {
      if (!std::isfinite(values[i])) continue;
      const double x = f.x(static_cast<double>(i)), y = f.y(values[i]);
      points.emplace_back(x, y);
      dots += fmt::format(
          "<circle class=\"point {}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\"><title>{} at {}: "
          "{}</title></circle>",
          cls, x, y, who, c.scales[i], html_escape(number(values[i])));
    }
    return polyline(points, cls) + dots + "\n";
  };
  s += curve(c.baseline_efficiency, "baseline", "baseline");
  s += curve(c.efficiency, "series", "candidate");
  for (std::size_t i = 0; i < c.scales.size(); ++i)
    s += x_label(f.x(static_cast<double>(i)), std::to_string(c.scales[i]));
  s += legend({{"series", "candidate"}, {"baseline", "baseline"}, {"ideal", "ideal (1.0)"}});
  return s + "</svg>\n";
}

std::string step_chart(const std::vector<StepDecomposition>& steps) {
  double tallest = 0;
  for (const auto& st : steps)
    tallest = std::max({tallest, st.step, st.compute + st.exposed_communication});
  Frame f;
  f.x_max = static_cast<double>(std::max<std::size_t>(steps.size(), 1));
  f.y_max = tallest > 0 && std::isfinite(tallest) ? tallest * 1.05 : 1.0;
  std::string s = open_svg("step-time decomposition", "steps");
  s += axes(f, "step time");
  const double slot = (kWidth - kLeft - kRight) / f.x_max;
  const double bar = slot * 0.6;
  auto segment = [&](double x, double from, double to, const std::string& cls,
                     const std::string& what) {
    if (!(to > from) || !std::isfinite(to)) return std::string{};
    return fmt::format(
        "<rect class=\"bar {}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" "
        "height=\"{:.1f}\"><title>{}: {}</title></rect>",
        cls, x, f.y(to), bar, f.y(from) - f.y(to), what, html_escape(number(to - from)));
  };
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto& st = steps[i];
    const double x = kLeft + slot * static_cast<double>(i) + (slot - bar) / 2;
    const double exposed_top = st.compute + st.exposed_communication;
    s += segment(x, 0, st.compute, "compute", "compute");
    s += segment(x, st.compute, exposed_top, "exposed", "exposed communication");
    s += segment(x, exposed_top, st.step, "other", "rest of step");
    s += x_label(x + bar / 2, std::to_string(st.scale)) + "\n";
  }
  s += legend({{"bar compute", "compute"},
               {"bar exposed", "exposed communication"},
               {"bar other", "rest of step"}});
  return s + "</svg>\n";
}

}  // namespace perfgate::report::detail
