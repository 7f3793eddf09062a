// Texts as words for /bin/sh: shell_quote always quotes (in single quotes, each ' written as '\'': "it's" ->
// 'it'\''s'); shell_word leaves a word the shell reads literally as it is; shell_words joins a command line.
#pragma once

#include <string>
#include <vector>

namespace bc {

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// `s` as is when it is not empty and holds only letters, digits and _@%+=:,./- (which /bin/sh takes literally
// after the first word), else shell_quote(s).
inline std::string shell_word(const std::string& s) {
  const bool plain = !s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                       "0123456789_@%+=:,./-") == std::string::npos;
  return plain ? s : shell_quote(s);
}

// The words as one command line that /bin/sh splits back into exactly these words.
inline std::string shell_words(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + shell_word(w);
  return out;
}

}  // namespace bc
