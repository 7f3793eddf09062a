// Valid UTF-8 for every text broadcheck writes (results.jsonl, summary.json, junit.xml, report.html, the console).
//
// Contract: visible_utf8() returns its input unchanged when the input is valid UTF-8; otherwise each byte that is
// not part of a well-formed UTF-8 sequence (stray continuation bytes, truncated or overlong sequences, surrogates,
// code points above U+10FFFF) is written as the four characters \xNN (upper-case hex), so the byte stays visible
// and the result is always valid UTF-8. first_invalid_utf8() says where the first such byte is.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace bc {

// The length of the well-formed UTF-8 sequence starting at text[i], or 0 when text[i] does not start one.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

// The offset of the first byte that is not part of well-formed UTF-8, or nullopt when the text is valid.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

// The text with every invalid byte written as \xNN.
std::string visible_utf8(std::string_view text);

}  // namespace bc
