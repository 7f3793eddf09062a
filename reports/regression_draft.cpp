#include "reports/regression_draft.h"

#include "reports/html_text.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "harness/judge.h"
#include "harness/implementations.h"

namespace bc {
namespace {

// The implementation's own reproduction of the case, asserting `want`, under a comment saying what it gave.
std::string reproduction(const std::string& who, const Case& c, const Outcome& want, const std::string& name) {
  const Implementation* impl = find_implementation(who);
  if (!impl || !impl->reproduction) return "// No reproduction without broadcheck for " + who + ".\n";
  return impl->reproduction(c, want, name);
}

}  // namespace

std::string regression_draft(const CaseRecord& m) {
  const Judgement& j = m.judgement;
  if (j.verdict == Verdict::agree) return "";
  const std::string rule_name = name_with_role(Role::rule), reference_name = name_with_role(Role::reference);
  const Outcome* rule = find_outcome(m.outcomes, rule_name);
  const Outcome* reference = find_outcome(m.outcomes, reference_name);
  std::string name;
  for (char ch : m.property + "_" + to_string(m.c.op))
    name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  std::string out = fmt::format("// broadcheck finding: {}\n// case: {}\n", j.signature, json_text(to_json(m.c)));
  if (j.odd_ones == std::vector<std::string>{"document"} && m.c.expect) {
    out += "// The case's expectation is the document's claim; " + title_of(reference_name) + " does otherwise.\n";
    return out + reproduction(reference_name, m.c, expected_outcome(*m.c.expect), name);
  }
  if (!rule) return out + "// No outcome of the rule (" + rule_name + ") to state the rule with.\n";
  // When the rule alone departs, the libraries are the reference: the draft is a test of the rule's implementation.
  const bool rule_alone = j.odd_ones == std::vector<std::string>{rule_name};
  bool any = false;
  for (const auto& [who, o] : m.outcomes) {
    if (rule_alone) break;
    // An implementation the judge names as departing (on values or gradients too), or whose outcome differs in kind.
    if (who == rule_name || !find_implementation(who) || o.status == Status::unsupported) continue;
    const bool odd = std::find(j.odd_ones.begin(), j.odd_ones.end(), who) != j.odd_ones.end();
    if (!odd && summarize(o) == summarize(*rule)) continue;
    out += "\n// " + who + " gives " + summarize(o) + (o.error ? " (\"" + o.error->message + "\")" : "") + "\n";
    out += reproduction(who, m.c, *rule, name);
    any = true;
  }
  if (any) return out;
  // The rule departs (or only its message does): a test holding it to the reference.
  std::string rule_title = title_of(rule_name);
  rule_title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(rule_title[0])));
  out += "\n// " + rule_title + " departs from " + (reference ? title_of(reference_name) + ", the reference" : "the others") +
         ".\n";
  return out + reproduction(rule_name, m.c, reference ? *reference : *rule, name);
}

}  // namespace bc
