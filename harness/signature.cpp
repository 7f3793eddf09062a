#include "harness/signature.h"

#include <algorithm>

#include "harness/join.h"

namespace bc {

std::string make_signature(const SignatureParts& parts) {
  std::string out = parts.property + " | " + parts.family + " | " + parts.difference;
  if (parts.odd_ones) out += " | odd: " + join(*parts.odd_ones, parts.odd_separator) + " | " + parts.closing;
  return out;
}

std::string family_of(const Case& c) {
  return to_string(entry(c.op).family);
}

std::string signature_without_outcomes(const std::string& signature) {
  const size_t bar = signature.rfind(" | ");
  if (bar == std::string::npos) return signature;
  const std::string last = signature.substr(bar + 3);
  size_t at = 0;
  while (at < last.size()) {  // each token "name=class", neither part empty
    const size_t end = std::min(last.find(' ', at), last.size()), eq = last.find('=', at);
    if (eq == std::string::npos || eq == at || eq + 1 >= end) return signature;
    at = end + 1;
  }
  return last.empty() ? signature : signature.substr(0, bar);
}

}  // namespace bc
