// Reading an input file (a corpus file, the declarations) line by line.
//
// Contract: read_input_lines() calls `each(number, text)` for every line that is not blank (1-based numbers, a
// trailing \r dropped) and returns "" when the file was read; when it cannot be read it calls nothing and returns
// "FILE:0: reason" (a missing file, a directory, an unreadable file), so a caller reports it like a bad line.
// utf8_problem() is the reason a line is refused before any JSON parsing when it is not valid UTF-8.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace bc {

std::string read_input_lines(const std::string& path, const std::function<void(int, const std::string&)>& each);

// "" for valid UTF-8, else "not valid UTF-8: byte N is \xNN".
std::string utf8_problem(std::string_view text);

}  // namespace bc
