// Reading an input text (a corpus file, the declarations, --case, a config file) within one set of limits.
//
// Contract: read_input_lines() calls `each(number, text)` for every line that is not blank (1-based numbers, a
// trailing \r dropped) and `refuse(number, reason)` for a line over kMaxInputBytes (never held whole in memory),
// and returns "" when the file was read; when it cannot be read it calls nothing and returns "FILE:0: reason" (a
// missing file, a directory, the system's reason it cannot be opened), so a caller reports it like a bad line.
// parse_input_json() is the one way an input text becomes JSON: at most kMaxInputBytes, valid UTF-8, at most
// kMaxInputDepth arrays and objects deep (checked before parsing, so no parser or later copy recurses deeper);
// anything else throws InputError with the reason.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace bc {

constexpr std::size_t kMaxInputBytes = std::size_t{1} << 20;  // one line of a .jsonl file, --case, a config file
constexpr int kMaxInputDepth = 64;  // a valid case or declaration nests 5 levels deep at most

using LineFunction = std::function<void(int, const std::string&)>;
std::string read_input_lines(const std::string& path, const LineFunction& each, const LineFunction& refuse);

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
nlohmann::json parse_input_json(std::string_view text);

// "" for valid UTF-8, else "not valid UTF-8: byte N is \xNN".
std::string utf8_problem(std::string_view text);

// "" when no array or object nests deeper than `max_depth` (strings skipped), else the reason with the byte.
std::string nesting_problem(std::string_view text, int max_depth = kMaxInputDepth);

}  // namespace bc
