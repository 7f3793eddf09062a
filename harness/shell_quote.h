// A text as one word for /bin/sh: in single quotes, each ' written as '\'' ("it's" -> 'it'\''s').
#pragma once

#include <string>

namespace bc {

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

}  // namespace bc
