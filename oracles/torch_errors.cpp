#include "oracles/torch_errors.h"

#include "engine/error_texts.h"

namespace bc {

namespace {

using Pattern = std::pair<std::string, ErrorKind>;

// The fixed leading text of each classified template (engine/error_texts.cpp), in the table's order, then the
// LibTorch messages the engine never produces.
std::vector<Pattern> make_patterns() {
  std::vector<Pattern> patterns;
  for (const ErrorTemplate& t : error_templates())
    if (t.classified) patterns.emplace_back(fixed_prefix(t), t.kind);
  // The engine raises no error for a negative size: LibTorch's empty() refuses it.
  patterns.emplace_back("Trying to create tensor with negative dimension", ErrorKind::invalid_argument);
  return patterns;
}

}  // namespace

const std::vector<std::pair<std::string, ErrorKind>>& torch_message_patterns() {
  static const std::vector<Pattern> patterns = make_patterns();
  return patterns;
}

ErrorKind classify_torch_message(Family family, const std::string& message) {
  for (const auto& [prefix, kind] : torch_message_patterns())
    if (message.rfind(prefix, 0) == 0) return kind;
  if (family == Family::sum_to) return ErrorKind::sum_to;
  return ErrorKind::other;
}

}  // namespace bc
