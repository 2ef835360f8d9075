// JSON files as Google Benchmark writes them: bare NaN / Infinity / -Infinity are accepted.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate {

namespace {

constexpr const char* kNanToken = "\"\\u0001perfgate-nan\"";
constexpr const char* kPosInfToken = "\"\\u0001perfgate-inf\"";
constexpr const char* kNegInfToken = "\"\\u0001perfgate-neginf\"";

// Deeper documents are refused before parsing: nothing perfgate reads nests this far, and the
// recursive walks over a parsed tree (here and in nlohmann's serialiser) must stay bounded.
constexpr int kMaxNesting = 256;

// Replaces the bare tokens outside string literals with sentinel strings that strict JSON
// accepts, and measures the nesting depth on the way.
std::string quote_non_finite(const std::string& text, const std::string& source) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size())
        out += text[++i];
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '[' || c == '{') {
      if (++depth > kMaxNesting)
        throw InputError(source + ": JSON nested deeper than " + std::to_string(kMaxNesting) +
                         " levels");
    } else if (c == ']' || c == '}') {
      --depth;
    }
    if (c == '"') {
      in_string = true;
      out += c;
    } else if (text.compare(i, 3, "NaN") == 0) {
      out += kNanToken;
      i += 2;
    } else if (text.compare(i, 9, "-Infinity") == 0) {
      out += kNegInfToken;
      i += 8;
    } else if (text.compare(i, 8, "Infinity") == 0) {
      out += kPosInfToken;
      i += 7;
    } else {
      out += c;
    }
  }
  return out;
}

void restore_non_finite(nlohmann::json& j) {
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    if (s.size() > 1 && s[0] == '\x01') {
      if (s == "\x01perfgate-nan")
        j = std::numeric_limits<double>::quiet_NaN();
      else if (s == "\x01perfgate-inf")
        j = std::numeric_limits<double>::infinity();
      else if (s == "\x01perfgate-neginf")
        j = -std::numeric_limits<double>::infinity();
    }
  } else if (j.is_structured()) {
    for (auto& child : j) restore_non_finite(child);
  }
}

}  // namespace

nlohmann::json parse_json_text(const std::string& text, const std::string& source) {
  try {
    auto j = nlohmann::json::parse(quote_non_finite(text, source));
    restore_non_finite(j);
    return j;
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is an offset into the rewritten text; report line/column of the original is
    // approximate only when sentinels precede the error, so name the byte as well.
    std::size_t line = 1, col = 1;
    const std::size_t limit = std::min<std::size_t>(e.byte ? e.byte - 1 : 0, text.size());
    for (std::size_t i = 0; i < limit; ++i) {
      if (text[i] == '\n')
        ++line, col = 1;
      else
        ++col;
    }
    throw InputError(source + ":" + std::to_string(line) + ":" + std::to_string(col) +
                     ": not valid JSON (" +
                     std::string(e.what()).substr(std::string(e.what()).find(']') + 2) + ")");
  } catch (const nlohmann::json::exception& e) {
    // e.g. a number too large for a double (1e400).
    const std::string what = e.what();
    throw InputError(source + ": not valid JSON (" + what.substr(what.find(']') + 2) + ")");
  }
}

nlohmann::json read_json_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(path.string() + ": no such file");
  if (std::filesystem::is_directory(path, ec)) throw InputError(path.string() + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot read (" + std::strerror(errno) + ")");
  std::ostringstream buf;
  buf << in.rdbuf();
  if (buf.str().empty()) throw InputError(path.string() + ": empty file");
  return parse_json_text(buf.str(), path.string());
}

void write_json_file_atomic(const std::filesystem::path& path, const nlohmann::json& doc) {
  write_text_file_atomic(path, doc.dump(2) + "\n");
}

void write_text_file_atomic(const std::filesystem::path& path, const std::string& text) {
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::string tmpl = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
  const int fd = mkstemp(tmpl.data());
  if (fd < 0) throw ToolError(path.string() + ": cannot write (" + std::strerror(errno) + ")");
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) {
      const int err = errno;
      close(fd);
      unlink(tmpl.c_str());
      throw ToolError(path.string() + ": write failed (" + std::strerror(err) + ")");
    }
    done += static_cast<std::size_t>(n);
  }
  fchmod(fd, 0644);
  if (fsync(fd) != 0 || close(fd) != 0) {
    const int err = errno;
    unlink(tmpl.c_str());
    throw ToolError(path.string() + ": write failed (" + std::strerror(err) + ")");
  }
  if (rename(tmpl.c_str(), path.c_str()) != 0) {
    const int err = errno;
    unlink(tmpl.c_str());
    throw ToolError(path.string() + ": cannot write (" + std::strerror(err) + ")");
  }
}

}  // namespace perfgate
