#include "reports/xml_escape.h"

#include <fmt/format.h>

#include "harness/utf8.h"

namespace bc {
namespace {

// Length of the well-formed UTF-8 sequence starting at s[i] that XML may carry (not U+FFFE or U+FFFF), or 0.
size_t xml_char_length(std::string_view s, size_t i) {
  const size_t len = utf8_sequence_length(s, i);
  if (len == 3 && (s.substr(i, 3) == "\xEF\xBF\xBE" || s.substr(i, 3) == "\xEF\xBF\xBF")) return 0;
  return len;
}

}  // namespace

std::string xml_escape(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (size_t i = 0; i < text.size();) {
    const char ch = text[i];
    const auto u = static_cast<unsigned char>(ch);
    switch (ch) {
      case '&':
        out += "&amp;";
        ++i;
        continue;
      case '<':
        out += "&lt;";
        ++i;
        continue;
      case '>':
        out += "&gt;";
        ++i;
        continue;
      case '"':
        out += "&quot;";
        ++i;
        continue;
      case '\'':
        out += "&apos;";
        ++i;
        continue;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        ++i;
        continue;
      case '\r':
        out += attribute ? "&#13;" : "\r";
        ++i;
        continue;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        ++i;
        continue;
      default:
        break;
    }
    if (u < 0x20) {  // not allowed in XML 1.0, not even as a character reference: write it out readably
      out += fmt::format("\\x{:02X}", static_cast<unsigned>(u));
      ++i;
      continue;
    }
    const size_t len = xml_char_length(text, i);
    if (len == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

}  // namespace bc
