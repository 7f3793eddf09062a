#include "harness/input_lines.h"

#include <filesystem>
#include <fstream>

#include "harness/utf8.h"

namespace bc {

std::string read_input_lines(const std::string& path, const std::function<void(int, const std::string&)>& each) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return visible_utf8(path) + ":0: cannot open the file: no such file";
  if (std::filesystem::is_directory(status)) return visible_utf8(path) + ":0: cannot read it: a directory, not a file";
  std::ifstream in(path, std::ios::binary);
  if (!in) return visible_utf8(path) + ":0: cannot open the file";
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    each(n, line);
  }
  if (in.bad()) return visible_utf8(path) + ":0: read failed";
  return "";
}

std::string utf8_problem(std::string_view text) {
  const auto at = first_invalid_utf8(text);
  if (!at) return "";
  return "not valid UTF-8: byte " + std::to_string(*at + 1) + " is " + visible_utf8(text.substr(*at, 1));
}

}  // namespace bc
