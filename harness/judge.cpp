#include "harness/judge.h"

#include "harness/implementations.h"
#include "harness/join.h"
#include "harness/judge_numbers.h"
#include "harness/outcome_selection.h"
#include "harness/signature.h"
#include "harness/tolerance.h"

#include <algorithm>
#include <cstring>
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

const char* to_string(FindingClass k) {
  switch (k) {
    case FindingClass::outcome: return "outcome";
    case FindingClass::document: return "document";
    case FindingClass::message: return "message";
    case FindingClass::zeros: return "zeros";
  }
  return "outcome";
}

bool operator==(const Difference& a, const Difference& b) {
  return a.component == b.component && a.finding_class == b.finding_class && a.operand == b.operand &&
         a.odd_ones == b.odd_ones && a.attribution == b.attribution && a.known_ids == b.known_ids &&
         a.undeclared == b.undeclared && a.if_undeclared == b.if_undeclared;
}

const Difference* lead_difference(const Judgement& j) {
  for (const Difference& d : j.differences)
    if (d.component == j.difference && d.odd_ones == j.odd_ones) return &d;
  return nullptr;
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

const Declaration* find_declaration(const std::vector<Declaration>& decls, const Case& c, const std::string& oracle,
                                    const std::string& on, const std::string& component, const Outcome& expected,
                                    const Outcome& actual) {
  for (const Declaration& d : decls)
    if (d.oracle == oracle && d.on == on && d.covers(c) && d.expected.matches(expected) && d.actual.matches(actual) &&
        d.explains(component))
      return &d;
  return nullptr;
}

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

namespace {

// A signature must not depend on sizes, so that many raw cases of one bug share it: status and error kind only.
std::string outcome_class(const Outcome& o) {
  if (o.status == Status::error) return std::string("error:") + (o.error ? to_string(o.error->kind) : "other");
  return to_string(o.status);
}

std::string judge_signature(const std::string& property, const Case& c, const Difference& lead,
                            const OutcomeSelection& voters) {
  std::vector<std::string> classes;
  for (const auto& [name, o] : voters) classes.push_back(name + "=" + outcome_class(o));
  const std::string component = lead.finding_class == FindingClass::zeros ? "signed zeros" : lead.component;
  return make_signature({property, family_of(c), component, lead.odd_ones, join(classes, " ")});
}

// The fields of an outcome that implementations must agree on, each among the outcomes it applies to: the status
// among all; the error kind among those that failed; the signal among those that crashed; shape and dtype among
// those that succeeded. `key` names a field's value for the report; `same` says whether two outcomes have the same
// key without building it (most cases agree in every field).
struct Field {
  const char* name;
  bool (*applies)(const Outcome&);
  std::string (*key)(const Outcome&);
  bool (*same)(const Outcome&, const Outcome&);
};
const char* error_kind_name(const Outcome& o) { return o.error ? to_string(o.error->kind) : "other"; }
const Field kFields[] = {
    {"status", [](const Outcome&) { return true; }, [](const Outcome& o) { return std::string(to_string(o.status)); },
     [](const Outcome& a, const Outcome& b) { return a.status == b.status; }},
    {"error kind", [](const Outcome& o) { return o.status == Status::error; },
     [](const Outcome& o) { return std::string(error_kind_name(o)); },
     [](const Outcome& a, const Outcome& b) { return std::strcmp(error_kind_name(a), error_kind_name(b)) == 0; }},
    {"signal", [](const Outcome& o) { return o.status == Status::crash; }, [](const Outcome& o) { return o.detail; },
     [](const Outcome& a, const Outcome& b) { return a.detail == b.detail; }},
    {"shape", [](const Outcome& o) { return o.status == Status::ok; },
     [](const Outcome& o) { return format_shape(o.shape); },
     [](const Outcome& a, const Outcome& b) { return a.shape == b.shape; }},
    {"dtype", [](const Outcome& o) { return o.status == Status::ok; }, [](const Outcome& o) { return o.dtype; },
     [](const Outcome& a, const Outcome& b) { return a.dtype == b.dtype; }},
    // Whether a call warned (LibTorch's resize of an out= tensor), among those that succeeded; the texts are
    // compared only between the rule and the reference (message_differences), as messages are.
    {"warnings", [](const Outcome& o) { return o.status == Status::ok; },
     [](const Outcome& o) {
       return o.warnings.empty() ? std::string("none") : std::to_string(o.warnings.size()) + " warning(s)";
     },
     [](const Outcome& a, const Outcome& b) { return a.warnings.size() == b.warnings.size(); }},
};

// Declared departures do not vote (docs/notes/judge.md, "Declared departures"), on either side of the rule. Called
// when some voters depart from the rule undeclared: if two or more of them agree with each other, and every voter
// that sides with the rule departs from them in a declared way, then the rule stands alone against the undeclared
// ones and the difference is the rule's (unless a declaration for the rule explains it). Without this, an engine bug
// that looks like a library's declared departure blames the libraries that keep the rule. Voters whose departure
// from the rule is declared are set aside on the other side too: they do not count among the two.
void blame_rule_beside_declared_departures(const Case& c, const OutcomeSelection& voters,
                                           const std::vector<Declaration>& decls, const Field& field,
                                           const Outcome& rule, Difference& d) {
  const std::string rule_name = name_with_role(Role::rule);
  if (d.undeclared.size() < 2) return;  // one voter against one is no majority
  const Outcome& other = *voters.find(d.undeclared[0]);
  for (const std::string& name : d.undeclared)
    if (name == rule_name || !field.same(*voters.find(name), other)) return;  // they do not agree with each other
  std::vector<std::string> beside;
  for (const auto& [name, o] : voters)
    if (name != rule_name && field.applies(o) && field.same(o, rule)) beside.push_back(name);
  if (beside.empty()) return;
  for (const std::string& name : beside)
    if (!find_declaration(decls, c, name, "outcome", field.name, other, *voters.find(name))) return;
  d.odd_ones = {rule_name};
  d.attribution = rule_name + " is the odd one out: only " + join(beside, " and ") +
                  " stand beside it, each in a declared departure";
  d.known_ids.clear();
  d.undeclared.clear();
  if (const Declaration* decl = find_declaration(decls, c, rule_name, "outcome", field.name, other, rule))
    d.known_ids.push_back(decl->id);
  else
    d.undeclared.push_back(rule_name);
}

// 1. The outcomes, field by field. The engine states the rule, so each implementation that departs from the
// engine in a field needs a declaration for that departure. When the engine stands alone against libraries that
// agree with each other, their declarations do not explain it (that is how an engine bug looks); only a
// declaration for the engine itself does. A field the rule has no value for (the error kind when the rule
// succeeded) is a difference among implementations that all departed from the rule's status: it is declared when
// each of their status departures is.
void outcome_differences(const Case& c, const OutcomeSelection& voters, const std::vector<Declaration>& decls,
                         std::vector<Difference>& out) {
  const std::string rule_name = name_with_role(Role::rule);
  const Outcome* rule = voters.find(rule_name);
  for (const Field& field : kFields) {
    // Most cases agree in every field: find that out before naming anyone.
    const Outcome* first = nullptr;
    bool differ = false;
    for (const auto& entry : voters) {
      if (differ || !field.applies(entry.second)) continue;
      if (!first) first = &entry.second;
      else differ = !field.same(entry.second, *first);
    }
    if (!differ) continue;
    std::vector<std::pair<std::string, std::string>> classes;
    for (const auto& [name, o] : voters)
      if (field.applies(o)) classes.emplace_back(name, field.key(o));
    Difference d;
    d.component = field.name;
    std::tie(d.odd_ones, d.attribution) = attribute(classes);
    auto need = [&](const std::string& who, const std::string& component, const Outcome& expected, const Outcome& actual) {
      if (const Declaration* decl = find_declaration(decls, c, who, "outcome", component, expected, actual)) {
        if (std::find(d.known_ids.begin(), d.known_ids.end(), decl->id) == d.known_ids.end()) d.known_ids.push_back(decl->id);
      } else {
        d.undeclared.push_back(who);
      }
    };
    // Each implementation that departs from the rule in this field needs its own declaration.
    auto each_departure = [&] {
      const bool rule_has_field = field.applies(*rule);
      for (const auto& [name, o] : voters) {
        if (name == rule_name || !field.applies(o)) continue;
        if (rule_has_field && field.key(o) == field.key(*rule)) continue;
        need(name, rule_has_field ? field.name : "status", *rule, o);
      }
    };
    if (!rule) {
      d.undeclared = d.odd_ones;
    } else if (d.odd_ones == std::vector<std::string>{rule_name} && 2 * (classes.size() - 1) > voters.size()) {
      // The others agree against the rule, and they are more than half of all the voters: the rule is wrong, unless
      // each of them departs from it in a declared way (declared departures do not vote: docs/notes/judge.md,
      // "Declared departures"), which must not depend on whether an optional voter that keeps the rule took part.
      each_departure();
      if (!d.undeclared.empty() || d.known_ids.empty()) {
        d.known_ids.clear();
        d.undeclared.clear();
        for (const auto& [name, o] : voters)
          if (name != rule_name) {
            need(rule_name, field.name, o, *rule);
            break;
          }
      }
    } else {
      each_departure();
      blame_rule_beside_declared_departures(c, voters, decls, field, *rule, d);
    }
    out.push_back(d);
  }
}

// 2. Messages: the rule's implementation formats them as the reference does, so the texts must be equal.
void message_differences(const Case& c, const OutcomeSelection& voters, const std::vector<Declaration>& decls,
                         std::vector<Difference>& out) {
  const std::string rule_name = name_with_role(Role::rule), reference_name = name_with_role(Role::reference);
  const Outcome* rule = voters.find(rule_name);
  const Outcome* reference = voters.find(reference_name);
  if (!rule || !reference) return;
  auto text_difference = [&](const char* component, const char* what) {
    Difference d{component, FindingClass::message, -1, {rule_name},
                 title_of(rule_name) + "'s " + what + " differs from " + title_of(reference_name) +
                     "'s, the reference for text",
                 {}, {}, Verdict::discrepancy};
    if (const Declaration* decl = find_declaration(decls, c, rule_name, "message", "", *reference, *rule))
      d.known_ids = {decl->id};
    else
      d.undeclared = {rule_name};
    out.push_back(d);
  };
  // The warnings' texts, when both warned as often.
  if (rule->status == Status::ok && reference->status == Status::ok && !rule->warnings.empty() &&
      rule->warnings.size() == reference->warnings.size() && rule->warnings != reference->warnings)
    text_difference("warning text", "warning");
  if (rule->error && reference->error && rule->error->kind == reference->error->kind &&
      rule->error->message != reference->error->message)
    text_difference("message", "message");
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

// 3. The case's own expectation (a seed document's worked example, or an earlier finding), held against the
// reference for behaviour (the rule's implementation when the reference did not run the case). Differences among
// the implementations are the steps above; this step speaks of the document only.
void expectation_differences(const Case& c, const OutcomeSelection& voters, const std::vector<Declaration>& decls,
                             std::vector<Difference>& out) {
  if (!c.expect || voters.empty()) return;
  const std::string rule_name = name_with_role(Role::rule), reference_name = name_with_role(Role::reference);
  const Outcome* reference = voters.find(reference_name);
  const Outcome* rule = voters.find(rule_name);
  const Outcome& agreed = reference ? *reference : rule ? *rule : voters[0].second;
  if (expectation_holds(*c.expect, agreed)) return;
  Expectation without_message = *c.expect;
  without_message.message.reset();
  const bool message_only = expectation_holds(without_message, agreed);
  const std::string who = title_of(reference ? reference_name : rule ? rule_name : voters[0].first);
  Difference d{message_only ? "expected message" : "expectation",
               message_only ? FindingClass::message : FindingClass::outcome, -1, {"document"},
               message_only ? who + "'s message is not the one the case expects" : who + " does not do what the case expects",
               {}, {}, Verdict::expect_failed};
  if (const Declaration* decl = find_declaration(decls, c, "document", message_only ? "message" : "outcome", "",
                                                 expected_outcome(*c.expect), agreed))
    d.known_ids = {decl->id};
  // The document states the rule and the rule's implementation keeps it; the reference's declared departure from
  // it explains why the reference does not meet the expectation (the document is not wrong).
  if (d.known_ids.empty() && reference && rule && !message_only && expectation_holds(*c.expect, *rule))
    if (const Declaration* decl = find_declaration(decls, c, reference_name, "outcome", "", *rule, *reference)) {
      d.known_ids = {decl->id};
      d.odd_ones = {reference_name};
      d.attribution = who + " does not do what the document says, as declared; " + title_of(rule_name) + " does";
    }
  if (d.known_ids.empty()) d.undeclared = {"document"};
  out.push_back(d);
}

// 6. Variants (Role::variant): another path through a library, held against that library's main path alone. Each
// way they differ is the variant's, explained only by a declaration for the variant (measured from its base).
void variant_differences(const Case& c, const Outcomes& outcomes, const std::vector<Declaration>& decls,
                         std::vector<Difference>& out) {
  for (const auto& entry : outcomes) {
    const auto& [name, o] = entry;
    const Implementation* variant = find_implementation(name);
    if (!variant || variant->role != Role::variant || o.status == Status::unsupported) continue;
    const auto base_entry =
        std::find_if(outcomes.begin(), outcomes.end(), [&](const auto& e) { return e.first == variant->base; });
    if (base_entry == outcomes.end() || base_entry->second.status == Status::unsupported) continue;
    const Outcome* base = &base_entry->second;
    OutcomeSelection pair;
    pair.add(*base_entry);
    pair.add(entry);
    std::vector<Difference> found;
    outcome_differences(c, pair, {}, found);
    value_differences(c, pair, {}, found);
    grad_differences(c, pair, {}, found);
    for (Difference& d : found) {
      if (std::find(d.odd_ones.begin(), d.odd_ones.end(), name) == d.odd_ones.end()) continue;  // the base's own
      const bool numbers = d.component == "values" || d.component == "signed zeros";
      const bool grads = d.component.rfind("grad", 0) == 0 || (d.component == "signed zeros" && d.operand >= 0);
      const char* on = grads ? "grads" : numbers ? "values" : "outcome";
      d.odd_ones = {name};
      d.attribution = name + " differs from " + variant->base + ", its library's main path: " + d.attribution;
      d.known_ids.clear();
      d.undeclared.clear();
      if (const Declaration* decl = find_declaration(decls, c, name, on, d.component, *base, o))
        d.known_ids.push_back(decl->id);
      else
        d.undeclared.push_back(name);
      out.push_back(d);
    }
  }
}

// Whether a difference can fail a case: informational ones (signed zeros) only under --strict-zeros.
bool counts(const Difference& d, bool strict_zeros) {
  return d.finding_class != FindingClass::zeros || strict_zeros;
}

void settle(const std::string& property, const Case& c, const OutcomeSelection& voters, bool strict_zeros,
            Judgement& j) {
  const Difference* lead = nullptr;
  for (const Difference& d : j.differences)
    if (counts(d, strict_zeros) && !d.declared()) {
      lead = &d;
      break;
    }
  if (!lead)
    for (const Difference& d : j.differences)
      if (counts(d, strict_zeros)) {
        lead = &d;
        break;
      }
  std::vector<std::string> ids;
  for (const Difference& d : j.differences)
    for (const std::string& id : d.known_ids)
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  j.known_id = join(ids, ",");
  if (!lead) {
    j.verdict = Verdict::agree;
    return;
  }
  j.verdict = lead->declared() ? Verdict::known : lead->if_undeclared;
  j.difference = lead->component;
  j.odd_ones = lead->odd_ones;
  j.attribution = lead->attribution;
  j.signature = judge_signature(property, c, *lead, voters);
}

bool is_variant(const std::string& name) {
  const Implementation* i = find_implementation(name);
  return i && i->role == Role::variant;
}

OutcomeSelection voters_of(const Outcomes& outcomes) {
  OutcomeSelection voters;
  for (const auto& entry : outcomes)
    if (entry.second.status != Status::unsupported && !is_variant(entry.first)) voters.add(entry);
  return voters;
}

}  // namespace

Judgement judge(const std::string& property, const Case& c, const Outcomes& outcomes,
                const std::vector<Declaration>& declarations) {
  Judgement j;
  const OutcomeSelection voters = voters_of(outcomes);
  std::vector<Difference>& found = j.differences;
  outcome_differences(c, voters, declarations, found);
  value_differences(c, voters, declarations, found);
  grad_differences(c, voters, declarations, found);
  expectation_differences(c, voters, declarations, found);
  message_differences(c, voters, declarations, found);
  variant_differences(c, outcomes, declarations, found);
  // Where the documents' answer alone differs, or only its part is undeclared: documentation vs implementation.
  const std::string documents = name_with_role(Role::document);
  const std::vector<std::string> only_documents{documents};
  for (Difference& d : found)
    if (!documents.empty() && d.finding_class == FindingClass::outcome &&
        (d.odd_ones == only_documents || d.undeclared == only_documents))
      d.finding_class = FindingClass::document;
  // Outcome differences first (the expectation's message is a message), then the documents', messages, zeros.
  std::stable_sort(found.begin(), found.end(), [](const Difference& a, const Difference& b) {
    return static_cast<int>(a.finding_class) < static_cast<int>(b.finding_class);
  });
  settle(property, c, voters, false, j);
  return j;
}

bool without_majority(const Judgement& j, const Outcomes& outcomes) {
  const OutcomeSelection voters = voters_of(outcomes);
  size_t named = 0;
  for (const auto& [name, o] : voters) {
    if (std::find(j.odd_ones.begin(), j.odd_ones.end(), name) == j.odd_ones.end()) return false;
    ++named;
  }
  return named >= 2;
}

void make_zeros_strict(const std::string& property, const Case& c, const Outcomes& outcomes, Judgement& j) {
  settle(property, c, voters_of(outcomes), true, j);
}

nlohmann::json to_json(const Difference& d) {
  nlohmann::json j = {{"component", d.component}, {"class", to_string(d.finding_class)}, {"odd_ones", d.odd_ones},
                      {"attribution", d.attribution}};
  if (d.operand >= 0) j["operand"] = d.operand;
  if (!d.known_ids.empty()) j["known"] = d.known_ids;
  if (!d.undeclared.empty()) j["undeclared"] = d.undeclared;
  if (d.if_undeclared != Verdict::discrepancy) j["if_undeclared"] = to_string(d.if_undeclared);
  return j;
}

Difference difference_from_json(const nlohmann::json& j) {
  Difference d;
  d.component = j.at("component").get<std::string>();
  const std::string k = j.value("class", "outcome");
  for (FindingClass x : {FindingClass::outcome, FindingClass::document, FindingClass::message, FindingClass::zeros})
    if (k == to_string(x)) d.finding_class = x;
  d.operand = j.value("operand", -1);
  d.odd_ones = j.value("odd_ones", std::vector<std::string>{});
  d.attribution = j.value("attribution", "");
  d.known_ids = j.value("known", std::vector<std::string>{});
  d.undeclared = j.value("undeclared", std::vector<std::string>{});
  if (j.value("if_undeclared", "") == "expect_failed") d.if_undeclared = Verdict::expect_failed;
  return d;
}

}  // namespace bc
