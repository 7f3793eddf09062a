// The texts each implementation gives for one check across ops. A library should word one check (an error kind)
// the same way whichever op meets it; where it does not, that is a message finding of its own, of low severity and
// never a failure (docs/notes/judge.md, "Classes"). Sizes, dtype names and the op's own name are masked first, so
// that only the wording counts.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/judge.h"

namespace bc {

// One wording of a check: its masked pattern, the ops that gave it (sorted), the smallest message as given, and how
// often.
struct MessageVariant {
  std::string pattern;
  std::vector<std::string> ops;
  std::string example;
  long cases = 0;
};

// An implementation that words one error kind in more than one way.
struct MessageInconsistency {
  std::string implementation;
  std::string kind;
  std::vector<MessageVariant> variants;  // by pattern
};

// `message` with its digits as N, size lists as [...] or (...), dtype names as T and the op (without a trailing
// underscore) as OP.
std::string message_pattern(const std::string& message, Op op);

class MessageCatalog {
 public:
  // Every error outcome with a message (the documents' answers aside: their texts are ours).
  void add(Op op, const Outcomes& outcomes);
  void merge(const MessageCatalog& other);
  std::vector<MessageInconsistency> inconsistencies() const;
  nlohmann::json to_json() const;
  static MessageCatalog from_json(const nlohmann::json& j);

 private:
  // The pattern of `message` given by `op`, remembered: a run meets the same few texts many thousands of times.
  const std::string& pattern_of(const std::string& message, Op op);

  // implementation -> kind -> pattern -> variant
  std::map<std::string, std::map<std::string, std::map<std::string, MessageVariant>>> texts_;
  // op + "\n" + message -> message_pattern(message, op); emptied when it reaches kRemembered texts, so that memory
  // stays flat however many different texts a long run meets.
  std::unordered_map<std::string, std::string> patterns_;
  std::string key_;  // reused, not allocated per message
  static constexpr size_t kRemembered = 1 << 14;
};

}  // namespace bc
