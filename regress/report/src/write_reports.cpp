#include <sstream>
#include <system_error>

#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/report/report.hpp"
#include "renderers.hpp"

namespace perfgate::report {

std::string render(Format format, const ReportInput& in) {
  switch (format) {
    case Format::terminal: {
      std::ostringstream out;
      write_terminal(out, in, TerminalOptions{});
      return out.str();
    }
    case Format::markdown:
      return render_markdown(in, MarkdownOptions{});
    case Format::junit:
      return detail::render_junit(in);
    case Format::json:
      return detail::render_json(in);
    case Format::html:
      return detail::render_html(in);
  }
  return {};
}

std::vector<std::filesystem::path> write_reports(const std::filesystem::path& dir,
                                                 const std::vector<Format>& formats,
                                                 const ReportInput& in) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw ToolError(dir.string() + ": cannot create the output folder (" + ec.message() + ")");
  // Render everything first: a rendering error leaves no file behind.
  std::vector<std::pair<std::filesystem::path, std::string>> rendered;
  for (Format f : formats) rendered.emplace_back(dir / file_name(f), render(f, in));
  std::vector<std::filesystem::path> written;
  for (const auto& [path, text] : rendered) {
    write_text_file_atomic(path, text);  // a reader (a CI step, a browser) sees no half report
    written.push_back(path);
  }
  return written;
}

}  // namespace perfgate::report
