#include "harness/message_catalog.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <string_view>

#include "harness/implementations.h"

namespace bc {
namespace {

bool word_at(const std::string& s, size_t at, std::string_view word) {
  // The first character first: this runs for every dtype name at every position of every error message of a run.
  if (word.empty() || at >= s.size() || s[at] != word[0] || std::string_view(s).substr(at, word.size()) != word)
    return false;
  const auto edge = [&](size_t k) { return k >= s.size() || !(std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '_'); };
  return (at == 0 || edge(at - 1)) && edge(at + word.size());
}

// LibTorch's and NumPy's dtype names, as their messages spell them.
constexpr std::string_view kDtypeNames[] = {"Float", "Double", "Long", "Int", "Short", "Char", "Byte", "Bool", "Half", "BFloat16",
                                   "float32", "float64", "int64", "int32", "int16", "int8", "uint8", "bool", "float16"};

void add_sorted(std::vector<std::string>& list, const std::string& x) {
  auto at = std::lower_bound(list.begin(), list.end(), x);
  if (at == list.end() || *at != x) list.insert(at, x);
}

}  // namespace

std::string message_pattern(const std::string& message, Op op) {
  const std::string name = to_string(op), base = to_string(out_of_place(op));
  std::string out;
  out.reserve(message.size());
  for (size_t k = 0; k < message.size();) {
    const char ch = message[k];
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      while (k < message.size() && std::isdigit(static_cast<unsigned char>(message[k]))) ++k;
      out += 'N';
      continue;
    }
    if (ch == '[' || ch == '(') {  // a list of sizes: [2, 3], [], [-1], NumPy's (2,) and (2,3)
      const char close = ch == '[' ? ']' : ')';
      size_t end = k + 1;
      bool comma = false;
      while (end < message.size()) {
        const char x = message[end];
        if (word_at(message, end, "newaxis")) {  // NumPy's remapped shapes: (2,3,newaxis)
          end += 7;
        } else if (std::isdigit(static_cast<unsigned char>(x)) || x == ',' || x == ' ' || x == '-') {
          comma = comma || x == ',';
          ++end;
        } else {
          break;
        }
      }
      // A parenthesis is a size list only with a comma: "(2)" in LibTorch's text is one size, "()" a call.
      if (end < message.size() && message[end] == close && (ch == '[' || comma)) {
        out += ch == '[' ? "[...]" : "(...)";
        k = end + 1;
        continue;
      }
    }
    // A name is masked only where a word starts (word_at's own left edge), so other positions skip the names.
    const bool word_start =
        k == 0 || !(std::isalnum(static_cast<unsigned char>(message[k - 1])) || message[k - 1] == '_');
    bool masked = false;
    for (size_t n = 0; word_start && !masked && n < std::size(kDtypeNames); ++n)
      if (word_at(message, k, kDtypeNames[n])) {
        out += 'T';
        k += kDtypeNames[n].size();
        masked = true;
      }
    if (word_start && !masked && (word_at(message, k, name) || word_at(message, k, base))) {
      out += "OP";
      k += word_at(message, k, name) ? name.size() : base.size();
      masked = true;
    }
    if (masked) continue;
    out += ch;
    ++k;
  }
  return out;
}

const std::string& MessageCatalog::pattern_of(const std::string& message, Op op) {
  key_.assign(to_string(op)).append("\n").append(message);
  auto it = patterns_.find(key_);
  if (it != patterns_.end()) return it->second;
  if (patterns_.size() >= kRemembered) patterns_.clear();
  return patterns_.emplace(key_, message_pattern(message, op)).first->second;
}

void MessageCatalog::add(Op op, const Outcomes& outcomes) {
  const std::string documents = name_with_role(Role::document);
  for (const auto& [name, o] : outcomes) {
    if (!o.error || o.error->message.empty() || name == documents || name.find(" unfused") != std::string::npos)
      continue;
    const std::string& pattern = pattern_of(o.error->message, op);
    MessageVariant& v = texts_[name][to_string(o.error->kind)][pattern];
    // The smallest text as the example, so that shards merge into what one process writes.
    if (v.pattern.empty() || o.error->message < v.example) v.example = o.error->message;
    v.pattern = pattern;
    add_sorted(v.ops, to_string(op));
    ++v.cases;
  }
}

void MessageCatalog::merge(const MessageCatalog& other) {
  for (const auto& [name, kinds] : other.texts_)
    for (const auto& [kind, patterns] : kinds)
      for (const auto& [pattern, theirs] : patterns) {
        MessageVariant& v = texts_[name][kind][pattern];
        if (v.pattern.empty() || theirs.example < v.example) v.example = theirs.example;
        v.pattern = theirs.pattern;
        for (const std::string& op : theirs.ops) add_sorted(v.ops, op);
        v.cases += theirs.cases;
      }
}

std::vector<MessageInconsistency> MessageCatalog::inconsistencies() const {
  std::vector<MessageInconsistency> out;
  for (const auto& [name, kinds] : texts_)
    for (const auto& [kind, patterns] : kinds) {
      if (patterns.size() < 2) continue;
      MessageInconsistency m{name, kind, {}};
      for (const auto& [pattern, v] : patterns) m.variants.push_back(v);
      out.push_back(m);
    }
  return out;
}

nlohmann::json MessageCatalog::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, kinds] : texts_)
    for (const auto& [kind, patterns] : kinds)
      for (const auto& [pattern, v] : patterns)
        j[name][kind].push_back({{"pattern", v.pattern}, {"ops", v.ops}, {"example", v.example}, {"cases", v.cases}});
  return j;
}

MessageCatalog MessageCatalog::from_json(const nlohmann::json& j) {
  MessageCatalog c;
  for (auto name = j.begin(); name != j.end(); ++name)
    for (auto kind = name.value().begin(); kind != name.value().end(); ++kind)
      for (const nlohmann::json& v : kind.value()) {
        MessageVariant& m = c.texts_[name.key()][kind.key()][v.at("pattern").get<std::string>()];
        m = {v.at("pattern").get<std::string>(), v.at("ops").get<std::vector<std::string>>(),
             v.at("example").get<std::string>(), v.at("cases").get<long>()};
      }
  return c;
}

}  // namespace bc
