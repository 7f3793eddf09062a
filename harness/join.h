// Texts joined with a separator: join({"a", "b"}, ", ") is "a, b"; no parts give "".
#pragma once

#include <string>
#include <vector>

namespace bc {

inline std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (size_t k = 0; k < parts.size(); ++k) out += (k ? separator : "") + parts[k];
  return out;
}

}  // namespace bc
