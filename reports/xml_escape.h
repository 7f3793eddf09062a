// Text for XML 1.0 documents (junit.xml): escaped for element content or for an attribute, with the characters
// XML cannot carry replaced so that the document always parses: control characters are written as "\\xNN" and
// malformed UTF-8 as U+FFFD.
#pragma once

#include <string>
#include <string_view>

namespace bc {

// For element content, or for a double- or single-quoted attribute when `attribute` is set (line breaks and tabs
// are then written as character references, so that parsers keep them).
std::string xml_escape(std::string_view text, bool attribute = false);

}  // namespace bc
