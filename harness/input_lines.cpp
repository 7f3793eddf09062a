#include "harness/input_lines.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

#include "harness/utf8.h"

namespace bc {

namespace {

std::string too_long(std::size_t bytes) {
  return "too long: " + std::to_string(bytes) + " bytes, over the limit of " + std::to_string(kMaxInputBytes) + " bytes";
}

}  // namespace

std::string read_input_lines(const std::string& path, const LineFunction& each, const LineFunction& refuse) {
  const std::string name = visible_utf8(path);
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return name + ":0: cannot open the file: no such file";
  if (std::filesystem::is_directory(status)) return name + ":0: cannot read it: a directory, not a file";
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return name + ":0: cannot open the file: " + (errno ? std::strerror(errno) : "unknown reason");
  // Room for the longest line allowed and its \r; a longer line fills it and is skipped up to its newline.
  std::vector<char> buffer(kMaxInputBytes + 2);
  for (int n = 1;; ++n) {
    in.getline(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::size_t got = static_cast<std::size_t>(in.gcount());
    if (in.bad()) return name + ":0: read failed: " + (errno ? std::strerror(errno) : "unknown reason");
    if (got == 0 && in.eof()) break;
    if (in.fail()) {  // the buffer is full and the line goes on
      in.clear();
      in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
      const std::size_t rest = static_cast<std::size_t>(in.gcount()) - (in.eof() ? 0 : 1);
      refuse(n, too_long(got + rest));
      continue;
    }
    std::string line(buffer.data(), got - (in.eof() ? 0 : 1));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.size() > kMaxInputBytes) refuse(n, too_long(line.size()));
    else if (line.find_first_not_of(" \t\r") != std::string::npos) each(n, line);
  }
  return "";
}

std::string utf8_problem(std::string_view text) {
  const auto at = first_invalid_utf8(text);
  if (!at) return "";
  return "not valid UTF-8: byte " + std::to_string(*at + 1) + " is " + visible_utf8(text.substr(*at, 1));
}

std::string nesting_problem(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (ch == '\\') escaped = true;
      else if (ch == '"') in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      if (++depth > max_depth)
        return "arrays and objects nest deeper than the limit of " + std::to_string(max_depth) + " levels (at byte " +
               std::to_string(i + 1) + ")";
    } else if (ch == ']' || ch == '}') {
      depth = std::max(0, depth - 1);
    }
  }
  return "";
}

nlohmann::json parse_input_json(std::string_view text) {
  if (text.size() > kMaxInputBytes) throw InputError(too_long(text.size()));
  for (const std::string& problem : {utf8_problem(text), nesting_problem(text)})
    if (!problem.empty()) throw InputError(problem);
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {  // bad syntax, or a number beyond double (out_of_range 406)
    throw InputError(std::string("not valid JSON: ") + e.what());
  }
}

}  // namespace bc
