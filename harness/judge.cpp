#include "harness/judge.h"

#include "harness/implementations.h"
#include "harness/join.h"
#include "harness/tolerance.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace bc {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::agree: return "agree";
    case Verdict::discrepancy: return "discrepancy";
    case Verdict::known: return "known";
    case Verdict::expect_failed: return "expect_failed";
  }
  return "agree";
}

const Outcome* find_outcome(const Outcomes& outcomes, const std::string& name) {
  for (const auto& [n, o] : outcomes)
    if (n == name) return &o;
  return nullptr;
}

Outcome expected_outcome(const Expectation& e) {
  if (e.shape) return Outcome::success(*e.shape);
  Outcome o;
  o.status = Status::error;
  if (e.error) o.error = Error{*e.error, e.message.value_or("")};
  return o;
}

namespace {

// A signature must not depend on sizes, so that many raw cases of one bug share it: status and error kind only.
std::string outcome_class(const Outcome& o) {
  if (o.status == Status::error) return std::string("error:") + (o.error ? to_string(o.error->kind) : "other");
  return to_string(o.status);
}

std::string make_signature(const std::string& property, const Case& c, const std::string& difference,
                           const std::vector<std::string>& odd, const Outcomes& voters) {
  const OpEntry* op = find_op(c.op);
  std::vector<std::string> classes;
  for (const auto& [name, o] : voters) classes.push_back(name + "=" + outcome_class(o));
  return property + " | " + (op ? std::string(to_string(op->family)) : c.op) + " | " + difference + " | odd: " + join(odd, ",") + " | " +
         join(classes, " ");
}

// Which voters are the odd ones out, given each voter's class (voters with equal classes agree): everyone outside
// the group that holds more than half of the voters; with no such group, everyone, and the sentence says so.
std::pair<std::vector<std::string>, std::string> attribute(const std::vector<std::pair<std::string, std::string>>& classes) {
  std::map<std::string, std::vector<std::string>> groups;
  for (const auto& [name, key] : classes) groups[key].push_back(name);
  std::vector<std::string> all, odd;
  for (const auto& [name, key] : classes) all.push_back(name);
  for (const auto& [key, names] : groups) {
    if (2 * names.size() <= classes.size()) continue;
    for (const auto& [name, k] : classes)
      if (k != key) odd.push_back(name);
    const std::string who = join(odd, " and ");
    return {odd, who + (odd.size() == 1 ? " is the odd one out" : " are the odd ones out")};
  }
  if (classes.size() == 2) return {all, all[0] + " and " + all[1] + " differ (no third opinion)"};
  if (groups.size() == classes.size()) return {all, "all " + std::to_string(classes.size()) + " differ"};
  return {all, "no majority among " + std::to_string(classes.size()) + " implementations"};
}

std::pair<std::vector<std::string>, std::string> attribute(const Outcomes& voters) {
  std::vector<std::pair<std::string, std::string>> classes;
  for (const auto& [name, o] : voters) classes.emplace_back(name, summarize(o));
  return attribute(classes);
}

const Declaration* find_declaration(const std::vector<Declaration>& decls, const Case& c, const std::string& oracle,
                                    const std::string& on, const Outcome& expected, const Outcome& actual) {
  const std::string difference = first_difference(expected, actual);
  for (const Declaration& d : decls)
    if (d.oracle == oracle && d.on == on && d.covers(c) && d.expected.matches(expected) && d.actual.matches(actual) &&
        (d.difference.empty() || d.difference == difference))
      return &d;
  return nullptr;
}

bool expectation_holds(const Expectation& e, const Outcome& o) {
  if (e.shape) {
    if (o.status != Status::ok || o.shape != *e.shape) return false;
    for (size_t k = 0; k < e.grads.size(); ++k) {
      const std::optional<Grad> got = k < o.grads.size() ? o.grads[k] : std::nullopt;
      if (e.grads[k].has_value() != got.has_value()) return false;
      if (!got) continue;
      if (got->shape != e.grads[k]->shape) return false;
      const DType t = dtype_from_string(got->dtype).value_or(DType::float64);
      if (!e.grads[k]->values.empty() && compare_values(e.grads[k]->values, got->values, t, got->shape)) return false;
    }
    return true;
  }
  if (o.status != Status::error) return false;
  if (e.error && (!o.error || o.error->kind != *e.error)) return false;
  if (e.message && (!o.error || o.error->message != *e.message)) return false;
  return true;
}

// One way in which a case departs from agreement, and whether declarations explain it.
struct Departure {
  std::string difference;
  std::vector<std::string> odd_ones;
  std::string attribution;
  std::vector<std::string> known_ids;  // empty: unexplained
  Verdict unexplained_verdict;
};

// 1. Outcomes, compared field by field in the fixed order. The engine states the rule, so each implementation
// that departs from the engine needs a declaration for exactly that departure. When the engine stands alone
// against libraries that agree with each other, their declarations do not explain it (that is how an engine bug
// looks); only a declaration for the engine itself does.
std::optional<Departure> outcome_departure(const Case& c, const Outcomes& voters,
                                           const std::vector<Declaration>& declarations) {
  std::string difference;
  for (size_t i = 1; i < voters.size() && difference.empty(); ++i)
    difference = first_difference(voters[0].second, voters[i].second);
  if (difference.empty()) return std::nullopt;
  Departure d{difference, {}, "", {}, Verdict::discrepancy};
  std::tie(d.odd_ones, d.attribution) = attribute(voters);
  const std::string rule_name = name_with_role(Role::rule);
  const Outcome* rule = find_outcome(voters, rule_name);
  if (!rule) return d;
  if (d.odd_ones == std::vector<std::string>{rule_name}) {
    const Outcome* majority = nullptr;
    for (const auto& [name, o] : voters)
      if (name != rule_name && !majority) majority = &o;
    if (const Declaration* decl = find_declaration(declarations, c, rule_name, "outcome", *majority, *rule))
      d.known_ids = {decl->id};
    return d;
  }
  std::vector<std::string> ids;
  for (const auto& [name, o] : voters) {
    if (summarize(o) == summarize(*rule)) continue;
    const Declaration* decl = find_declaration(declarations, c, name, "outcome", *rule, o);
    if (!decl) return d;
    ids.push_back(decl->id);
  }
  d.known_ids = ids;
  return d;
}

// Numbers (result values, or one input's gradients) from several implementations, compared pairwise within the
// dtype's tolerance: an implementation far from all the others, while those agree, is the odd one out.
struct Numbers {
  std::string name;
  const Values* values;
};
std::optional<Departure> numbers_departure(const std::string& label, const std::vector<Numbers>& voters, Tolerance tol,
                                           const Shape& shape) {
  const size_t n = voters.size();
  std::vector<std::vector<bool>> far(n, std::vector<bool>(n, false));
  std::string first_text;
  for (size_t i = 0; i < n; ++i)
    for (size_t k = i + 1; k < n; ++k)
      if (auto m = compare_values(*voters[i].values, *voters[k].values, tol, shape)) {
        far[i][k] = far[k][i] = true;
        if (first_text.empty()) first_text = voters[k].name + " against " + voters[i].name + ": " + m->text;
      }
  if (first_text.empty()) return std::nullopt;
  // Closeness is not transitive: the majority is the voters close to the voter that is close to the most (more
  // than half of them, itself included); the rest are the odd ones out.
  size_t centre = 0, best = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t close = 0;
    for (size_t k = 0; k < n; ++k) close += !far[i][k];
    if (close > best) best = close, centre = i;
  }
  std::vector<std::string> odd;
  if (2 * best > n)
    for (size_t k = 0; k < n; ++k)
      if (far[centre][k]) odd.push_back(voters[k].name);
  Departure d{label, odd, "", {}, Verdict::discrepancy};
  if (odd.empty())
    for (const Numbers& v : voters) d.odd_ones.push_back(v.name);
  const std::string who = join(odd, " and ") + (odd.size() == 1 ? " is the odd one out (" : " are the odd ones out (");
  d.attribution = (odd.empty() ? "the " + label + " differ (" : who) + first_text + ")";
  return d;
}

// Whether every voter returned a result of one shape and dtype (values and gradients are compared only then).
bool all_ok_alike(const Outcomes& voters) {
  for (const auto& [name, o] : voters)
    if (o.status != Status::ok || !first_difference(voters[0].second, o).empty()) return false;
  return !voters.empty();
}

// Which declarations explain a difference in numbers (on = "values" or "grads"). As for outcomes, the engine states
// the rule: an engine far from libraries that agree needs an engine declaration; otherwise every implementation
// far from the engine needs its own (with two voters, the one that is not the engine).
std::vector<std::string> explain_numbers(const std::string& on, const Case& c, const Outcomes& voters,
                                         const std::vector<Numbers>& numbers, Tolerance tol, const Shape& shape,
                                         const Departure& d, const std::vector<Declaration>& declarations) {
  const std::string rule_name = name_with_role(Role::rule);
  const Outcome* rule = find_outcome(voters, rule_name);
  const Values* rule_numbers = nullptr;
  for (const Numbers& n : numbers)
    if (n.name == rule_name) rule_numbers = n.values;
  if (!rule || !rule_numbers) return {};
  if (d.odd_ones == std::vector<std::string>{rule_name}) {
    const Outcome* reference = find_outcome(voters, name_with_role(Role::reference));
    const Declaration* decl = reference ? find_declaration(declarations, c, rule_name, on, *reference, *rule) : nullptr;
    return decl ? std::vector<std::string>{decl->id} : std::vector<std::string>{};
  }
  std::vector<std::string> ids;
  for (const Numbers& n : numbers) {
    if (n.name == rule_name || !compare_values(*rule_numbers, *n.values, tol, shape)) continue;
    const Declaration* decl = find_declaration(declarations, c, n.name, on, *rule, *find_outcome(voters, n.name));
    if (!decl) return {};
    ids.push_back(decl->id);
  }
  return ids;
}

// 1b. Values, when the case has them.
std::optional<Departure> values_departure(const Case& c, const Outcomes& voters,
                                          const std::vector<Declaration>& declarations) {
  if (!c.values || voters.size() < 2 || !all_ok_alike(voters)) return std::nullopt;
  std::vector<Numbers> numbers;
  for (const auto& [name, o] : voters) numbers.push_back({name, &o.values});
  const DType dtype = dtype_from_string(voters[0].second.dtype).value_or(DType::float64);
  const Tolerance tol = tolerance_for(dtype);
  std::optional<Departure> d = numbers_departure("values", numbers, tol, voters[0].second.shape);
  if (d) d->known_ids = explain_numbers("values", c, voters, numbers, tol, voters[0].second.shape, *d, declarations);
  return d;
}

// 1c. Gradients, in a gradient case, among the implementations that succeeded and computed them (their forward
// dtypes may differ: gradients take their inputs' dtypes): each has exactly its input's shape and dtype (the rule,
// held against every implementation), they agree on which inputs got one, and on values.
std::optional<Departure> grads_departure(const Case& c, const Outcomes& all,
                                         const std::vector<Declaration>& declarations) {
  if (!is_gradient_case(c)) return std::nullopt;
  Outcomes voters;
  for (const auto& entry : all) {
    if (entry.second.status != Status::ok) return std::nullopt;
    if (entry.second.grads.size() == c.shapes.size()) voters.push_back(entry);
  }
  std::vector<std::string> misshapen;
  for (const auto& [name, o] : voters)
    for (size_t k = 0; k < o.grads.size(); ++k)
      if (o.grads[k] && (o.grads[k]->shape != c.shapes[k] || o.grads[k]->dtype != to_string(dtype_of(c, k)))) {
        misshapen.push_back(name);
        break;
      }
  if (!misshapen.empty())
    return Departure{"grad shape", misshapen, join(misshapen, " and ") + " returned a gradient whose shape or dtype is not its input's", {}, Verdict::discrepancy};
  std::vector<std::pair<std::string, std::string>> classes;
  for (const auto& [name, o] : voters) classes.emplace_back(name, summarize_grads(o));
  Departure d{"grads", attribute(classes).first, "", {}, Verdict::discrepancy};
  if (std::any_of(classes.begin(), classes.end(), [&](const auto& k) { return k.second != classes[0].second; })) {
    d.attribution = "they disagree on which inputs get a gradient: " + join(d.odd_ones, ", ");
    return d;
  }
  std::vector<DType> dtypes;
  for (size_t k = 0; k < c.shapes.size(); ++k) dtypes.push_back(dtype_of(c, k));
  const int64_t result_numel = numel(voters.empty() ? Shape{} : voters[0].second.shape);
  for (size_t k = 0; voters.size() >= 2 && k < c.shapes.size(); ++k) {
    if (!voters[0].second.grads[k]) continue;
    std::vector<Numbers> numbers;
    for (const auto& [name, o] : voters) numbers.push_back({name, &o.grads[k]->values});
    const int64_t summed = numel(c.shapes[k]) > 0 ? result_numel / numel(c.shapes[k]) : 1;
    const Tolerance tol = gradient_tolerance(dtypes, summed);
    if (auto d = numbers_departure("grad values", numbers, tol, c.shapes[k])) {
      d->attribution += " [gradient of operand " + std::to_string(k) + "]";
      d->known_ids = explain_numbers("grads", c, voters, numbers, tol, c.shapes[k], *d, declarations);
      return d;
    }
  }
  return std::nullopt;
}

// 2. Messages: the rule's implementation formats them as the reference does, so the texts must be equal.
std::optional<Departure> message_departure(const Case& c, const Outcomes& voters,
                                           const std::vector<Declaration>& declarations) {
  const std::string rule_name = name_with_role(Role::rule), reference_name = name_with_role(Role::reference);
  const Outcome* rule = find_outcome(voters, rule_name);
  const Outcome* reference = find_outcome(voters, reference_name);
  if (!rule || !reference || !rule->error || !reference->error || rule->error->kind != reference->error->kind ||
      rule->error->message == reference->error->message)
    return std::nullopt;
  Departure d{"message", {rule_name}, title_of(rule_name) + "'s message differs from " + title_of(reference_name) +
              "'s, the reference for text", {}, Verdict::discrepancy};
  if (const Declaration* decl = find_declaration(declarations, c, rule_name, "message", *reference, *rule))
    d.known_ids = {decl->id};
  return d;
}

// 3. The case's own expectation (a seed document's worked example, or an earlier finding), held against the
// reference for behaviour (the rule's implementation when the reference did not run the case). Differences among
// the implementations are step 1's business; this step speaks of the document only.
std::optional<Departure> expectation_departure(const Case& c, const Outcomes& voters,
                                               const std::vector<Declaration>& declarations) {
  if (!c.expect || voters.empty()) return std::nullopt;
  const std::string rule_name = name_with_role(Role::rule), reference_name = name_with_role(Role::reference);
  const Outcome* reference = find_outcome(voters, reference_name);
  const Outcome* rule = find_outcome(voters, rule_name);
  const Outcome& agreed = reference ? *reference : rule ? *rule : voters[0].second;
  if (expectation_holds(*c.expect, agreed)) return std::nullopt;
  Expectation without_message = *c.expect;
  without_message.message.reset();
  const bool message_only = expectation_holds(without_message, agreed);
  const std::string who = title_of(reference ? reference_name : rule ? rule_name : voters[0].first);
  Departure d{message_only ? "expected message" : "expectation", {"document"},
              message_only ? who + "'s message is not the one the case expects" : who + " does not do what the case expects",
              {}, Verdict::expect_failed};
  if (const Declaration* decl = find_declaration(declarations, c, "document", message_only ? "message" : "outcome",
                                                 expected_outcome(*c.expect), agreed))
    d.known_ids = {decl->id};
  // The document states the rule and the rule's implementation keeps it; the reference's declared departure from
  // it explains why the reference does not meet the expectation (the document is not wrong).
  if (d.known_ids.empty() && reference && rule && !message_only && expectation_holds(*c.expect, *rule))
    if (const Declaration* decl = find_declaration(declarations, c, reference_name, "outcome", *rule, *reference)) {
      d.known_ids = {decl->id};
      d.odd_ones = {reference_name};
      d.attribution = who + " does not do what the document says, as declared; " + title_of(rule_name) + " does";
    }
  return d;
}

}  // namespace

Judgement judge(const std::string& property, const Case& c, const Outcomes& outcomes,
                const std::vector<Declaration>& declarations) {
  Judgement j;
  Outcomes voters;
  for (const auto& entry : outcomes)
    if (entry.second.status != Status::unsupported) voters.push_back(entry);
  std::vector<Departure> found;
  for (auto step : {outcome_departure, values_departure, grads_departure, message_departure, expectation_departure})
    if (auto d = step(c, voters, declarations)) found.push_back(*d);
  if (found.empty()) return j;
  // The verdict is that of the first unexplained departure; when all are explained, the case is known.
  const Departure* lead = &found.front();
  for (const Departure& d : found)
    if (d.known_ids.empty()) {
      lead = &d;
      break;
    }
  std::vector<std::string> ids;
  for (const Departure& d : found)
    for (const std::string& id : d.known_ids)
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  j.verdict = lead->known_ids.empty() ? lead->unexplained_verdict : Verdict::known;
  j.difference = lead->difference;
  j.odd_ones = lead->odd_ones;
  j.attribution = lead->attribution;
  j.known_id = join(ids, ",");
  j.signature = make_signature(property, c, lead->difference, lead->odd_ones, voters);
  return j;
}

}  // namespace bc
