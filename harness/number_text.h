// Strict reading of the numbers on the command line and in reproduce tokens.
//
// Contract: each function accepts exactly the decimal digits of a number in its range (the double form also a
// decimal point and an exponent) with nothing before or after: no sign where a sign makes no sense, no spaces,
// no hex or octal prefix, no "nan" or "inf", no value that overflows. It returns nullopt otherwise; the caller
// says what it wanted.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace bc {

std::optional<uint64_t> parse_uint64(std::string_view text);     // 0 .. 18446744073709551615
std::optional<long> parse_count(std::string_view text);          // 0 .. LONG_MAX
std::optional<double> parse_positive_seconds(std::string_view text);  // finite and > 0

}  // namespace bc
