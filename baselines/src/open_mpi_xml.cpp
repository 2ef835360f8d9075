#include "open_mpi_xml.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>

#include "digits.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::baselines {

namespace {

constexpr std::string_view kBlanks = " \t\r\n";
// What an escape's name is made of, between its '&' and its ';'.
constexpr std::string_view kEscapeName =
    "#ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

// A code point above 255 as UTF-8. mpirun escapes single bytes, so it never writes one; an
// editor re-saving the file might.
void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
  }
  out += static_cast<char>(0x80 | (code & 0x3F));
}

// "<stdout" or "<stderr" opening `tag` ("<stdout rank=\"0\">").
bool opens_element(std::string_view tag, std::string_view name) {
  if (tag.size() < name.size() + 2 || tag.substr(1, name.size()) != name) return false;
  const char after = tag[name.size() + 1];
  return after == '>' || after == '/' || kBlanks.find(after) != std::string_view::npos;
}

class Unwrapper {
 public:
  Unwrapper(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  UnwrappedLog unwrap() {
    while (at_ < text_.size()) {
      if (text_[at_] == '<')
        read_markup();
      else
        read_between();
    }
    // Lines a process left without their end, as a plain log's last line.
    for (auto& [key, stream] : streams_)
      if (!stream.partial.empty()) emit(stream.prefix, stream.partial);
    return std::move(out_);
  }

 private:
  struct Stream {
    std::string prefix;   // "[1,0]<stdout>:", or empty for mpirun's own
    std::string partial;  // the line so far: an element may hold part of one
  };

  [[noreturn]] void fail(std::size_t line, const std::string& problem) const {
    throw InputError(source_ + ": line " + std::to_string(line) + ": " + problem +
                     " (read as mpirun --xml output)");
  }

  void emit(const std::string& prefix, std::string_view line) {
    out_.text += prefix;
    out_.text += line;
    out_.text += '\n';
    out_.file_lines.push_back(line_);
  }

  // Text between elements: mpirun's own lines, read as a launcher's untagged ones.
  void read_between() {
    const std::size_t end = std::min(text_.find('<', at_), text_.size());
    std::string_view between = text_.substr(at_, end - at_);
    at_ = end;
    while (!between.empty()) {
      const std::size_t line_end = std::min(between.find('\n'), between.size());
      const std::string_view line = between.substr(0, line_end);
      if (line.find_first_not_of(kBlanks) != std::string_view::npos) emit("", line);
      if (line_end < between.size()) ++line_;
      between.remove_prefix(std::min(line_end + 1, between.size()));
    }
  }

  void read_markup() {
    const std::size_t start_line = line_;
    const std::size_t close = text_.find('>', at_);
    if (close == std::string_view::npos) fail(start_line, "a '<' without its '>'");
    const std::string_view tag = text_.substr(at_, close + 1 - at_);
    line_ += static_cast<std::size_t>(std::count(tag.begin(), tag.end(), '\n'));
    at_ = close + 1;
    for (const std::string_view name : {std::string_view("stdout"), std::string_view("stderr")})
      if (opens_element(tag, name)) return read_output(tag, name, start_line);
    // <mpirun>, --display-map's <map> with its <host> and <process/>: nothing a process printed.
  }

  // The value of `tag`'s rank attribute, if it has one.
  std::optional<std::string> rank_of(std::string_view tag, std::string_view name,
                                     std::size_t line) const {
    std::string_view attributes = tag.substr(name.size() + 1, tag.size() - name.size() - 2);
    if (!attributes.empty() && attributes.back() == '/') attributes.remove_suffix(1);
    std::optional<std::string> rank;
    while (true) {
      const std::size_t first = attributes.find_first_not_of(kBlanks);
      if (first == std::string_view::npos) return rank;
      attributes.remove_prefix(first);
      const std::size_t equals = attributes.find('=');
      const char quote = equals < attributes.size() - 1 ? attributes[equals + 1] : '\0';
      const std::size_t value_end = quote == '"' || quote == '\''
                                        ? attributes.find(quote, equals + 2)
                                        : std::string_view::npos;
      if (value_end == std::string_view::npos)
        fail(line, "<" + std::string(name) + "> has an attribute that cannot be read: '" +
                       std::string(attributes) + "'");
      const std::string_view value = attributes.substr(equals + 2, value_end - equals - 2);
      if (attributes.substr(0, equals) == "rank") {
        if (!all_digits(value))
          fail(line, "<" + std::string(name) + "> names rank '" + std::string(value) +
                         "', not a rank number");
        rank = std::string(value);
      }
      attributes.remove_prefix(value_end + 1);
    }
  }

  void read_output(std::string_view tag, std::string_view name, std::size_t start_line) {
    const std::optional<std::string> rank = rank_of(tag, name, start_line);
    // The tag is made once per stream, when its first element arrives.
    const auto [entry, added] = streams_.try_emplace(std::string(name) + ":" + rank.value_or(""));
    Stream& stream = entry->second;
    if (added && rank) stream.prefix = "[1," + *rank + "]<" + std::string(name) + ">:";
    if (tag[tag.size() - 2] == '/') return;  // <stdout rank="0"/>: empty
    const std::string end_tag = "</" + std::string(name) + ">";
    const std::size_t end = text_.find(end_tag, at_);
    if (end == std::string_view::npos)
      fail(start_line, std::string(tag) + " without its " + end_tag);
    const std::string_view content = text_.substr(at_, end - at_);
    at_ = end + end_tag.size();
    for (std::size_t i = 0; i < content.size();) {
      char c = content[i++];
      bool as_is = true;  // not an escape
      if (c == '<') fail(line_, "a '<' inside " + std::string(tag) + " (mpirun writes &lt;)");
      if (c == '&') {
        const std::size_t semicolon = content.find_first_not_of(kEscapeName, i);
        if (semicolon == std::string_view::npos || content[semicolon] != ';')
          fail(line_, "an '&' without its ';' inside " + std::string(tag));
        const std::optional<char> decoded =
            append_escape(content.substr(i, semicolon - i), stream.partial);
        i = semicolon + 1;
        if (!decoded) continue;
        c = *decoded;
        as_is = false;
      }
      if (c == '\n') {
        emit(stream.prefix, stream.partial);
        stream.partial.clear();
        if (as_is) ++line_;  // a newline of the file, not an &#010;
      } else {
        stream.partial += c;
      }
    }
  }

  // The character `escape` ("lt", "#010") stands for, or nullopt when it was appended to `out`
  // already (a code point of several bytes).
  std::optional<char> append_escape(std::string_view escape, std::string& out) const {
    static constexpr std::array<std::pair<std::string_view, char>, 5> named{
        {{"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"quot", '"'}, {"apos", '\''}}};
    for (const auto& [word, c] : named)
      if (escape == word) return c;
    if (escape.size() > 1 && escape.front() == '#') {
      std::string_view digits = escape.substr(1);
      int base = 10;
      if (digits.front() == 'x' || digits.front() == 'X') {
        digits.remove_prefix(1);
        base = 16;
      }
      std::uint32_t code = 0;
      const auto [end, error] =
          std::from_chars(digits.data(), digits.data() + digits.size(), code, base);
      // mpirun escapes each byte outside printable ASCII by its value, 0-255: kept as that byte.
      const bool surrogate = code >= 0xD800 && code <= 0xDFFF;  // half of a UTF-16 pair
      if (!digits.empty() && error == std::errc() && end == digits.data() + digits.size() &&
          code <= 0x10FFFF && !surrogate) {
        if (code <= 0xFF) return static_cast<char>(code);
        append_utf8(out, code);
        return std::nullopt;
      }
    }
    fail(line_, "'&" + std::string(escape) + ";' is not an XML escape");
  }

  std::string_view text_;
  const std::string& source_;
  std::size_t at_ = 0;
  std::size_t line_ = 1;
  std::map<std::string, Stream> streams_;  // by stream and rank
  UnwrappedLog out_;
};

}  // namespace

bool is_open_mpi_xml(std::string_view text) {
  const std::size_t first = text.find_first_not_of(kBlanks);
  return first != std::string_view::npos && text.substr(first, 8) == "<mpirun>";
}

UnwrappedLog unwrap_open_mpi_xml(std::string_view text, const std::string& source) {
  return Unwrapper(text, source).unwrap();
}

}  // namespace perfgate::baselines
