#include "harness/utf8.h"

#include <cstdint>
#include <cstdio>

namespace bc {

std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t len = 0;
  uint32_t cp = 0;
  if ((lead & 0xE0) == 0xC0) len = 2, cp = lead & 0x1F;
  else if ((lead & 0xF0) == 0xE0) len = 3, cp = lead & 0x0F;
  else if ((lead & 0xF8) == 0xF0) len = 4, cp = lead & 0x07;
  else return 0;  // a continuation byte or 0xF8..0xFF
  if (i + len > text.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < smallest[len] || cp > 0x10FFFF) return 0;  // overlong or out of range
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;         // UTF-16 surrogates are not characters
  return len;
}

std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t len = utf8_sequence_length(text, i);
    if (len == 0) return i;
    i += len;
  }
  return std::nullopt;
}

std::string visible_utf8(std::string_view text) {
  if (!first_invalid_utf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t len = utf8_sequence_length(text, i);
    if (len == 0) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[i])));
      out += buf;
      ++i;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

}  // namespace bc
